package dev.canvasagent.bus;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every code that says why something did not go as asked, each declared once; its name is what
 * clients see ({@code error.code}, a status's {@code detail.code}). Three kinds:
 * <ul>
 *   <li>a request's failure: answered on the bus ({@code message.fail(code.wire(), text)}) and, by the
 *       bridge, with the code's HTTP status;
 *   <li>why a run stopped, in its final {@code agent:status} and its run record (and {@code ACK_TIMEOUT},
 *       an envelope its host never acknowledged);
 *   <li>why a browser's frame was refused, in the error frame sent back.
 * </ul>
 * Only the first kind is ever a reply, so only it has a bus number and an HTTP status.
 */
public enum FailureCode {
  INVALID_JSON(1, 400),
  INVALID_REQUEST(2, 400),
  UNSUPPORTED_MEDIA_TYPE(3, 415),
  BODY_TOO_LARGE(4, 413),
  NOT_FOUND(5, 404),
  METHOD_NOT_ALLOWED(6, 405),
  UNKNOWN_MODEL(7, 400),
  SESSION_NOT_FOUND(8, 404),
  SESSION_ROOM_MISMATCH(9, 409),
  QUEUE_FULL(10, 429, Retry.YES),
  ACTION_INVALID(11, 400),
  /**
   * A change against a revision the board has moved past. Also why a run ended in error when one of
   * its actions could commit nothing for the run's conflict patience ({@code runner.conflictPatienceMs}).
   */
  REVISION_CONFLICT(12, 409, Retry.YES),
  NO_HOST(13, 503, Retry.YES),
  SCREENSHOT_TIMEOUT(14, 504, Retry.YES),
  STORE_UNAVAILABLE(15, 503, Retry.YES),
  TIMEOUT(16, 504, Retry.YES),
  INTERNAL(17, 500),
  SHAPE_NOT_FOUND(18, 422),
  DUPLICATE_CREATE(19, 400),
  INVALID_RECORD(20, 422),
  /** The model's provider is known but its API key or base URL is not set; the message names the variable. */
  MODEL_NOT_CONFIGURED(21, 422),
  /** The session has a run queued or running, so it cannot be deleted now. */
  SESSION_BUSY(22, 409),
  /** A document's lease is held by another live lease. */
  LOCK_NOT_AVAILABLE(23, 409),
  /** The lease id is not the document's current lease. */
  LOCK_NOT_OWNED(24, 409),
  /** The lease ran out before this call. */
  LEASE_EXPIRED(25, 409),
  /** The epoch (fencing token) is older than the document's: the lease was preempted. */
  STALE_EPOCH(26, 409),
  /** A patch that does not apply cleanly; the message names the hunk and why. */
  PATCH_REJECTED(27, 422),
  /** No access token, or one that is not valid (bad signature, malformed, missing claims). */
  UNAUTHENTICATED(28, 401),
  /** The access token's expiry has passed: get a new one. */
  TOKEN_EXPIRED(29, 401),
  /** A valid token that does not allow this: another room, or a role below the one needed. */
  FORBIDDEN(30, 403),
  /** Over one of the client's or the room's limits; the answer says when to try again. */
  RATE_LIMITED(31, 429),
  /** A browser page from an origin that is neither this server's nor on the allow-list. */
  ORIGIN_NOT_ALLOWED(32, 403),
  /** With auth off, a request addressed to a name that is not loopback: a rebound DNS name, most likely. */
  HOST_NOT_ALLOWED(33, 403),
  /**
   * The caller's {@code Idempotency-Key} was first sent with another request (IETF httpapi
   * idempotency-key draft: 422): nothing was done; a new request needs a new key.
   */
  IDEMPOTENCY_KEY_REUSED(34, 422),
  /** A request body did not arrive within its deadline; the connection is closed after the answer. */
  REQUEST_TIMEOUT(35, 408),
  /**
   * A retried {@code Idempotency-Key} whose run was interrupted (its node stopped) before it ended: it
   * will not run, so the retry is not answered {@code 202}. The same key always gets this; the
   * message sent again with a new key runs.
   */
  RUN_INTERRUPTED(36, 409),

  /** A run id the server has no record of (or one deleted with its session). */
  RUN_NOT_FOUND(37, 404),

  /** A run of another room than the one the request names. */
  RUN_ROOM_MISMATCH(38, 409),

  /** A run that is queued or running: it can be reverted once it has ended. */
  RUN_STILL_RUNNING(39, 409),

  /**
   * A run whose changes cannot be reverted exactly: the board's kept history no longer reaches back
   * to before it, or it made its revisions before they recorded their run.
   */
  RUN_NOT_REVERTIBLE(40, 409),

  /**
   * The node is draining for a shutdown: it takes no new run (or follow-up message, or document-agent
   * loop); another node, or this one once restarted, will. Answered with {@code Retry-After}.
   */
  SHUTTING_DOWN(41, 503, Retry.YES),

  /**
   * The node has not finished starting: only its health routes answer yet. Answered with {@code
   * Retry-After}.
   */
  STARTING(42, 503, Retry.YES),

  /** Canceled by request, or by the server shutting down. */
  CANCELED,
  /** A newer message in the session took the run's place. */
  PREEMPTED,
  /** Still going at the scheduler's limit for a run. */
  WATCHDOG,
  /** Still going at the runner's own deadline, the backstop behind the watchdog. */
  DEADLINE,
  /** The node running it stopped, or its runner did not end it after a cancel. */
  INTERRUPTED(Retry.YES),
  /** The model's provider failed; whether it is retryable is the provider's error's to say. */
  MODEL_ERROR,
  /** The model's actions could not be read. */
  ACTIONS_MALFORMED,
  /** The room's host did not acknowledge an envelope after its re-sends. */
  ACK_TIMEOUT,

  /** Not a JSON text frame of the form {@code {topic, payload}}. */
  INVALID_FRAME,
  /** A payload its topic's schema refuses. */
  INVALID_PAYLOAD,
  /** A topic browsers may not send. */
  UNKNOWN_TOPIC,
  /** A bus address browsers may not register or send to. */
  NOT_PERMITTED,
  /** A send before the connection registered an address of its room. */
  NOT_JOINED,
  /** An address of another room than the connection's. */
  OTHER_ROOM,
  /** A frame naming another client than the connection's. */
  FORGED_CLIENT_ID,
  /** An ack of a seq the room never sent in that session. */
  ACK_UNKNOWN,
  /** A screenshot from a client that is not the room's host. */
  NOT_HOST;

  /** Marks the codes whose cause passes by itself: the same request may succeed if sent again. */
  private enum Retry {
    YES
  }

  private static final int NOT_A_REPLY = 0;

  private final int wire;
  private final int httpStatus;
  private final boolean retryable;

  FailureCode(int wire, int httpStatus) {
    this(wire, httpStatus, false);
  }

  FailureCode(int wire, int httpStatus, Retry retry) {
    this(wire, httpStatus, true);
  }

  FailureCode() {
    this(NOT_A_REPLY, NOT_A_REPLY, false);
  }

  FailureCode(Retry retry) {
    this(NOT_A_REPLY, NOT_A_REPLY, true);
  }

  FailureCode(int wire, int httpStatus, boolean retryable) {
    this.wire = wire;
    this.httpStatus = httpStatus;
    this.retryable = retryable;
  }

  /** Whether it answers a request (bus, HTTP); a run's stop codes and a frame's refusals never do. */
  public boolean isReply() {
    return wire != NOT_A_REPLY;
  }

  /** The integer carried by {@code ReplyException.failureCode()}. */
  public int wire() {
    requireReply();
    return wire;
  }

  /** The HTTP status the bridge answers it with. */
  public int httpStatus() {
    requireReply();
    return httpStatus;
  }

  /** Whether the same request may succeed if sent again: the failures that pass by themselves. */
  public boolean retryable() {
    return retryable;
  }

  private void requireReply() {
    if (!isReply()) {
      throw new IllegalStateException(
          name() + " is never a reply, so it has no bus number or HTTP status");
    }
  }

  public static Optional<FailureCode> fromWire(int wire) {
    return Arrays.stream(values()).filter(code -> code.isReply() && code.wire == wire).findFirst();
  }

  /** The code a client was told by name, if it is one. */
  public static Optional<FailureCode> named(String name) {
    return Arrays.stream(values()).filter(code -> code.name().equals(name)).findFirst();
  }
}
