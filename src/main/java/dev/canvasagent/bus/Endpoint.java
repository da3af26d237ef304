package dev.canvasagent.bus;

import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/**
 * A request/reply address with its contract: the request a verticle answers there and the reply it
 * gives. Callers {@link #ask} it; the answering verticle registers with {@code CanvasVerticle.answer}.
 * A failed request fails with the reply code that {@link Failure#of} reads.
 *
 * @param address the event-bus address
 * @param request reads the request from its JSON
 * @param reply reads the reply from its JSON
 */
public record Endpoint<Q extends BusMessage, R extends BusMessage>(
    String address, Function<JsonObject, Q> request, Function<JsonObject, R> reply) {

  public static <Q extends BusMessage, R extends BusMessage> Endpoint<Q, R> of(
      String address, Function<JsonObject, Q> request, Function<JsonObject, R> reply) {
    return new Endpoint<>(address, request, reply);
  }

  /** Sends {@code message} and reads the reply, within the bus's default timeout. */
  public Future<R> ask(EventBus bus, Q message) {
    return ask(bus, message, new DeliveryOptions());
  }

  /** Sends {@code message} with {@code options} (a longer timeout, say) and reads the reply. */
  public Future<R> ask(EventBus bus, Q message, DeliveryOptions options) {
    return bus.<JsonObject>request(address, message.toJson(), options)
        .map(answer -> reply.apply(answer.body()));
  }
}
