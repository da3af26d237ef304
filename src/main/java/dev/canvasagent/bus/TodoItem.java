package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * One item of a session's todo list: {@code status} is {@code open}, {@code done} or {@code
 * skipped}; {@code createdAt} and {@code resolvedAt} (null while open) are epoch milliseconds.
 */
public record TodoItem(
    String id, String text, String status, int position, long createdAt, Long resolvedAt)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("id", id)
            .put("text", text)
            .put("status", status)
            .put("position", position)
            .put("createdAt", createdAt);
    if (resolvedAt != null) {
      json.put("resolvedAt", resolvedAt);
    }
    return json;
  }

  public static TodoItem fromJson(JsonObject json) {
    return new TodoItem(
        json.getString("id"),
        json.getString("text"),
        json.getString("status"),
        json.getInteger("position"),
        json.getLong("createdAt"),
        json.getLong("resolvedAt"));
  }
}
