package dev.canvasagent.support;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Holds the event-bus messages delivered to one address until the test releases them (each then
 * continues on the context that received it), or drops them for good: the test decides when, or
 * whether, a verticle hears a request.
 */
public final class HeldDeliveries implements AutoCloseable {
  private record Held(Context context, DeliveryContext<Object> delivery) {}

  private final Vertx vertx;
  private final Predicate<DeliveryContext<Object>> matches;
  private final boolean dropForGood;
  private final List<Held> held = new ArrayList<>();
  private final Handler<DeliveryContext<Object>> interceptor;
  private boolean holding = true;

  private HeldDeliveries(
      Vertx vertx, Predicate<DeliveryContext<Object>> matches, boolean dropForGood) {
    this.vertx = vertx;
    this.matches = matches;
    this.dropForGood = dropForGood;
    this.interceptor = this::intercept;
    vertx.eventBus().addInboundInterceptor(interceptor);
  }

  /** Holds the messages to {@code address} until {@link #release()}. */
  public static HeldDeliveries hold(Vertx vertx, String address) {
    return new HeldDeliveries(vertx, to(address), false);
  }

  /** Never delivers the messages to {@code address}: the receiver seems gone. */
  public static HeldDeliveries drop(Vertx vertx, String address) {
    return new HeldDeliveries(vertx, to(address), true);
  }

  /**
   * Holds the replies to the requests sent to {@code address} until {@link #release()}: the receiver
   * has done its work (a commit is stored), but the asker does not know yet.
   */
  public static HeldDeliveries holdReplies(Vertx vertx, String address) {
    // A request's reply address is made for it, so it is learnt as the request arrives.
    Set<String> replyAddresses = ConcurrentHashMap.newKeySet();
    return new HeldDeliveries(
        vertx,
        delivery -> {
          String to = delivery.message().address();
          String replyAddress = delivery.message().replyAddress();
          if (to.equals(address) && replyAddress != null) {
            replyAddresses.add(replyAddress);
            return false;
          }
          return replyAddresses.remove(to);
        },
        false);
  }

  private static Predicate<DeliveryContext<Object>> to(String address) {
    return delivery -> delivery.message().address().equals(address);
  }

  private void intercept(DeliveryContext<Object> delivery) {
    if (!matches.test(delivery)) {
      delivery.next();
      return;
    }
    synchronized (this) {
      if (holding) {
        held.add(new Held(Vertx.currentContext(), delivery));
        return;
      }
    }
    delivery.next();
  }

  /** How many messages are held (or were dropped) so far. */
  public synchronized int count() {
    return held.size();
  }

  /** Delivers what was held and lets later messages through. */
  public void release() {
    List<Held> waiting;
    synchronized (this) {
      if (dropForGood) {
        throw new IllegalStateException("these deliveries are dropped for good");
      }
      holding = false;
      waiting = List.copyOf(held);
      held.clear();
    }
    waiting.forEach(message -> message.context().runOnContext(go -> message.delivery().next()));
  }

  @Override
  public void close() {
    vertx.eventBus().removeInboundInterceptor(interceptor);
  }
}
