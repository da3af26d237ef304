package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * One utterance for a room's transcript ({@code POST /api/rooms/{roomId}/transcript}): who spoke,
 * what they said, when ({@code ts}, epoch milliseconds; null: now), and the request's {@link
 * IdempotencyKey} (null: none).
 */
public record TranscriptAdd(
    String roomId, String speaker, String text, Long ts, IdempotencyKey idempotency)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("speaker", speaker).put("text", text);
    if (ts != null) {
      json.put("ts", ts);
    }
    json.put("roomId", roomId);
    return idempotency == null ? json : idempotency.addTo(json);
  }

  /** INVALID_REQUEST without a {@code roomId}, {@code speaker} or {@code text}. */
  public static TranscriptAdd fromJson(JsonObject json) {
    return new TranscriptAdd(
        MessageFields.nonBlank(json, "roomId", "TranscriptAdd"),
        MessageFields.nonBlank(json, "speaker", "TranscriptAdd"),
        MessageFields.nonBlank(json, "text", "TranscriptAdd"),
        json.getLong("ts"),
        IdempotencyKey.in(json));
  }
}
