package dev.canvasagent.store.memory;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.store.AssetStore;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.ChatStore;
import dev.canvasagent.store.DocumentAgentSessions;
import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.RateLimits;
import dev.canvasagent.store.RevisionConflict;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.TranscriptStore;
import dev.canvasagent.store.UnknownSession;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The embedded store: everything in this process's memory, gone when it stops (a restart forgets
 * every session, board and run). Each room's current records are kept whole; its revision history
 * only up to a {@link RevisionRetention}, oldest dropped first. Verticles on different
 * event loops share it, so every operation holds the store's lock for a few map operations (never
 * for I/O) and answers with an already-completed future.
 */
public final class MemoryStore implements Store, BoardStore, SessionStore {
  private final Object lock = new Object();
  private final Map<String, Board> boards = new HashMap<>();
  private final Map<String, RevisionHistory> revisions = new HashMap<>();
  private final RevisionRetention retention;
  private final Map<String, Session> sessions = new HashMap<>();

  /** The request fingerprint each session created by an idempotency key was created with. */
  private final Map<String, String> sessionFingerprints = new HashMap<>();

  private final Map<String, Long> lastSeqs = new HashMap<>();

  /**
   * The order sessions were last active in (created, or a run accepted): clocks tie within a
   * millisecond, this never does.
   */
  private final Map<String, Long> activity = new HashMap<>();

  private long lastActivity;
  private final MemoryTodoStore todos = new MemoryTodoStore();
  private final MemoryTranscriptStore transcripts = new MemoryTranscriptStore();
  private final MemoryChatStore chats = new MemoryChatStore();
  private final MemoryRunStore runs = new MemoryRunStore(System::currentTimeMillis);
  private final RunStore runStore = new Runs();
  private final MemoryDocumentStore documents = new MemoryDocumentStore(System::currentTimeMillis);
  private final MemoryDocumentAgentSessions agentSessions = new MemoryDocumentAgentSessions();
  private final MemoryRateLimits rateLimits = new MemoryRateLimits();
  private final AssetStore assets;

  /** Its own secret: this store's ids, like everything else in it, live only as long as the process. */
  private final IdempotencyKeys idempotencyKeys = new IdempotencyKeys(IdempotencyKeys.newSecret());

  /** A store keeping each room's history to the default retention. */
  public MemoryStore() {
    this(RevisionRetention.DEFAULT);
  }

  public MemoryStore(RevisionRetention retention) {
    this(retention, new MemoryAssetStore());
  }

  /**
   * {@code assets}: where its assets are kept; the embedded server keeps them in a directory, off
   * the heap.
   */
  public MemoryStore(RevisionRetention retention, AssetStore assets) {
    this.retention = Objects.requireNonNull(retention, "retention");
    this.assets = Objects.requireNonNull(assets, "assets");
  }

  @Override
  public AssetStore assets() {
    return assets;
  }

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
  public RunStore runs() {
    return runStore;
  }

  @Override
  public DocumentStore documents() {
    return documents;
  }

  @Override
  public DocumentAgentSessions documentAgentSessions() {
    return agentSessions;
  }

  @Override
  public RateLimits rateLimits() {
    return rateLimits;
  }

  @Override
  public IdempotencyKeys idempotencyKeys() {
    return idempotencyKeys;
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
  public Future<Long> commit(
      String roomId, long baseRevision, RecordDiff diff, String author, String runId) {
    synchronized (lock) {
      Board current = boards.getOrDefault(roomId, Board.empty(roomId));
      if (current.revision() != baseRevision) {
        return Future.failedFuture(new RevisionConflict(roomId, baseRevision, current.revision()));
      }
      long next = baseRevision + 1;
      boards.put(roomId, current.apply(diff, next));
      revisions
          .computeIfAbsent(roomId, id -> new RevisionHistory(retention))
          .append(new BoardRevision(next, diff, author, System.currentTimeMillis(), runId));
      return Future.succeededFuture(next);
    }
  }

  @Override
  public Future<List<BoardRevision>> revisions(String roomId, long afterRevision, int limit) {
    synchronized (lock) {
      RevisionHistory history = revisions.get(roomId);
      return Future.succeededFuture(
          history == null ? List.of() : history.after(afterRevision, limit));
    }
  }

  @Override
  public Future<Session> create(Session session, String requestFingerprint) {
    synchronized (lock) {
      Session existing = sessions.get(session.id());
      if (existing != null) {
        return Objects.equals(sessionFingerprints.get(session.id()), requestFingerprint)
            ? Future.succeededFuture(existing)
            : Future.failedFuture(IdempotencyKeys.reused());
      }
      sessions.put(session.id(), session);
      if (requestFingerprint != null) {
        sessionFingerprints.put(session.id(), requestFingerprint);
      }
      activity.put(session.id(), ++lastActivity);
      return Future.succeededFuture(session);
    }
  }

  @Override
  public Future<Optional<Session>> find(String sessionId) {
    synchronized (lock) {
      return Future.succeededFuture(Optional.ofNullable(sessions.get(sessionId)));
    }
  }

  @Override
  public Future<List<Session>> list(String roomId, int limit) {
    synchronized (lock) {
      return Future.succeededFuture(
          sessions.values().stream()
              .filter(session -> session.roomId().equals(roomId))
              .sorted(
                  Comparator.comparingLong(
                          (Session session) -> activity.getOrDefault(session.id(), 0L))
                      .reversed())
              .limit(limit)
              .toList());
    }
  }

  @Override
  public Future<Optional<Session>> update(String sessionId, Changes changes) {
    synchronized (lock) {
      Session session = sessions.get(sessionId);
      if (session == null) {
        return Future.succeededFuture(Optional.empty());
      }
      Session updated =
          new Session(
              session.id(),
              session.roomId(),
              changes.title() == null ? session.title() : changes.title(),
              changes.model() == null ? session.model() : changes.model(),
              session.origin(),
              changes.contextItems() == null ? session.contextItems() : changes.contextItems(),
              session.createdAtMillis(),
              session.lastActiveAtMillis());
      sessions.put(sessionId, updated);
      return Future.succeededFuture(Optional.of(updated));
    }
  }

  @Override
  public Future<Deletion> delete(String sessionId) {
    synchronized (lock) {
      if (!sessions.containsKey(sessionId)) {
        return Future.succeededFuture(Deletion.NOT_FOUND);
      }
      if (runs.hasLiveRun(sessionId)) {
        return Future.succeededFuture(Deletion.BUSY);
      }
      sessions.remove(sessionId);
      sessionFingerprints.remove(sessionId);
      lastSeqs.remove(sessionId);
      activity.remove(sessionId);
      chats.forget(sessionId);
      todos.forget(sessionId);
      runs.forget(sessionId);
      return Future.succeededFuture(Deletion.DELETED);
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
      Session session = sessions.get(sessionId);
      if (session.origin() != null) {
        return Future.succeededFuture(session.origin());
      }
      sessions.put(
          sessionId,
          new Session(
              session.id(),
              session.roomId(),
              session.title(),
              session.model(),
              proposed,
              session.contextItems(),
              session.createdAtMillis(),
              session.lastActiveAtMillis()));
      return Future.succeededFuture(proposed);
    }
  }

  private void touch(String sessionId) {
    synchronized (lock) {
      Session session = sessions.get(sessionId);
      if (session != null) {
        activity.put(sessionId, ++lastActivity);
        sessions.put(
            sessionId,
            new Session(
                session.id(),
                session.roomId(),
                session.title(),
                session.model(),
                session.origin(),
                session.contextItems(),
                session.createdAtMillis(),
                Math.max(session.lastActiveAtMillis(), System.currentTimeMillis())));
      }
    }
  }

  /** The run records, checked against the sessions: a run of a session that is gone is refused. */
  private final class Runs implements RunStore {
    @Override
    public Future<Accepted> accept(NewRun run) {
      synchronized (lock) {
        if (!sessions.containsKey(run.sessionId())) {
          return Future.failedFuture(new UnknownSession(run.sessionId()));
        }
        Accepted accepted = runs.accept(run);
        if (!accepted.created()
            && !Objects.equals(accepted.run().requestFingerprint(), run.requestFingerprint())) {
          return Future.failedFuture(IdempotencyKeys.reused());
        }
        touch(run.sessionId());
        return Future.succeededFuture(accepted);
      }
    }

    @Override
    public Future<Claim> claim(NewRun run, String nodeId) {
      return Future.succeededFuture(runs.claim(run, nodeId));
    }

    @Override
    public Future<List<Orphan>> orphans(long staleAfterMs, Collection<String> heldHere) {
      return Future.succeededFuture(runs.orphans(staleAfterMs, heldHere));
    }

    @Override
    public Future<List<String>> queuedBefore(String sessionId, String runId) {
      return Future.succeededFuture(runs.queuedBefore(sessionId, runId));
    }

    @Override
    public Future<List<String>> takeOver(
        Collection<String> runIds, long staleAfterMs, String nodeId) {
      return Future.succeededFuture(runs.takeOver(runIds, staleAfterMs, nodeId));
    }

    @Override
    public Future<Void> release(Collection<String> runIds) {
      runs.release(runIds);
      return Future.succeededFuture();
    }

    @Override
    public Future<Optional<Running>> running(String sessionId) {
      return Future.succeededFuture(runs.running(sessionId));
    }

    @Override
    public Future<Optional<RunRecord>> adopt(String runId) {
      return Future.succeededFuture(runs.adopt(runId));
    }

    @Override
    public Future<Boolean> finish(String runId, String state, JsonObject detail) {
      return Future.succeededFuture(runs.finish(runId, state, detail));
    }

    @Override
    public Future<Void> heartbeat(Collection<String> runIds) {
      runs.heartbeat(runIds);
      return Future.succeededFuture();
    }

    @Override
    public Future<List<RunRecord>> sweepInterrupted(
        long staleAfterMs, JsonObject detail, Collection<String> heldHere) {
      return Future.succeededFuture(runs.sweepInterrupted(staleAfterMs, detail, heldHere));
    }

    @Override
    public Future<Optional<RunRecord>> find(String runId) {
      return Future.succeededFuture(runs.find(runId));
    }

    @Override
    public Future<List<RunRecord>> recent(String sessionId, int limit) {
      return Future.succeededFuture(runs.recent(sessionId, limit));
    }
  }
}
