package dev.canvasagent.verticle;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BusMessage;
import dev.canvasagent.bus.Endpoint;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.HealthReport;
import dev.canvasagent.bus.Notice;
import dev.canvasagent.security.CorrelationId;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A verticle of the server: it answers its health probe ({@code health.<name>}) beside its own work,
 * and counts as started only once both are registered.
 *
 * <p>Its endpoints and notices are this node's own ({@code localConsumer}): on a clustered bus a
 * request for the patch engine, the sanitizer or the scheduler is answered on the node that asks,
 * never by a random member. What crosses nodes does so on purpose, on addresses that say so (the room
 * topics, a node's or a run's own address).
 */
public abstract class CanvasVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(CanvasVerticle.class);

  /** The verticle's name in health reports and logs. */
  public abstract String name();

  /** Starts the verticle's own consumers and servers. */
  protected abstract Future<?> startVerticle();

  /**
   * What the verticle reports about itself, read as its {@link HealthReport}: {@code ok:false} (or no
   * {@code ok}) marks it unhealthy.
   */
  protected Future<JsonObject> health() {
    return Future.succeededFuture(new JsonObject().put("ok", true));
  }

  /**
   * Answers {@code endpoint}'s requests with {@code handler}: the request is read from the message's
   * JSON, the reply written back as JSON; failures are answered as {@link #answer(String, Function)}
   * tells.
   */
  protected final <Q extends BusMessage, R extends BusMessage> Future<?> answer(
      Endpoint<Q, R> endpoint, Function<Q, Future<R>> handler) {
    return answer(
        endpoint.address(),
        body -> handler.apply(endpoint.request().apply(body)).map(BusMessage::toJson));
  }

  /**
   * As {@link #answer(Endpoint, Function)}, but on the clustered bus: requests from every node reach
   * it. Only for an address that names the node it belongs to (a node's or a run's own address), so
   * that it is never one of many answering at random.
   */
  protected final <Q extends BusMessage, R extends BusMessage> Future<?> answerAcrossNodes(
      Endpoint<Q, R> endpoint, Function<Q, Future<R>> handler) {
    return answer(
        endpoint.address(),
        body -> handler.apply(endpoint.request().apply(body)).map(BusMessage::toJson),
        true);
  }

  /**
   * The typed {@link #answer(Endpoint, Function)}, for a helper that registers a verticle's endpoints
   * on its behalf: the verticle hands it {@code this::answer}.
   */
  @FunctionalInterface
  public interface Answerer {
    <Q extends BusMessage, R extends BusMessage> Future<?> answer(
        Endpoint<Q, R> endpoint, Function<Q, Future<R>> handler);
  }

  /** Takes {@code notice}'s one-way messages with {@code handler}, which is given each one read from its JSON. */
  protected final <T extends BusMessage> Future<?> listen(Notice<T> notice, Handler<T> handler) {
    return listen(notice.address(), body -> handler.handle(notice.message().apply(body)));
  }

  /**
   * Answers requests on {@code address} with {@code handler}: its result is the reply, its failure
   * the coded failure reply ({@link Failure#replyTo}); a handler that throws is answered as failing.
   * A failure that is neither a {@link Failure} nor another verticle's coded reply is a bug here (or a
   * driver's error no one coded): logged ({@code <name>.failed}) and answered INTERNAL with the log
   * line's correlation id, never its text.
   */
  private Future<?> answer(String address, Function<JsonObject, Future<JsonObject>> handler) {
    return answer(address, handler, false);
  }

  /** {@code acrossNodes}: a clustered consumer, else this node's own. */
  private Future<?> answer(
      String address, Function<JsonObject, Future<JsonObject>> handler, boolean acrossNodes) {
    Handler<Message<JsonObject>> answering =
        (Message<JsonObject> message) -> {
          Future<JsonObject> answer;
          try {
            answer = handler.apply(message.body());
          } catch (RuntimeException refused) {
            answer = Future.failedFuture(refused);
          }
          answer
              .onSuccess(message::reply)
              .onFailure(
                  error -> {
                    if (!(error instanceof Failure) && !(error instanceof ReplyException)) {
                      // Its text (a driver's, say) is for the log; the caller gets the line's
                      // correlation id.
                      String correlationId = CorrelationId.next();
                      LOG.atError()
                          .addKeyValue("verticle", name())
                          .addKeyValue("address", address)
                          .addKeyValue("correlationId", correlationId)
                          .addKeyValue("error", String.valueOf(error))
                          .setCause(error)
                          .log(name() + ".failed");
                      Failure.replyTo(message, Failure.internal(correlationId));
                      return;
                    }
                    Failure.replyTo(message, error);
                  });
        };
    return (acrossNodes
            ? vertx.eventBus().<JsonObject>consumer(address, answering)
            : vertx.eventBus().<JsonObject>localConsumer(address, answering))
        .completion();
  }

  /**
   * Takes one-way messages on {@code address} (sent or published, never answered) with {@code handler},
   * which is given the body.
   */
  private Future<?> listen(String address, Handler<JsonObject> handler) {
    return vertx
        .eventBus()
        .<JsonObject>localConsumer(address, message -> handler.handle(message.body()))
        .completion();
  }

  @Override
  public final Future<?> start() {
    Future<?> probe =
        answer(
            Address.health(name()),
            ask ->
                ask.livenessOnly()
                    // Answered on this verticle's event loop: that it answers is the whole report.
                    ? Future.succeededFuture(new HealthReport(true, new JsonObject()))
                    : health()
                        .map(HealthReport::fromJson)
                        .otherwise(
                            error -> HealthReport.failed(String.valueOf(error.getMessage()))));
    return Future.join(probe, startVerticle());
  }
}
