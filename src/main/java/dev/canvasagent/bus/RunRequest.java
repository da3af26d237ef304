package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * One run for the runner: what a person asked, in which room and session, with which model.
 * {@code viewport} may be null; {@code selection} (shape ids as the person's client names them) is
 * null when the request did not say, and then the room's host's selection counts; {@code followUp}
 * is null for a person's own request.
 */
public record RunRequest(
    String runId,
    String sessionId,
    String roomId,
    String message,
    String model,
    Viewport viewport,
    List<String> selection,
    FollowUp followUp)
    implements BusMessage {

  public RunRequest {
    selection = selection == null ? null : List.copyOf(selection);
  }

  /** A person's request (not a follow-up) that says nothing about the selection. */
  public RunRequest(
      String runId,
      String sessionId,
      String roomId,
      String message,
      String model,
      Viewport viewport) {
    this(runId, sessionId, roomId, message, model, viewport, null, null);
  }

  /** A run that says nothing about the selection. */
  public RunRequest(
      String runId,
      String sessionId,
      String roomId,
      String message,
      String model,
      Viewport viewport,
      FollowUp followUp) {
    this(runId, sessionId, roomId, message, model, viewport, null, followUp);
  }

  /** The run id of the user request this run belongs to: its own, or the one it follows up. */
  public String requestRunId() {
    return followUp == null ? runId : followUp.requestRunId();
  }

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("runId", runId)
            .put("sessionId", sessionId)
            .put("roomId", roomId)
            .put("message", message)
            .put("model", model);
    if (viewport != null) {
      json.put("viewport", viewport.toJson());
    }
    if (selection != null) {
      json.put("selection", new JsonArray(selection));
    }
    if (followUp != null) {
      json.put("followUp", followUp.toJson());
    }
    return json;
  }

  public static RunRequest fromJson(JsonObject json) {
    return new RunRequest(
        json.getString("runId"),
        json.getString("sessionId"),
        json.getString("roomId"),
        json.getString("message"),
        json.getString("model"),
        Viewport.fromJson(json.getJsonObject("viewport")),
        selectionFrom(json),
        FollowUp.fromJson(json.getJsonObject("followUp")));
  }

  /** The {@code selection} of a run request body or message, null when absent; the bridge has checked its shape. */
  public static List<String> selectionFrom(JsonObject json) {
    JsonArray selection = json.getJsonArray("selection");
    return selection == null ? null : selection.stream().map(String.class::cast).toList();
  }
}
