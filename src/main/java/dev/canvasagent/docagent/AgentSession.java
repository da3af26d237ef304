package dev.canvasagent.docagent;

import dev.canvasagent.model.Turn;
import dev.canvasagent.store.DocumentAgentSessions;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One document-agent conversation about one document: every turn so far (the person's instructions,
 * the hidden canvas updates, the model's answers, tool calls and results), and the revision the agent
 * last saw, from which the next person's changes are diffed. Read from the store when a loop has the
 * lease ({@link #from}), and what a loop adds written back with {@link #save}, so the session goes on
 * on whichever node runs its next loop. Touched on the agent verticle's context only.
 */
final class AgentSession {
  private final String docId;
  private final String sessionId;
  private final List<Turn> transcript = new ArrayList<>();

  /** The turns added since it was read, not yet in the store. */
  private final List<Turn> unsaved = new ArrayList<>();

  private String lastSeenRevisionId;
  private boolean seenChanged;

  /** A session with no turn yet. */
  AgentSession(String docId, String sessionId) {
    this.docId = docId;
    this.sessionId = sessionId;
  }

  /** The session as stored. */
  static AgentSession from(DocumentAgentSessions.Conversation stored) {
    AgentSession session = new AgentSession(stored.docId(), stored.sessionId());
    stored.turns().forEach(turn -> session.transcript.add(TurnJson.fromJson(turn)));
    session.lastSeenRevisionId = stored.lastSeenRevisionId();
    return session;
  }

  /**
   * Appends what was added since it was read (and the revision last seen, when it changed) to the
   * store; fails with {@link DocumentAgentSessions.BoundToAnotherDocument} when the session is
   * another document's.
   */
  Future<Void> save(DocumentAgentSessions store) {
    List<Turn> adding = List.copyOf(unsaved);
    return store
        .append(
            sessionId,
            docId,
            adding.stream().map(TurnJson::toJson).toList(),
            seenChanged ? lastSeenRevisionId : null)
        .onSuccess(
            saved -> {
              unsaved.subList(0, adding.size()).clear();
              seenChanged = false;
            });
  }

  String docId() {
    return docId;
  }

  String sessionId() {
    return sessionId;
  }

  /** The revision the agent last saw (after its own last write), or null before its first turn. */
  String lastSeenRevisionId() {
    return lastSeenRevisionId;
  }

  void seen(String revisionId) {
    lastSeenRevisionId = revisionId;
    seenChanged = true;
  }

  void addUser(String text) {
    add(new Turn.User(text));
  }

  private void add(Turn turn) {
    transcript.add(turn);
    unsaved.add(turn);
  }

  /**
   * Adds a loop's turns, keeping each tool call only when its result follows: a loop stopped at the
   * step cap or by an interrupt leaves calls without results, which no provider accepts in a history.
   */
  void addLoop(List<Turn> turns) {
    for (int i = 0; i < turns.size(); i++) {
      if (turns.get(i) instanceof Turn.Assistant answer && !answer.calls().isEmpty()) {
        Set<String> answered = new HashSet<>();
        if (i + 1 < turns.size() && turns.get(i + 1) instanceof Turn.ToolResults results) {
          results.results().forEach(result -> answered.add(result.callId()));
        }
        List<Turn.ToolCall> kept =
            answer.calls().stream().filter(call -> answered.contains(call.callId())).toList();
        if (kept.isEmpty() && answer.text().isEmpty()) {
          continue;
        }
        add(new Turn.Assistant(answer.text(), kept));
      } else if (!(turns.get(i) instanceof Turn.Assistant answer && answer.text().isEmpty())) {
        add(turns.get(i));
      }
    }
  }

  /** Every turn, as stored (consecutive user turns apart), for inspection. */
  List<Turn> transcript() {
    return List.copyOf(transcript);
  }

  /**
   * The transcript as a request takes it: the first user text, then the later turns, with consecutive
   * user turns (a hidden update and the instruction after it) joined into one, since some providers
   * refuse two user messages in a row.
   */
  Conversation conversation() {
    List<Turn> merged = new ArrayList<>();
    for (Turn turn : transcript) {
      if (turn instanceof Turn.User user
          && !merged.isEmpty()
          && merged.get(merged.size() - 1) instanceof Turn.User previous) {
        merged.set(merged.size() - 1, new Turn.User(previous.text() + "\n\n" + user.text()));
      } else {
        merged.add(turn);
      }
    }
    if (merged.isEmpty() || !(merged.get(0) instanceof Turn.User first)) {
      throw new IllegalStateException(
          "a document-agent conversation starts with the person's instruction");
    }
    return new Conversation(first.text(), merged.subList(1, merged.size()));
  }

  /** The first user message and the turns after it. */
  record Conversation(String firstUserMessage, List<Turn> turns) {
    Conversation {
      turns = List.copyOf(turns);
    }
  }
}
