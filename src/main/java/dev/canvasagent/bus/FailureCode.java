package dev.canvasagent.bus;

import java.util.Arrays;
import java.util.Optional;

/**
 * Why a request failed, as it travels on the event bus ({@code message.fail(code.wire(), text)}) and
 * as clients see it ({@code error.code}). The bridge maps each code to an HTTP status in one place.
 */
public enum FailureCode {
  INVALID_JSON(1),
  INVALID_REQUEST(2),
  UNSUPPORTED_MEDIA_TYPE(3),
  BODY_TOO_LARGE(4),
  NOT_FOUND(5),
  METHOD_NOT_ALLOWED(6),
  UNKNOWN_MODEL(7),
  SESSION_NOT_FOUND(8),
  SESSION_ROOM_MISMATCH(9),
  QUEUE_FULL(10),
  ACTION_INVALID(11),
  REVISION_CONFLICT(12),
  NO_HOST(13),
  SCREENSHOT_TIMEOUT(14),
  STORE_UNAVAILABLE(15),
  TIMEOUT(16),
  INTERNAL(17),
  SHAPE_NOT_FOUND(18),
  DUPLICATE_CREATE(19),
  INVALID_RECORD(20),
  /** The model's provider is known but its API key or base URL is not set; the message names the variable. */
  MODEL_NOT_CONFIGURED(21),
  /** The session has a run queued or running, so it cannot be deleted now. */
  SESSION_BUSY(22),
  /** A document's lease is held by another live lease. */
  LOCK_NOT_AVAILABLE(23),
  /** The lease id is not the document's current lease. */
  LOCK_NOT_OWNED(24),
  /** The lease ran out before this call. */
  LEASE_EXPIRED(25),
  /** The epoch (fencing token) is older than the document's: the lease was preempted. */
  STALE_EPOCH(26),
  /** A patch that does not apply cleanly; the message names the hunk and why. */
  PATCH_REJECTED(27),
  /** No access token, or one that is not valid (bad signature, malformed, missing claims). */
  UNAUTHENTICATED(28),
  /** The access token's expiry has passed: get a new one. */
  TOKEN_EXPIRED(29),
  /** A valid token that does not allow this: another room, or a role below the one needed. */
  FORBIDDEN(30),
  /** Over one of the client's or the room's limits; the answer says when to try again. */
  RATE_LIMITED(31),
  /** A browser page from an origin that is neither this server's nor on the allow-list. */
  ORIGIN_NOT_ALLOWED(32),
  /** With auth off, a request addressed to a name that is not loopback: a rebound DNS name, most likely. */
  HOST_NOT_ALLOWED(33),
  /**
   * The caller's {@code Idempotency-Key} was first sent with another request (IETF httpapi
   * idempotency-key draft: 422): nothing was done; a new request needs a new key.
   */
  IDEMPOTENCY_KEY_REUSED(34),
  /** A request body did not arrive within its deadline; the connection is closed after the answer. */
  REQUEST_TIMEOUT(35);

  private final int wire;

  FailureCode(int wire) {
    this.wire = wire;
  }

  /** The integer carried by {@code ReplyException.failureCode()}. */
  public int wire() {
    return wire;
  }

  public static Optional<FailureCode> fromWire(int wire) {
    return Arrays.stream(values()).filter(code -> code.wire == wire).findFirst();
  }
}
