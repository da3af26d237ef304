package dev.canvasagent.bus;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A request's {@code Idempotency-Key} as it travels on the bus ({@code idempotency} in the ask): whose
 * key it is (the token's subject; with auth off, the open grant's), the key, and the fingerprint of
 * the request it came with. A key is its caller's alone, and binds the request: the same caller's
 * same key with the same request is a retry, with another request a mistake (IDEMPOTENCY_KEY_REUSED).
 */
public record IdempotencyKey(String subject, String key, String fingerprint) {
  public static final String FIELD = "idempotency";

  /** Keys sorted, so a retry that sends the same fields in another order is the same request. */
  private static final JsonMapper CANONICAL =
      JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

  public IdempotencyKey {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(fingerprint, "fingerprint");
  }

  /** {@code subject}'s {@code key}, sent with {@code request}: every field the key covers, as the client sent them. */
  public static IdempotencyKey of(String subject, String key, JsonObject request) {
    return new IdempotencyKey(subject, key, fingerprint(request));
  }

  /** The key an ask carries under {@value #FIELD}, or null for none. */
  public static IdempotencyKey in(JsonObject ask) {
    JsonObject json = ask.getJsonObject(FIELD);
    return json == null
        ? null
        : new IdempotencyKey(
            json.getString("subject"), json.getString("key"), json.getString("fingerprint"));
  }

  /** {@code ask} with this key under {@value #FIELD}. */
  public JsonObject addTo(JsonObject ask) {
    return ask.put(
        FIELD,
        new JsonObject().put("subject", subject).put("key", key).put("fingerprint", fingerprint));
  }

  /** Whether {@code stored} (a fingerprint kept with what this key created first) is this request's. */
  public boolean sameRequestAs(String stored) {
    return fingerprint.equals(stored);
  }

  /** SHA-256 of the request's canonical JSON (keys sorted), in hex. */
  static String fingerprint(JsonObject request) {
    try {
      byte[] canonical =
          CANONICAL.writeValueAsBytes(CANONICAL.readValue(request.encode(), Object.class));
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
