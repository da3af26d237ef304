package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.bus.FollowUp;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.store.TodoStore.Todo;
import dev.canvasagent.store.TranscriptStore.Utterance;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Everything a run's context is made from, gathered before the model is called. Page coordinates
 * throughout; the parts convert to the model's.
 *
 * @param viewport the requester's viewport in page space, or null when neither the request nor the
 *     room's host gave one
 * @param selection record ids of selected shapes that are on the board, in the order given
 * @param screenshot the screenshot verticle's answer, or null (the run is text-only)
 * @param followUp what made this run a follow-up, or null for a person's request
 * @param contextItems what a person pinned for the agent in the session (seed 002's context items:
 *     {@code {type: shape, shapeId}}, {@code {type: area, bounds}}, {@code {type: point, point}}), page coordinates
 */
public record ContextInputs(
    String roomId,
    String sessionId,
    String message,
    Board board,
    Origin origin,
    Viewport viewport,
    List<String> selection,
    List<Utterance> transcript,
    List<ChatMessage> chat,
    List<Todo> todos,
    JsonObject screenshot,
    FollowUp followUp,
    List<JsonObject> contextItems) {

  /** Without context items. */
  public ContextInputs(String roomId, String sessionId, String message, Board board, Origin origin, Viewport viewport,
      List<String> selection, List<Utterance> transcript, List<ChatMessage> chat, List<Todo> todos, JsonObject screenshot,
      FollowUp followUp) {
    this(roomId, sessionId, message, board, origin, viewport, selection, transcript, chat, todos, screenshot, followUp, List.of());
  }

  public ContextInputs {
    contextItems = contextItems.stream().map(JsonObject::copy).toList();
    selection = List.copyOf(selection);
    transcript = List.copyOf(transcript);
    chat = List.copyOf(chat);
    todos = List.copyOf(todos);
  }

  /** What the memoized parts depend on: the same key means the same board-derived sections. */
  MemoKey memoKey() {
    return new MemoKey(roomId, board.revision(), selection, viewport, transcript, origin);
  }

  /** The memo key: {@code room, docVersion, selection, viewport, transcript} and the session origin. */
  record MemoKey(String roomId, long docVersion, List<String> selection, Viewport viewport, List<Utterance> transcript, Origin origin) {}
}
