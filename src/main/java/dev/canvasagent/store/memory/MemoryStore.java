package dev.canvasagent.store.memory;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.ChatStore;
import dev.canvasagent.store.RevisionConflict;
import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.TranscriptStore;
import dev.canvasagent.store.UnknownSession;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The embedded store: everything in this process's memory, gone when it stops. Verticles on different
 * event loops share it, so every operation holds the store's lock for a few map operations (never
 * for I/O) and answers with an already-completed future.
 */
public final class MemoryStore implements Store, BoardStore, SessionStore {
  private final Object lock = new Object();
  private final Map<String, Board> boards = new HashMap<>();
  private final Map<String, List<BoardRevision>> revisions = new HashMap<>();
  private final Map<String, Session> sessions = new HashMap<>();
  private final Map<String, Long> lastSeqs = new HashMap<>();
  private final Map<String, Origin> origins = new HashMap<>();
  private final MemoryTodoStore todos = new MemoryTodoStore();
  private final MemoryTranscriptStore transcripts = new MemoryTranscriptStore();
  private final MemoryChatStore chats = new MemoryChatStore();

  @Override
  public BoardStore boards() {
    return this;
  }

  @Override
  public SessionStore sessions() {
    return this;
  }

  @Override
  public TodoStore todos() {
    return todos;
  }

  @Override
  public TranscriptStore transcripts() {
    return transcripts;
  }

  @Override
  public ChatStore chats() {
    return chats;
  }

  @Override
  public String kind() {
    return "memory";
  }

  @Override
  public Future<Void> ping() {
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }

  @Override
  public Future<Board> load(String roomId) {
    synchronized (lock) {
      return Future.succeededFuture(boards.getOrDefault(roomId, Board.empty(roomId)));
    }
  }

  @Override
  public Future<Long> commit(String roomId, long baseRevision, RecordDiff diff, String author) {
    synchronized (lock) {
      Board current = boards.getOrDefault(roomId, Board.empty(roomId));
      if (current.revision() != baseRevision) {
        return Future.failedFuture(new RevisionConflict(roomId, baseRevision, current.revision()));
      }
      long next = baseRevision + 1;
      boards.put(roomId, current.apply(diff, next));
      revisions
          .computeIfAbsent(roomId, id -> new ArrayList<>())
          .add(new BoardRevision(next, diff, author, System.currentTimeMillis()));
      return Future.succeededFuture(next);
    }
  }

  @Override
  public Future<List<BoardRevision>> revisions(String roomId, long afterRevision, int limit) {
    synchronized (lock) {
      return Future.succeededFuture(
          revisions.getOrDefault(roomId, List.of()).stream()
              .filter(revision -> revision.revision() > afterRevision)
              .limit(limit)
              .toList());
    }
  }

  @Override
  public Future<Session> create(Session session) {
    synchronized (lock) {
      return Future.succeededFuture(sessions.computeIfAbsent(session.id(), id -> session));
    }
  }

  @Override
  public Future<Optional<Session>> find(String sessionId) {
    synchronized (lock) {
      return Future.succeededFuture(Optional.ofNullable(sessions.get(sessionId)));
    }
  }

  @Override
  public Future<Long> nextSeq(String sessionId) {
    synchronized (lock) {
      if (!sessions.containsKey(sessionId)) {
        return Future.failedFuture(new UnknownSession(sessionId));
      }
      return Future.succeededFuture(lastSeqs.merge(sessionId, 1L, Long::sum));
    }
  }

  @Override
  public Future<Origin> fixOrigin(String sessionId, Origin proposed) {
    synchronized (lock) {
      if (!sessions.containsKey(sessionId)) {
        return Future.failedFuture(new UnknownSession(sessionId));
      }
      return Future.succeededFuture(origins.computeIfAbsent(sessionId, id -> proposed));
    }
  }
}
