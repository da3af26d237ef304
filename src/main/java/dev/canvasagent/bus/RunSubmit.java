package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A person's run request for the scheduler, as {@code POST /api/canvas-agent/run} took it (its
 * body, checked against {@code api/run-request.json}, has these keys): the room, the session (null:
 * a new one), the message, the model (null: the session's), the viewport and selection (null when
 * not said), and the request's {@link IdempotencyKey} (null: none).
 */
public record RunSubmit(
    String roomId,
    String sessionId,
    String message,
    String model,
    Viewport viewport,
    List<String> selection,
    IdempotencyKey idempotency)
    implements BusMessage {

  public RunSubmit {
    selection = selection == null ? null : List.copyOf(selection);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("roomId", roomId).put("message", message);
    if (model != null) {
      json.put("model", model);
    }
    if (sessionId != null) {
      json.put("sessionId", sessionId);
    }
    if (selection != null) {
      json.put("selection", new JsonArray(selection));
    }
    if (viewport != null) {
      json.put("viewport", viewport.toJson());
    }
    return idempotency == null ? json : idempotency.addTo(json);
  }

  /** INVALID_REQUEST without a {@code roomId} or {@code message}. */
  public static RunSubmit fromJson(JsonObject json) {
    return new RunSubmit(
        MessageFields.nonBlank(json, "roomId", "RunSubmit"),
        json.getString("sessionId"),
        MessageFields.nonBlank(json, "message", "RunSubmit"),
        json.getString("model"),
        Viewport.fromJson(json.getJsonObject("viewport")),
        RunRequest.selectionFrom(json),
        IdempotencyKey.in(json));
  }
}
