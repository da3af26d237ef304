package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Everything a client needs to pick a session up again: the session (see {@link SessionView}), its
 * chat history, todos and recent runs, the room's recent transcript, and the revision the room's board
 * is at. The items are shown as the sessions API shows them and relayed unchanged to the HTTP client:
 * the bus does not read them.
 */
public record SessionResume(
    JsonObject session,
    List<JsonObject> chat,
    List<JsonObject> todos,
    List<JsonObject> runs,
    List<JsonObject> transcript,
    long boardRevision)
    implements BusMessage {
  public SessionResume {
    chat = List.copyOf(chat);
    todos = List.copyOf(todos);
    runs = List.copyOf(runs);
    transcript = List.copyOf(transcript);
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("session", session.copy())
        .put("chat", MessageFields.array(chat))
        .put("todos", MessageFields.array(todos))
        .put("runs", MessageFields.array(runs))
        .put("transcript", MessageFields.array(transcript))
        .put("boardRevision", boardRevision);
  }

  public static SessionResume fromJson(JsonObject json) {
    String message = "a session to resume";
    return new SessionResume(
        MessageFields.object(json, "session", message).copy(),
        MessageFields.objects(json, "chat", message),
        MessageFields.objects(json, "todos", message),
        MessageFields.objects(json, "runs", message),
        MessageFields.objects(json, "transcript", message),
        MessageFields.number(json, "boardRevision", message));
  }
}
