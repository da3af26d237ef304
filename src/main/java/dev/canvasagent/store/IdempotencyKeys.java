package dev.canvasagent.store;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The ids a client's idempotency key names, so that a retried request names the same run, session or
 * utterance as the first one and the store's unique keys ({@code ON CONFLICT DO NOTHING}) keep it once,
 * on any node. An id is HMAC-SHA256 of the kind of request, the caller's subject, the room and the key,
 * under this deployment's secret: one caller's key never names another's request, and nobody without
 * the secret can compute an id from a room and a key (a UUID v3 of them, as before, let anyone holding
 * a token ask whether another room had used a key). The secret must be the same on every node sharing
 * a store and outlive restarts: {@code PgStore} keeps it in the database, {@code MemoryStore} makes one
 * per process (its data dies with the process anyway).
 */
public final class IdempotencyKeys {
  static final int SECRET_BYTES = 32;
  private static final String HMAC = "HmacSHA256";

  private final SecretKeySpec secret;

  public IdempotencyKeys(byte[] secret) {
    if (secret.length < SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the idempotency secret needs at least " + SECRET_BYTES + " bytes");
    }
    this.secret = new SecretKeySpec(secret, HMAC);
  }

  /** A fresh secret, for a store that makes its own. */
  public static byte[] newSecret() {
    byte[] secret = new byte[SECRET_BYTES];
    new SecureRandom().nextBytes(secret);
    return secret;
  }

  /** The run a {@code POST /api/canvas-agent/run} with this key in this room creates. */
  public String runId(IdempotencyKey key, String roomId) {
    return derive("run", key, roomId);
  }

  /** The session such a run creates when it names none. */
  public String sessionOfRun(IdempotencyKey key, String roomId) {
    return derive("run-session", key, roomId);
  }

  /** The session a {@code POST /api/sessions} with this key in this room creates. */
  public String session(IdempotencyKey key, String roomId) {
    return derive("session", key, roomId);
  }

  /** The utterance a {@code POST /api/rooms/{roomId}/transcript} with this key stores. */
  public String utterance(IdempotencyKey key, String roomId) {
    return derive("utterance", key, roomId);
  }

  /** What a store answers when a key it holds comes back with another request; nothing has changed. */
  public static Failure reused() {
    return new Failure(
        FailureCode.IDEMPOTENCY_KEY_REUSED,
        "this Idempotency-Key was first used with another request; send a new key with a new request");
  }

  /** The first 128 bits of the HMAC as a UUID of version 8 (RFC 9562's own-format UUID), so ids keep their shape. */
  private String derive(String kind, IdempotencyKey key, String roomId) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(secret);
      // Each field length-first: a subject may hold any character, so no separator could keep the
      // fields apart.
      for (String field : new String[] {kind, key.subject(), roomId, key.key()}) {
        byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
        mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
        mac.update(bytes);
      }
      ByteBuffer digest = ByteBuffer.wrap(mac.doFinal());
      long high = (digest.getLong() & ~0xF000L) | 0x8000L;
      long low = (digest.getLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
      return new UUID(high, low).toString();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
