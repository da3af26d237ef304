package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.flow.FlowEvents;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The one {@code run.finished} line per run: its fields are there, and nothing the server logs while
 * the run goes (any logger) holds the person's message, the chat or the screenshot's data.
 */
@ExtendWith(VertxExtension.class)
class RunLogTest {
  static final String SECRET_MESSAGE = "draw a box for Project Nightingale 7731";
  static final byte[] IMAGE = imageBytes();
  static final String IMAGE_BASE64 = Base64.getEncoder().encodeToString(IMAGE);

  /** The think of the default scenario, which goes to the chat. */
  static final String CHAT_TEXT = "Drawing a labeled box";

  final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  final ListAppender<ILoggingEvent> log = new ListAppender<>();

  static byte[] imageBytes() {
    byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    byte[] marker = "SECRET-PIXELS-SECRET-PIXELS-SECRET-PIXELS".getBytes(StandardCharsets.US_ASCII);
    byte[] image = new byte[signature.length + marker.length];
    System.arraycopy(signature, 0, image, 0, signature.length);
    System.arraycopy(marker, 0, image, signature.length, marker.length);
    return image;
  }

  @BeforeEach
  void capture() {
    log.start();
    root.addAppender(log);
  }

  @AfterEach
  void release() {
    root.detachAppender(log);
  }

  /** A host of the room on the bus, answering every screenshot request with {@link #IMAGE}. */
  static void host(Vertx vertx, String room) {
    MessageConsumer<JsonObject> requests =
        vertx
            .eventBus()
            .consumer(
                RoomTopic.AGENT_SCREENSHOT_REQUEST.address(room),
                request ->
                    vertx
                        .eventBus()
                        .publish(
                            RoomTopic.AGENT_SCREENSHOT.address(room),
                            new JsonObject()
                                .put("type", "agent:screenshot")
                                .put("sessionId", request.body().getString("sessionId"))
                                .put("requestId", request.body().getString("requestId"))
                                .put("clientId", "host-1")
                                .put(
                                    "image",
                                    new JsonObject()
                                        .put("mime", "image/png")
                                        .put("dataUrl", "data:image/png;base64," + IMAGE_BASE64)
                                        .put("bytes", IMAGE.length))
                                .put(
                                    "bounds",
                                    new JsonObject()
                                        .put("x", 0)
                                        .put("y", 0)
                                        .put("w", 800)
                                        .put("h", 600))
                                .put(
                                    "viewport",
                                    new JsonObject()
                                        .put("x", 0)
                                        .put("y", 0)
                                        .put("w", 800)
                                        .put("h", 600))
                                .put("selection", new JsonArray())));
    Await.result(requests.completion());
    vertx
        .eventBus()
        .publish(
            Address.SCREENSHOT_HOSTS.address(),
            new JsonObject().put("roomId", room).put("clientId", "host-1").put("present", true));
  }

  Map<String, Object> runFinished(String runId) {
    List<ILoggingEvent> lines =
        log.list.stream()
            .filter(event -> "run.finished".equals(event.getMessage()))
            .filter(event -> fields(event).get("runId").equals(runId))
            .toList();
    assertEquals(1, lines.size(), "one line per run");
    return fields(lines.get(0));
  }

  static Map<String, Object> fields(ILoggingEvent event) {
    Map<String, Object> fields = new HashMap<>();
    if (event.getKeyValuePairs() != null) {
      event.getKeyValuePairs().forEach(pair -> fields.put(pair.key, pair.value));
    }
    return fields;
  }

  String everythingLogged() {
    StringBuilder all = new StringBuilder();
    for (ILoggingEvent event : log.list) {
      all.append(event.getFormattedMessage()).append(' ').append(fields(event)).append('\n');
    }
    return all.toString();
  }

  JsonObject run(Vertx vertx, TestServer server, String room) {
    host(vertx, room);
    SseClient sse = server.events(room);
    var accepted =
        server
            .postRun(new JsonObject().put("roomId", room).put("message", SECRET_MESSAGE))
            .bodyAsJsonObject();
    List<SseClient.SseEvent> events =
        Await.result(sse.awaitEvent(FlowEvents.finalStatusOf(accepted.getString("sessionId"))));
    Await.result(sse.close());
    return events.get(events.size() - 1).data().put("runId", accepted.getString("runId"));
  }

  @Test
  void theRunLineHasItsFieldsAndNoUserContentOrImageDataIsLogged(Vertx vertx) {
    TestServer server = TestServer.start(vertx, TestServer.config(Map.of()));
    JsonObject done = run(vertx, server, "log-room");
    Await.result(server.stop());
    assertEquals("done", done.getString("state"), done.encode());

    Map<String, Object> line = runFinished(done.getString("runId"));
    for (String field :
        List.of(
            "roomId",
            "sessionId",
            "model",
            "state",
            "stopReason",
            "toolCalls",
            "applied",
            "dropped",
            "deduped",
            "elapsedMs",
            "promptTokenEstimate",
            "boardShapes",
            "imageBytes",
            "docVersion",
            "streamChunks",
            "providerRetries",
            "queueDepthAtStart",
            "commitConflicts",
            "longestConflictMs",
            "firstModelEventMs",
            "ttfbMs",
            "ttfbSloMet",
            "firstAppliedMs",
            "followUpNumber",
            "followupsQueued",
            "followupsRefused",
            "todoChanges")) {
      assertTrue(line.containsKey(field), field + " in " + line);
    }
    assertEquals(
        (long) IMAGE.length,
        ((Number) line.get("imageBytes")).longValue(),
        "the screenshot was taken: " + line);
    assertEquals(0L, ((Number) line.get("docVersion")).longValue());
    assertEquals(0, ((Number) line.get("boardShapes")).intValue());
    assertEquals(0, ((Number) line.get("queueDepthAtStart")).intValue());
    assertEquals(0, ((Number) line.get("providerRetries")).intValue());
    assertEquals(0, ((Number) line.get("commitConflicts")).intValue(), "nobody else edited");
    assertTrue(((Number) line.get("streamChunks")).intValue() > 4, line.toString());
    assertTrue(((Number) line.get("promptTokenEstimate")).longValue() > 0);
    assertTrue(
        ((Number) line.get("firstAppliedMs")).longValue()
            <= ((Number) line.get("ttfbMs")).longValue() + 1000);
    assertFalse(line.containsKey("messageChars"), "lengths only in debug");

    String logged = everythingLogged();
    assertFalse(logged.contains("Nightingale"), "the message never appears in the log");
    assertFalse(logged.contains(CHAT_TEXT), "chat text never appears in the log");
    assertFalse(
        logged.contains(IMAGE_BASE64.substring(12, 40)), "image data never appears in the log");
    assertFalse(logged.contains("SECRET-PIXELS"));
  }

  @Test
  void debugAddsTheMessageLengthAndHashButNeverItsText(Vertx vertx) {
    TestServer server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_STEWARD_DEBUG", "true")));
    JsonObject done = run(vertx, server, "debug-room");
    Await.result(server.stop());

    Map<String, Object> line = runFinished(done.getString("runId"));
    assertEquals(SECRET_MESSAGE.length(), ((Number) line.get("messageChars")).intValue());
    assertTrue(String.valueOf(line.get("messageSha256")).matches("[0-9a-f]{12}"), line.toString());
    assertFalse(everythingLogged().contains("Nightingale"));
  }
}
