package dev.canvasagent.security;

import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The fuzz pass over what browsers send into a room: hostile frames on the room WebSocket
 * ({@code {topic, payload}}) or on SockJS's raw WebSocket ({@code {type, address, headers, body,
 * replyAddress}}). After each case a probe follows on the same connection, a {@code canvas:change}
 * that is always refused (its base revision is in the future) and whose refusal names the case
 * number; the frames before the probe's refusal are the case's answer. A bad frame must be answered
 * with an error frame, the connection must stay open (a frame over the size limit may close it with
 * 1009), and a refused frame must leave the state as it was.
 */
abstract class FrameFuzz {
  static final long CASE_TIMEOUT_MS = 15_000;
  static final long PROBE_BASE = 1_000_000_000_000L;
  static final short TOO_BIG = 1009;
  static final short ABNORMAL = 1006;
  static final String PIXEL =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

  /**
   * One frame to send: text, or bytes as a binary frame. {@code mustBeRefused}: its payload was made one
   * every topic has to refuse ({@link FuzzBodies.Body#mustBeRefused}).
   */
  record Frame(String kind, String mutation, String text, Buffer binary, boolean mustBeRefused) {
    Frame(String kind, String mutation, String text, Buffer binary) {
      this(kind, mutation, text, binary, false);
    }
  }

  final Vertx vertx;
  final int port;
  final String room;
  final int maxMessageBytes;
  final FuzzBodies bodies;
  final FuzzFindings findings;
  private final StateFingerprint fingerprint;
  FrameSocket socket;
  String clientId;
  private int shapes;

  FrameFuzz(
      Vertx vertx,
      int port,
      String room,
      int maxMessageBytes,
      StateFingerprint fingerprint,
      FuzzBodies bodies,
      FuzzFindings findings) {
    this.vertx = vertx;
    this.port = port;
    this.room = room;
    this.maxMessageBytes = maxMessageBytes;
    this.fingerprint = fingerprint;
    this.bodies = bodies;
    this.findings = findings;
  }

  /** Opens the connection and joins the room; sets {@link #socket} and {@link #clientId}. */
  abstract void join();

  /** The next hostile frame. */
  abstract Frame next();

  /** The probe of case {@code number}: refused, and the refusal carries {@link #PROBE_BASE} + number. */
  abstract String probe(long baseRevision);

  abstract boolean answersProbe(JsonObject frame, long baseRevision);

  /** Whether a frame tells the client something it sent was refused. */
  abstract boolean refusal(JsonObject frame);

  /** Whatever the connection needs to stay open while the cases go on. */
  void keepAlive() {}

  /** The frame that follows the probe's answer and belongs to the probe, or null when none does. */
  java.util.function.Predicate<JsonObject> probeTail() {
    return null;
  }

  void run(int cases) {
    join();
    StateFingerprint.Scope scope = new StateFingerprint.Scope(Set.of(room), Set.of(), Set.of());
    Map<String, String> before = null;
    int next = socket.mark();
    for (int number = 0; number < cases; number++) {
      if (socket.isClosed()) {
        join();
        next = socket.mark();
        before = null;
      }
      if (before == null) {
        before = fingerprint.capture(scope);
      }
      Frame frame = next();
      boolean oversized =
          frame.text() != null
              && frame.text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                  > maxMessageBytes;
      long probe = PROBE_BASE + number;
      if (frame.binary() != null) {
        socket.sendBinary(frame.binary());
      } else {
        socket.send(frame.text());
      }
      keepAlive();
      socket.send(probe(probe));
      int answer;
      try {
        answer =
            Await.result(
                socket
                    .await(next, reply -> answersProbe(reply, probe))
                    .timeout(CASE_TIMEOUT_MS, TimeUnit.MILLISECONDS));
      } catch (RuntimeException | AssertionError failed) {
        Short status = socket.isClosed() ? socket.closed().result() : null;
        // The server closes on a frame over the limit, with 1009; while the client is still sending
        // it, the close frame can be lost with the reset, and the client sees 1006.
        if (oversized && status != null && (status == TOO_BIG || status == ABNORMAL)) {
          findings.outcome(frame.kind(), "closed " + status);
          // The closed connection's own viewport leaves with it; nothing else may change.
          checkUnchanged(frame, number, before, scope, "the close", true);
          before = null;
          continue;
        }
        findings.outcome(frame.kind(), status != null ? "disconnected" : "no answer");
        findings.problem(
            frame.kind(),
            number,
            frame.mutation(),
            status != null
                ? "the server closed the connection (status " + status + ")"
                : "no answer to the probe within "
                    + CASE_TIMEOUT_MS
                    + " ms: "
                    + failed.getMessage());
        if (!socket.isClosed()) {
          Await.result(socket.close());
        }
        before = null;
        continue;
      }
      List<JsonObject> replies = socket.frames(next, answer);
      next = answer + 1;
      if (probeTail() != null) {
        next =
            Await.result(
                    socket.await(next, probeTail()).timeout(CASE_TIMEOUT_MS, TimeUnit.MILLISECONDS))
                + 1;
      }
      boolean refused = replies.stream().anyMatch(this::refusal);
      findings.outcome(frame.kind(), refused ? "refused" : "accepted");
      if (frame.mustBeRefused() && !refused) {
        findings.problem(frame.kind(), number, frame.mutation(), "accepted");
      }
      if (refused) {
        if (checkUnchanged(
            frame,
            number,
            before,
            scope,
            "the refusal "
                + HttpFuzz.shorten(
                    replies.stream()
                        .filter(this::refusal)
                        .findFirst()
                        .map(JsonObject::encode)
                        .orElse("")),
            false)) {
          continue;
        }
      }
      before = null;
    }
    Await.result(socket.close());
  }

  /** True when the state is as before; otherwise a finding. */
  private boolean checkUnchanged(
      Frame frame,
      int number,
      Map<String, String> before,
      StateFingerprint.Scope scope,
      String after,
      boolean closed) {
    List<String> changed =
        StateFingerprint.changed(before, fingerprint.capture(scope)).stream()
            .filter(part -> !(closed && part.startsWith(StateFingerprint.VIEWPORTS)))
            .toList();
    if (!changed.isEmpty()) {
      findings.problem(
          frame.kind(), number, frame.mutation(), "state changed after " + after + ": " + changed);
      return false;
    }
    return true;
  }

  /** Payloads a browser of the room could rightly send, by topic. */
  JsonObject validPayload(String topic) {
    JsonObject box = new JsonObject().put("x", 0).put("y", 0).put("w", 800).put("h", 600);
    return switch (topic) {
      case "agent:ack" ->
          new JsonObject()
              .put("type", "agent:ack")
              .put("sessionId", "s-1")
              .put("seq", 1)
              .put("clientId", clientId);
      case "agent:screenshot" ->
          new JsonObject()
              .put("type", "agent:screenshot")
              .put("sessionId", "s-1")
              .put("requestId", "req-" + bodies.nextInt(1000))
              .put(
                  "image",
                  new JsonObject().put("mime", "image/png").put("dataUrl", PIXEL).put("bytes", 70))
              .put("bounds", box.copy())
              .put("viewport", box.copy())
              .put("selection", new JsonArray())
              .put("docVersion", "0");
      case "canvas:viewport" ->
          new JsonObject()
              .put("type", "canvas:viewport")
              .put("bounds", box.copy())
              .put("selection", new JsonArray().add("shape:a"));
      default ->
          new JsonObject()
              .put("baseRevision", boardRevision())
              .put("put", new JsonArray().add(newShape()));
    };
  }

  static final List<String> TOPICS =
      List.of("agent:ack", "agent:screenshot", "canvas:viewport", "canvas:change");

  private long boardRevision() {
    return Await.result(
            vertx
                .eventBus()
                .<JsonObject>request(
                    Address.PATCH_BOARD_GET.address(), new JsonObject().put("roomId", room)))
        .body()
        .getLong("revision");
  }

  private JsonObject newShape() {
    shapes++;
    return dev.canvasagent.support.TestShapes.geo(room + "-" + shapes, 10 * shapes, 40, 80, 40);
  }

  /** A text frame just over the server's limit. */
  String oversized() {
    return "{\"pad\":\"" + "x".repeat(maxMessageBytes + 16) + "\"}";
  }

  /** {@code json} with {@code field} replaced by raw (possibly broken) text. */
  static String splice(JsonObject json, String field, String raw) {
    JsonObject without = json.copy();
    without.remove(field);
    String text = without.encode();
    return text.length() == 2
        ? "{\"" + field + "\":" + raw + "}"
        : "{\"" + field + "\":" + raw + "," + text.substring(1);
  }
}
