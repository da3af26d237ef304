package dev.canvasagent.security;

import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** {@link FrameFuzz} on the room WebSocket, {@code /api/rooms/{roomId}/ws}: frames {@code {topic, payload}}. */
final class WebSocketFuzz extends FrameFuzz {
  private static final List<Object> TOPIC_VALUES =
      List.of(
          "agent:action",
          "agent:status",
          "error",
          "canvas:host",
          "",
          "AGENT:ACK",
          "agent:ack ",
          "x".repeat(500),
          7,
          true,
          new JsonObject(),
          "room.other.agent:ack");

  WebSocketFuzz(
      Vertx vertx,
      int port,
      String room,
      int maxMessageBytes,
      StateFingerprint fingerprint,
      FuzzBodies bodies,
      FuzzFindings findings) {
    super(vertx, port, room, maxMessageBytes, fingerprint, bodies, findings);
  }

  /** Now and then first an upgrade with a hostile {@code lastEventId}: taken, or refused below 500. */
  @Override
  void join() {
    if (bodies.chance(20)) {
      // Percent-encoded whole: Vert.x's own client gives up silently on a malformed escape in its
      // URI.
      String lastEventId = FuzzBodies.percentEncode(bodies.hostileParameter("1"));
      try {
        connect("?lastEventId=" + lastEventId);
        findings.outcome("ws upgrade", "accepted");
        return;
      } catch (io.vertx.core.http.UpgradeRejectedException refused) {
        findings.outcome("ws upgrade", refused.getStatus() / 100 + "xx");
        if (refused.getStatus() >= 500) {
          findings.problem(
              "ws upgrade",
              -1,
              "lastEventId " + HttpFuzz.shorten(lastEventId),
              "upgrade answered " + refused.getStatus());
        }
      }
    }
    connect("");
  }

  private void connect(String query) {
    socket =
        Await.result(
            FrameSocket.connect(vertx, port, "/api/rooms/" + room + "/ws" + query)
                .timeout(CASE_TIMEOUT_MS, java.util.concurrent.TimeUnit.MILLISECONDS));
    int hello =
        Await.result(
            socket.await(
                0,
                frame ->
                    "canvas:host".equals(frame.getString("topic"))
                        && "canvas:hello"
                            .equals(frame.getJsonObject("payload").getString("type"))));
    clientId =
        socket.frames(hello, hello + 1).get(0).getJsonObject("payload").getString("clientId");
  }

  @Override
  Frame next() {
    String topic = bodies.pick(TOPICS);
    JsonObject payload = validPayload(topic);
    JsonObject frame = new JsonObject().put("topic", topic).put("payload", payload);
    String kind = "ws " + topic;
    int pick = bodies.nextInt(100);
    if (pick < 55) {
      FuzzBodies.Body body = bodies.next(payload);
      return new Frame(
          kind,
          "payload " + body.mutation(),
          FrameFuzz.splice(frame, "payload", body.text()),
          null,
          body.mustBeRefused());
    } else if (pick < 80) {
      FuzzBodies.Body body = bodies.next(frame);
      return new Frame("ws frame", body.mutation(), body.text(), null);
    } else if (pick < 88) {
      Object value = bodies.pick(TOPIC_VALUES);
      frame.put("topic", value);
      return new Frame(
          "ws frame", "topic " + HttpFuzz.shorten(String.valueOf(value)), frame.encode(), null);
    } else if (pick < 93) {
      byte[] bytes = bodies.bytes(64);
      return new Frame("ws binary", bytes.length + " random bytes", null, Buffer.buffer(bytes));
    } else if (pick < 98) {
      String text =
          bodies.pick(
              List.of(
                  "",
                  " ",
                  "null",
                  "[]",
                  "\"frame\"",
                  "{",
                  "}",
                  "{\"topic\":\"agent:ack\"}",
                  "\u0000"));
      return new Frame("ws frame", "text '" + HttpFuzz.shorten(text) + "'", text, null);
    }
    return new Frame("ws oversized", "over the message limit", oversized(), null);
  }

  @Override
  String probe(long baseRevision) {
    return new JsonObject()
        .put("topic", "canvas:change")
        .put(
            "payload",
            new JsonObject()
                .put("baseRevision", baseRevision)
                .put("remove", new io.vertx.core.json.JsonArray().add("shape:probe")))
        .encode();
  }

  @Override
  boolean answersProbe(JsonObject frame, long baseRevision) {
    return refusal(frame)
        && frame.getJsonObject("payload").getString("message", "").endsWith("not " + baseRevision);
  }

  @Override
  boolean refusal(JsonObject frame) {
    return "error".equals(frame.getString("topic"));
  }
}
