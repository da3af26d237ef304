package dev.canvasagent.support;

import dev.canvasagent.support.SseClient.SseEvent;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The numbered events of a room as each transport's client received them, in one form, so that what
 * an SSE, a WebSocket and a SockJS client saw can be compared event for event and id for id.
 * Unnumbered events (a transport's own, such as a resync notice without an id) are left out.
 */
public final class NumberedEvents {
  private NumberedEvents() {}

  /** One numbered event as a client saw it: its id, topic and payload (an envelope's seq in it). */
  public record Seen(String id, String topic, JsonObject payload) {}

  /** What an {@link SseClient} received. */
  public static List<Seen> overSse(List<SseEvent> events) {
    return events.stream()
        .filter(event -> event.id() != null)
        .map(event -> new Seen(event.id(), event.event(), event.data()))
        .toList();
  }

  /** What a {@link WsClient} received: its frames. */
  public static List<Seen> overWebSocket(List<JsonObject> frames) {
    return frames.stream()
        .filter(frame -> frame.getString("id") != null)
        .map(
            frame ->
                new Seen(
                    frame.getString("id"),
                    frame.getString("topic"),
                    frame.getJsonObject("payload")))
        .toList();
  }

  /**
   * What a SockJS page received on the bridge: its {@code message} events, whose addresses are the
   * room's {@code addressPrefix} and the topic.
   */
  public static List<Seen> overSockJS(List<JsonObject> messages, String addressPrefix) {
    return messages.stream()
        .filter(
            message -> message.getJsonObject("headers", new JsonObject()).getString("id") != null)
        .map(
            message ->
                new Seen(
                    message.getJsonObject("headers").getString("id"),
                    message.getString("address").substring(addressPrefix.length()),
                    message.getJsonObject("body")))
        .toList();
  }
}
