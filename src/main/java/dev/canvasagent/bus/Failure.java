package dev.canvasagent.bus;

import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

/**
 * A failure with a {@link FailureCode}: thrown inside a verticle, answered with
 * {@link #replyTo(Message, Throwable)}, and read back from a {@link ReplyException} by the caller.
 */
public final class Failure extends RuntimeException {
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

  /** Answers a request with the failure's code, or INTERNAL for anything unexpected. */
  public static void replyTo(Message<?> message, Throwable error) {
    Failure failure = of(error);
    message.fail(failure.code().wire(), failure.getMessage());
  }

  /** Reads the code back from whatever a request failed with. */
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
    return new Failure(FailureCode.INTERNAL, String.valueOf(error.getMessage()));
  }
}
