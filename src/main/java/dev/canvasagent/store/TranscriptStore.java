package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What was said in a room (seed 002's {@code transcripts}): utterances posted to
 * {@code POST /api/rooms/{roomId}/transcript}, read back as a time window for the prompt.
 */
public interface TranscriptStore {
  default Future<Utterance> add(String roomId, Utterance utterance) {
    return add(roomId, utterance, null);
  }

  /**
   * Adds the utterance; with an {@code idempotencyKey} (null: none) that the room already used, stores
   * nothing and answers the utterance stored the first time.
   */
  Future<Utterance> add(String roomId, Utterance utterance, String idempotencyKey);

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
