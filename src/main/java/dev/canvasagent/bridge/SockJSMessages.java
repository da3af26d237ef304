package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.sockjs.BridgeEvent;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A browser's send or publish. It is checked and handled here, exactly as a WebSocket frame is.
 * The bridge would put an accepted raw message on the bus, where it could reach server consumers
 * unchecked. The room hub, for example, re-broadcasts whatever arrives on
 * {@code room.<id>.canvas:change}. So an accepted message is rewritten to an empty note on
 * {@link Address#BRIDGE_SOCKJS_HANDLED}, which nothing consumes, before the bridge may pass it on.
 * Whatever the server must hear, it has already heard from {@link InboundFrames}: a screenshot is
 * published with the sender's client id stamped, and a change goes to the patch engine.
 */
final class SockJSMessages {
  private final InboundFrames inbound;
  private final AppConfig.Bridge config;
  private final SockJSAuthorization authorization;

  SockJSMessages(
      InboundFrames inbound, AppConfig.Bridge config, SockJSAuthorization authorization) {
    this.inbound = inbound;
    this.config = config;
    this.authorization = authorization;
  }

  void take(BridgeEvent event, SockJSClient client) {
    JsonObject raw = event.getRawMessage();
    Object reply = raw.getValue("replyAddress");
    String replyAddress =
        reply instanceof String text
                && !text.isEmpty()
                && text.length() <= SockJSBridge.MAX_REPLY_ADDRESS_LENGTH
            ? text
            : null;
    if (reply != null && replyAddress == null) {
      SockJSAnswers.refuse(
          event,
          client,
          null,
          InboundFrames.Refusal.of(
              FailureCode.INVALID_FRAME,
              "replyAddress must be a string of 1 to "
                  + SockJSBridge.MAX_REPLY_ADDRESS_LENGTH
                  + " characters"));
      return;
    }
    Optional<RoomAddress> address =
        RoomAddress.parse(raw.getValue("address"))
            .filter(candidate -> SockJSBridge.INBOUND.contains(candidate.topic()));
    if (client == null || address.isEmpty()) {
      SockJSAnswers.refuse(
          event,
          client,
          replyAddress,
          InboundFrames.Refusal.of(
              FailureCode.NOT_PERMITTED,
              "browsers may send only to "
                  + SockJSBridge.INBOUND.stream()
                      .map(topic -> "room.<roomId>." + topic.wireName())
                      .collect(Collectors.joining(", "))));
      return;
    }
    String roomId = address.get().roomId();
    RoomTopic topic = address.get().topic();
    if (client.roomId() == null) {
      SockJSAnswers.refuse(
          event,
          client,
          replyAddress,
          InboundFrames.Refusal.of(
              FailureCode.NOT_JOINED, "register an address of your room first"));
      return;
    }
    if (!client.roomId().equals(roomId)) {
      SockJSAnswers.refuse(
          event,
          client,
          replyAddress,
          InboundFrames.Refusal.of(
              FailureCode.OTHER_ROOM, "this connection belongs to room " + client.roomId()));
      return;
    }
    if (!client.rate().tryTake()) {
      SockJSAnswers.refuse(
          event,
          client,
          replyAddress,
          InboundFrames.Refusal.of(
              FailureCode.RATE_LIMITED,
              "more than "
                  + config.messagesPerSecond()
                  + " messages a second; this one was dropped"));
      return;
    }
    authorization
        .authorize(event, client, roomId, Role.EDITOR)
        .onComplete(
            authorized -> {
              if (authorized.failed()) {
                SockJSAnswers.refuse(
                    event, client, replyAddress, SockJSAnswers.refusal(authorized.cause()));
              } else {
                handle(event, client, replyAddress, roomId, topic);
              }
            });
  }

  private void handle(
      BridgeEvent event, SockJSClient client, String replyAddress, String roomId, RoomTopic topic) {
    JsonObject raw = event.getRawMessage();
    if (!(raw.getValue("body") instanceof JsonObject payload)) {
      SockJSAnswers.refuse(
          event,
          client,
          replyAddress,
          InboundFrames.Refusal.of(
              FailureCode.INVALID_PAYLOAD, topic.wireName() + ": the body must be a JSON object"));
      return;
    }
    client
        .room()
        .compose(room -> inbound.handle(client, room, topic.wireName(), payload))
        .onComplete(
            handled -> {
              if (handled.failed()) {
                SockJSAnswers.refuse(
                    event,
                    client,
                    replyAddress,
                    InboundFrames.Refusal.of(
                        FailureCode.NOT_JOINED, "this connection is not in its room"));
              } else if (handled.result() instanceof InboundFrames.Refusal refusal) {
                SockJSAnswers.refuse(event, client, replyAddress, refusal);
              } else if (handled.result() instanceof InboundFrames.Accepted accepted) {
                SockJSAnswers.accept(event, client, replyAddress, roomId, topic, accepted.reply());
              }
            });
  }
}
