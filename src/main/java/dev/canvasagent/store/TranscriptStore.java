package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What was said in a room: utterances posted to {@code POST /api/rooms/{roomId}/transcript}, read
 * back as a time window for the prompt.
 */
public interface TranscriptStore {
  default Future<Utterance> add(String roomId, Utterance utterance) {
    return add(roomId, utterance, null);
  }

  /**
   * Adds the utterance. With {@code keyed} (null: none) whose id the room already holds, stores
   * nothing: answers the utterance stored the first time when the request fingerprint is the same,
   * else fails with {@link IdempotencyKeys#reused()}.
   */
  Future<Utterance> add(String roomId, Utterance utterance, Keyed keyed);

  /**
   * An utterance sent with an idempotency key: the client's {@code key}, the {@code id} derived from it
   * (unique in the room; {@link IdempotencyKeys#utterance}) and the fingerprint of the request.
   */
  record Keyed(String key, String id, String requestFingerprint) {}

  /**
   * The room's utterances with {@code ts >= sinceMillis}, oldest first; when there are more than
   * {@code limit}, the newest {@code limit} of them.
   */
  Future<List<Utterance>> since(String roomId, long sinceMillis, int limit);

  /** One utterance: who spoke, what they said, and when (epoch milliseconds). */
  record Utterance(String speaker, String text, long tsMillis) {
    public JsonObject toJson() {
      return new JsonObject().put("speaker", speaker).put("text", text).put("ts", tsMillis);
    }
  }
}
