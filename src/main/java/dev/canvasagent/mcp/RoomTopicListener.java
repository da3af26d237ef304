package dev.canvasagent.mcp;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The one class of {@code mcp} that listens on the raw event bus: a resource subscription hears a
 * room's topics (what the room's browsers hear) for as long as the subscription lasts, and a
 * {@code canvas_agent_run} call hears its run's statuses, chat and envelopes until the run ends (the
 * scheduler offers no await of a run over the bus; the room's {@code agent:status} is where its end is
 * told). A room topic is
 * no {@code Address} (its address names the room), so these are plain consumers, opened and closed
 * with the subscription, each message read as the topic's JSON payload and never answered.
 */
final class RoomTopicListener {
  private final EventBus bus;

  RoomTopicListener(EventBus bus) {
    this.bus = bus;
  }

  /** What {@link #listen} opened: {@code ready} once every consumer is registered (on a cluster too). */
  record Listening(Future<Void> ready, Runnable close) {}

  /**
   * Runs {@code changed} for each message on {@code topics} of {@code roomId} that {@code relevant}
   * keeps, on the caller's context, until {@code close} runs.
   */
  Listening listen(
      String roomId, List<RoomTopic> topics, Predicate<JsonObject> relevant, Runnable changed) {
    return listen(
        roomId,
        topics,
        (topic, payload) -> {
          if (relevant.test(payload)) {
            changed.run();
          }
        });
  }

  /** Hands {@code heard} each message on {@code topics} of {@code roomId}, until {@code close} runs. */
  Listening listen(String roomId, List<RoomTopic> topics, BiConsumer<RoomTopic, JsonObject> heard) {
    List<MessageConsumer<Object>> consumers = new ArrayList<>();
    List<Future<Void>> registered = new ArrayList<>();
    for (RoomTopic topic : topics) {
      MessageConsumer<Object> consumer =
          bus.consumer(
              topic.address(roomId),
              message -> {
                if (message.body() instanceof JsonObject payload) {
                  heard.accept(topic, payload);
                }
              });
      consumers.add(consumer);
      registered.add(consumer.completion());
    }
    return new Listening(
        Future.all(registered).mapEmpty(), () -> consumers.forEach(MessageConsumer::unregister));
  }
}
