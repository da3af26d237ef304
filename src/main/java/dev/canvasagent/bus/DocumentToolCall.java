package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * One document tool call ({@code doc.tool}) on {@code docId} for {@code caller}: a lease is checked out
 * for that caller, and only that caller may use it. {@code args} is opaque to the bus: the tool's
 * arguments as the tool contract has them, checked by the lease manager against {@code
 * doctools/<tool>.json}. The caller is named by the server, never by {@code args}.
 */
public record DocumentToolCall(String docId, String tool, JsonObject args, Actor caller)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return caller.into(new JsonObject().put("docId", docId).put("tool", tool).put("args", args));
  }

  public static DocumentToolCall fromJson(JsonObject json) {
    String message = "a document tool call";
    return new DocumentToolCall(
        MessageFields.string(json, "docId", message),
        MessageFields.string(json, "tool", message),
        MessageFields.object(json, "args", message),
        Actor.from(json));
  }
}
