package dev.canvasagent.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/**
 * A one-way address with its contract: the message sent or published there, never answered. Senders
 * {@link #send} or {@link #publish}; the receiving verticle registers with {@code CanvasVerticle.listen}.
 *
 * @param address the event-bus address
 * @param message reads the message from its JSON
 */
public record Notice<T extends BusMessage>(String address, Function<JsonObject, T> message) {

  public static <T extends BusMessage> Notice<T> of(
      String address, Function<JsonObject, T> message) {
    return new Notice<>(address, message);
  }

  /** Delivers {@code message} to one listener. */
  public void send(EventBus bus, T message) {
    bus.send(address, message.toJson());
  }

  /** Delivers {@code message} to every listener. */
  public void publish(EventBus bus, T message) {
    bus.publish(address, message.toJson());
  }
}
