package dev.canvasagent.bridge;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.FrameHandled;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.sockjs.BridgeEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the SockJS bridge completes a browser's message: accepted (its reply handler told {@code ok}),
 * or refused with the bridge's own {@code rejected} and, for a reply handler, the reason.
 */
final class SockJSAnswers {
  private static final Logger LOG = LoggerFactory.getLogger(SockJSBridge.class);

  private SockJSAnswers() {}

  static InboundFrames.Refusal refusal(Throwable error) {
    Failure failure = Failure.of(error);
    return InboundFrames.Refusal.of(failure.code(), failure.getMessage());
  }

  /** {@code reply}: what a reply handler is told, {@code {ok: true}} and what the topic adds to it. */
  static void accept(
      BridgeEvent event,
      SockJSClient client,
      String replyAddress,
      String roomId,
      RoomTopic topic,
      JsonObject reply) {
    if (replyAddress != null) {
      client.write(
          new JsonObject().put("type", "rec").put("address", replyAddress).put("body", reply));
    }
    event.setRawMessage(
        new JsonObject()
            .put("type", event.getRawMessage().getValue("type"))
            .put("address", Address.BRIDGE_SOCKJS_HANDLED.address())
            .put("body", new FrameHandled(roomId, client.clientId(), topic.wireName()).toJson()));
    event.complete(true);
  }

  static void refuse(
      BridgeEvent event, SockJSClient client, String replyAddress, InboundFrames.Refusal refusal) {
    FailureCode code = refusal.code();
    if (client != null && replyAddress != null) {
      client.write(
          new JsonObject()
              .put("type", "err")
              .put("address", replyAddress)
              .put("failureCode", failureCode(code))
              .put("failureType", "RECIPIENT_FAILURE")
              .put("message", code.name() + ": " + refusal.payload().getString("message")));
    }
    LOG.atInfo()
        .addKeyValue("roomId", client == null ? null : client.roomId())
        .addKeyValue("clientId", client == null ? null : client.clientId())
        .addKeyValue("type", event.type())
        .addKeyValue("code", code.name())
        .log("sockjs.refused");
    event.complete(false);
  }

  /** The bus failure code of a refusal: its own, or {@code INVALID_REQUEST} for a frame's refusal, which has none. */
  static int failureCode(FailureCode code) {
    return (code.isReply() ? code : FailureCode.INVALID_REQUEST).wire();
  }
}
