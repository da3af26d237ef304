package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The answer of {@code scheduler.session.activity}, for the admin view: what a session is doing, as its
 * owner node's scheduler sees it. {@code ownerNode} is the node that owns the session's queue; {@code
 * queued} the ids of its runs waiting there, in the order they will run; {@code running} its running
 * run, if any; {@code lastRun} its most recent run that has ended, if any.
 */
public record SessionActivity(
    String sessionId,
    String roomId,
    String ownerNode,
    List<String> queued,
    RunActivity running,
    EndedRun lastRun)
    implements BusMessage {
  public SessionActivity {
    queued = List.copyOf(queued);
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("sessionId", sessionId)
        .put("roomId", roomId)
        .put("ownerNode", ownerNode)
        .put("queued", new JsonArray(queued))
        .put("running", running == null ? null : running.toJson())
        .put("lastRun", lastRun == null ? null : lastRun.toJson());
  }

  public static SessionActivity fromJson(JsonObject json) {
    String message = "SessionActivity";
    JsonObject running = json.getJsonObject("running");
    JsonObject lastRun = json.getJsonObject("lastRun");
    return new SessionActivity(
        MessageFields.string(json, "sessionId", message),
        MessageFields.string(json, "roomId", message),
        MessageFields.string(json, "ownerNode", message),
        MessageFields.jsonArray(json, "queued", message).stream().map(String::valueOf).toList(),
        running == null ? null : RunActivity.fromJson(running),
        lastRun == null ? null : EndedRun.fromJson(lastRun));
  }
}
