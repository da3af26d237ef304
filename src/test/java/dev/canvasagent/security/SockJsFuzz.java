package dev.canvasagent.security;

import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@link FrameFuzz} on the SockJS bridge, spoken as the official client's messages over SockJS's raw
 * WebSocket ({@code /eventbus/websocket}): register, unregister, send, publish and ping frames.
 */
final class SockJsFuzz extends FrameFuzz {
  /** What a board page registers first: enough to host. */
  static final List<String> JOINED =
      List.of("agent:action", "agent:screenshot_request", "canvas:host");

  private static final List<String> ADDRESSES =
      List.of(
          "scheduler.submit",
          "bridge.sockjs.handled",
          "patch.board.change",
          "room.",
          "room..agent:ack",
          "room.other-room.canvas:viewport",
          "room.%s.agent:action",
          "room.%s.canvas:viewport.x",
          "room.%s",
          "room.%s.*",
          "room.%s.agent:ack\u0000",
          "",
          "x".repeat(300));
  private int replies;

  SockJsFuzz(
      Vertx vertx,
      int port,
      String room,
      int maxMessageBytes,
      StateFingerprint fingerprint,
      FuzzBodies bodies,
      FuzzFindings findings) {
    super(vertx, port, room, maxMessageBytes, fingerprint, bodies, findings);
  }

  String address(String topic) {
    return "room." + room + "." + topic;
  }

  @Override
  void join() {
    socket = Await.result(FrameSocket.connect(vertx, port, "/eventbus/websocket"));
    for (String topic : JOINED) {
      socket.send(
          new JsonObject()
              .put("type", "register")
              .put("address", address(topic))
              .put("headers", new JsonObject())
              .encode());
    }
    int hello =
        Await.result(
            socket.await(0, frame -> address("canvas:host").equals(frame.getString("address"))));
    clientId = socket.frames(hello, hello + 1).get(0).getJsonObject("body").getString("clientId");
  }

  @Override
  Frame next() {
    int base = bodies.nextInt(10);
    String replyAddress = "r-" + replies++;
    JsonObject message;
    String kind;
    if (base < 6) {
      String topic = bodies.pick(TOPICS);
      boolean publish = base == 5;
      message =
          new JsonObject()
              .put("type", publish ? "publish" : "send")
              .put("address", address(topic))
              .put("headers", new JsonObject())
              .put("body", validPayload(topic));
      if (!publish) {
        message.put("replyAddress", replyAddress);
      }
      kind = "sockjs " + (publish ? "publish " : "send ") + topic;
    } else if (base < 8) {
      String type = base == 6 ? "register" : "unregister";
      message =
          new JsonObject()
              .put("type", type)
              .put(
                  "address",
                  address(bodies.pick(List.of("agent:chat", "agent:status", "canvas:change"))))
              .put("headers", new JsonObject());
      kind = "sockjs " + type;
    } else {
      message = new JsonObject().put("type", "ping");
      kind = "sockjs ping";
    }
    int pick = bodies.nextInt(100);
    if (pick < 35 && message.containsKey("body")) {
      FuzzBodies.Body body = bodies.next(message.getJsonObject("body"));
      // A publish has no reply to carry a refusal; only a send's can be held to it.
      return new Frame(
          kind,
          "body " + body.mutation(),
          FrameFuzz.splice(message, "body", body.text()),
          null,
          body.mustBeRefused() && "send".equals(message.getString("type")));
    } else if (pick < 70) {
      FuzzBodies.Body body = bodies.next(message);
      return new Frame(kind, body.mutation(), body.text(), null);
    } else if (pick < 80) {
      String address = String.format(bodies.pick(ADDRESSES), room);
      message.put("address", address);
      return new Frame(kind, "address '" + HttpFuzz.shorten(address) + "'", message.encode(), null);
    } else if (pick < 86) {
      Object reply =
          bodies.pick(
              List.of("", "x".repeat(37), 7, new JsonObject(), "room." + room + ".agent:action"));
      message.put("replyAddress", reply);
      return new Frame(
          kind, "replyAddress " + HttpFuzz.shorten(String.valueOf(reply)), message.encode(), null);
    } else if (pick < 91) {
      Object headers =
          bodies.pick(
              List.of(
                  "x",
                  7,
                  new JsonObject().put("authorization", "Bearer nonsense"),
                  new JsonObject().put("lastEventId", 5),
                  new io.vertx.core.json.JsonArray()));
      message.put("headers", headers);
      return new Frame(
          kind, "headers " + HttpFuzz.shorten(String.valueOf(headers)), message.encode(), null);
    } else if (pick < 94) {
      byte[] bytes = bodies.bytes(64);
      return new Frame("sockjs binary", bytes.length + " random bytes", null, Buffer.buffer(bytes));
    } else if (pick < 99) {
      String text =
          bodies.pick(
              List.of(
                  "",
                  " ",
                  "null",
                  "[]",
                  "[\"a\"]",
                  "\"frame\"",
                  "{",
                  "{\"type\":7}",
                  "{\"type\":\"send\"}",
                  "\u0000"));
      return new Frame("sockjs frame", "text '" + HttpFuzz.shorten(text) + "'", text, null);
    }
    return new Frame("sockjs oversized", "over the message limit", oversized(), null);
  }

  /** The bridge closes a connection that has not pinged within its ping timeout, and a case's own ping may be broken. */
  @Override
  void keepAlive() {
    socket.send("{\"type\":\"ping\"}");
  }

  @Override
  String probe(long baseRevision) {
    return new JsonObject()
        .put("type", "send")
        .put("address", address("canvas:change"))
        .put("headers", new JsonObject())
        .put(
            "body",
            new JsonObject()
                .put("baseRevision", baseRevision)
                .put("remove", new io.vertx.core.json.JsonArray().add("shape:probe")))
        .put("replyAddress", "probe-" + baseRevision % PROBE_BASE)
        .encode();
  }

  @Override
  boolean answersProbe(JsonObject frame, long baseRevision) {
    return "err".equals(frame.getString("type"))
        && ("probe-" + baseRevision % PROBE_BASE).equals(frame.getString("address"));
  }

  @Override
  boolean refusal(JsonObject frame) {
    return "err".equals(frame.getString("type"));
  }

  /** The bridge's own {@code rejected} after the probe's reasoned refusal. */
  @Override
  Predicate<JsonObject> probeTail() {
    return frame -> "err".equals(frame.getString("type")) && frame.getString("address") == null;
  }
}
