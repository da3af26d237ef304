package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * Reads the keys a message cannot do without. A message missing one is answered INVALID_REQUEST
 * with the key's name, not as an internal error: {@code fromJson} throws a {@link Failure}, and the
 * answering verticle replies with its code.
 */
final class RequiredKeys {
  private RequiredKeys() {}

  /**
   * {@code key}'s string, which must be there and not blank; {@code json} may be null (no body).
   */
  static String string(JsonObject json, String key) {
    String value = json == null ? null : json.getString(key);
    if (value == null || value.isBlank()) {
      throw new Failure(FailureCode.INVALID_REQUEST, key + " must be a non-empty string");
    }
    return value;
  }
}
