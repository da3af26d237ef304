package dev.canvasagent.bus;

import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;

/**
 * The topics a room carries between the server and its browsers. The event-bus address of a room's
 * topic is {@code room.<roomId>.<topic>}, the name browsers see on every transport.
 */
public enum RoomTopic {
  AGENT_ACTION("agent:action"),
  AGENT_ACK("agent:ack"),
  AGENT_CHAT("agent:chat"),
  AGENT_STATUS("agent:status"),
  AGENT_SCREENSHOT_REQUEST("agent:screenshot_request"),
  AGENT_SCREENSHOT("agent:screenshot"),
  /** Authoritative board changes made by people: {@code {type, revision, diff, author}}. */
  CANVAS_CHANGE("canvas:change"),
  /** Viewport bounds and selection ids a client publishes. */
  CANVAS_VIEWPORT("canvas:viewport"),
  /** Which client is the room's host; sent to every client when it changes. */
  CANVAS_HOST("canvas:host"),
  /** The current board, for a client that cannot be caught up event by event. */
  CANVAS_RESYNC("canvas:resync"),
  /** A document's lease changed (held, renewed, released, expired), for the lock indicator. */
  DOC_LEASE("doc:lease"),
  /**
   * A document has a new revision (a person's edit, a tool's write, the document agent's):
   * {@code {type, docId, revision, author}}, never the text.
   */
  DOC_REVISION("doc:revision"),
  /** Something a client sent was refused: {@code {code, message}}. */
  ERROR("error");

  private final String wireName;

  RoomTopic(String wireName) {
    this.wireName = wireName;
  }

  /** The name on the wire: SSE {@code event:}, WebSocket {@code topic}, address suffix. */
  public String wireName() {
    return wireName;
  }

  public String address(String roomId) {
    return "room." + roomId + "." + wireName;
  }

  /**
   * The header naming one published message ({@link #publish}): while a room moves to another owner
   * node, both owners may sequence the same message, and a node that takes both streams for a moment
   * delivers it once.
   */
  public static final String MESSAGE_ID_HEADER = "messageId";

  /**
   * Publishes {@code message} to the room's clients on this topic. Its JSON is the wire protocol's
   * payload, which the bridge relays to browsers as it is.
   */
  public void publish(EventBus bus, String roomId, BusMessage message) {
    bus.publish(
        address(roomId),
        message.toJson(),
        new DeliveryOptions().addHeader(MESSAGE_ID_HEADER, UUID.randomUUID().toString()));
  }

  /** The topic with this wire name, if there is one. */
  public static Optional<RoomTopic> fromWireName(String wireName) {
    return Arrays.stream(values()).filter(topic -> topic.wireName.equals(wireName)).findFirst();
  }
}
