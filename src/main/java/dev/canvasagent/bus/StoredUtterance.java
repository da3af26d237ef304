package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * An utterance as a room's transcript keeps it ({@code runner.transcript.add}'s answer); {@code ts}
 * in epoch milliseconds.
 */
public record StoredUtterance(String speaker, String text, long ts) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("speaker", speaker).put("text", text).put("ts", ts);
  }

  public static StoredUtterance fromJson(JsonObject json) {
    return new StoredUtterance(
        json.getString("speaker"), json.getString("text"), json.getLong("ts"));
  }
}
