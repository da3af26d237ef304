package dev.canvasagent.bus;

import dev.canvasagent.security.CorrelationId;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failure with a {@link FailureCode}: thrown inside a verticle, answered with
 * {@link #replyTo(Message, Throwable)}, and read back from a {@link ReplyException} by the caller.
 *
 * <p>Its message reaches clients (an HTTP answer, an error frame, a run's {@code agent:status} and
 * record), so it is always the server's own words. The text of an exception nobody coded — a
 * driver's {@code relation "…" does not exist}, a library's — goes to the log instead, on one line
 * with a correlation id, and the client gets that id: {@link #storeUnavailable} for the store,
 * {@link #of} for anything else (INTERNAL).
 */
public final class Failure extends RuntimeException {
  private static final Logger LOG = LoggerFactory.getLogger(Failure.class);
  private final FailureCode code;

  public Failure(FailureCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public FailureCode code() {
    return code;
  }

  public static <T> Future<T> future(FailureCode code, String message) {
    return Future.failedFuture(new Failure(code, message));
  }

  /**
   * The store could not do {@code what} ("store the session"): STORE_UNAVAILABLE, told as {@code could
   * not store the session: the store failed (correlation id …)}, the driver's text logged ({@code
   * store.failed}) under that id. A failure that is coded already passes through as it is.
   */
  /**
   * SHUTTING_DOWN: the node drains and {@code refuses} (what it no longer does, e.g. "takes no new
   * run"); the same request succeeds elsewhere or after a restart.
   */
  public static <T> Future<T> shuttingDown(String refuses) {
    return future(
        FailureCode.SHUTTING_DOWN,
        "this server is shutting down and "
            + refuses
            + "; retry (another node, or this one once restarted, takes it)");
  }

  public static Failure storeUnavailable(String what, Throwable cause) {
    if (cause instanceof Failure failure) {
      return failure;
    }
    String correlationId = CorrelationId.next();
    LOG.atWarn()
        .addKeyValue("what", what)
        .addKeyValue("correlationId", correlationId)
        .addKeyValue("error", String.valueOf(cause))
        .log("store.failed");
    return new Failure(
        FailureCode.STORE_UNAVAILABLE,
        "could not " + what + ": the store failed (correlation id " + correlationId + ")");
  }

  /** {@link #storeUnavailable} as a failed future, for {@code recover}. */
  public static <T> Future<T> storeFailed(String what, Throwable cause) {
    return Future.failedFuture(storeUnavailable(what, cause));
  }

  /** INTERNAL as a client may be told it: only the correlation id of the log line that has the error. */
  public static Failure internal(String correlationId) {
    return new Failure(
        FailureCode.INTERNAL, "internal error (correlation id " + correlationId + ")");
  }

  /** Answers a request with the failure's code, or INTERNAL for anything unexpected. */
  public static void replyTo(Message<?> message, Throwable error) {
    Failure failure = of(error);
    message.fail(failure.code().wire(), failure.getMessage());
  }

  /**
   * Reads the code back from whatever a request failed with. An error that is neither coded nor a
   * reply is INTERNAL; its text is logged ({@code failure.unexpected}, with its stack) and the
   * failure carries only the correlation id.
   */
  public static Failure of(Throwable error) {
    if (error instanceof Failure failure) {
      return failure;
    }
    if (error instanceof ReplyException reply) {
      if (reply.failureType() == ReplyFailure.TIMEOUT) {
        return new Failure(FailureCode.TIMEOUT, "no answer in time: " + reply.getMessage());
      }
      if (reply.failureType() == ReplyFailure.NO_HANDLERS) {
        return new Failure(FailureCode.INTERNAL, "no handler: " + reply.getMessage());
      }
      return FailureCode.fromWire(reply.failureCode())
          .map(code -> new Failure(code, reply.getMessage()))
          .orElseGet(() -> new Failure(FailureCode.INTERNAL, String.valueOf(reply.getMessage())));
    }
    String correlationId = CorrelationId.next();
    LOG.atError()
        .addKeyValue("correlationId", correlationId)
        .addKeyValue("error", String.valueOf(error))
        .setCause(error)
        .log("failure.unexpected");
    return internal(correlationId);
  }
}
