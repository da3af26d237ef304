package dev.canvasagent.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.SseClient;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The packaged jar with {@code CANVAS_AGENT_LOG_FORMAT=json}: every line it writes from startup to
 * shutdown, through a real run and a document, is one JSON object with the event's fields, and none
 * holds what a person wrote or a document's text. A format it does not know, or the format set in
 * {@code CANVAS_AGENT_CONFIG} (read too late), stops it with exit status 2 and a message naming it.
 */
@ExtendWith(VertxExtension.class)
class JsonLogsIT {
  static final List<String> JAR = List.of("-jar", "target/canvas-agent.jar");
  static final Pattern STARTED =
      Pattern.compile("\"event\":\"server\\.started\",\"url\":\"http://127\\.0\\.0\\.1:(\\d+)\"");
  static final String USER_TEXT = "userTextOfTheJsonLogs7a1c please draw a blue rectangle";
  static final String DOCUMENT_TEXT = "documentTextOfTheJsonLogs4e9b";

  @Test
  void everyLineOfARealRunIsAJsonObjectWithoutUserContent(Vertx vertx) throws Exception {
    String output;
    try (ServerProcess server =
        ServerProcess.java(JAR, Map.of("PORT", "0", "CANVAS_AGENT_LOG_FORMAT", "json"))) {
      Matcher started = STARTED.matcher(server.awaitLine(STARTED));
      assertTrue(started.find());
      int port = Integer.parseInt(started.group(1));
      WebClient http = WebClient.create(vertx);
      SseClient sse = Await.result(SseClient.connect(vertx, port, "/api/rooms/jsonlogs/events"));
      HttpResponse<Buffer> accepted =
          Await.result(
              http.post(port, "127.0.0.1", "/api/canvas-agent/run")
                  .sendJsonObject(
                      new JsonObject().put("roomId", "jsonlogs").put("message", USER_TEXT)));
      assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
      String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
      Await.result(
          sse.awaitEvent(
              event ->
                  event.event().equals("agent:status")
                      && sessionId.equals(event.data().getString("sessionId"))
                      && List.of("done", "error").contains(event.data().getString("state"))));
      HttpResponse<Buffer> document =
          Await.result(
              http.post(port, "127.0.0.1", "/api/docs")
                  .sendJsonObject(
                      new JsonObject()
                          .put("roomId", "jsonlogs")
                          .put("content", "# Notes\n\n" + DOCUMENT_TEXT + "\n")));
      assertEquals(201, document.statusCode(), document.bodyAsString());
      // A hostile id reaches a log line (an unknown session): it stays inside its field.
      Await.result(http.get(port, "127.0.0.1", "/api/sessions/x%0A%E2%80%A8%22y").send());
      Await.result(sse.close());
      server.terminate();
      // SIGTERM drains, then the process exits 0 (docs/operations.md, Shutdown).
      assertEquals(0, server.awaitExit());
      output = server.output() + "\n" + server.remainingOutput();
    }

    List<JsonObject> lines = JsonLinesTest.parseLines(output);
    List<String> events = lines.stream().map(line -> line.getString("event")).toList();
    assertTrue(events.contains("server.started"), events.toString());
    assertTrue(events.contains("run.submitted"), events.toString());
    assertTrue(events.contains("run.finished"), events.toString());
    assertTrue(events.contains("server.stopped"), events.toString());
    JsonObject finished =
        lines.stream()
            .filter(line -> "run.finished".equals(line.getString("event")))
            .findFirst()
            .orElseThrow();
    assertEquals("jsonlogs", finished.getString("roomId"));
    assertTrue(finished.getValue("applied") instanceof Number, finished.encode());
    for (String marker : List.of("userTextOfTheJsonLogs7a1c", DOCUMENT_TEXT)) {
      assertFalse(output.contains(marker), marker + " is in the log:\n" + output);
    }
  }

  @Test
  void aFormatItDoesNotKnowStopsTheServerNamingIt() throws Exception {
    try (ServerProcess server =
        ServerProcess.java(JAR, Map.of("PORT", "0", "CANVAS_AGENT_LOG_FORMAT", "yaml"))) {
      assertEquals(2, server.awaitExit());
      String output = server.remainingOutput();
      assertTrue(output.contains("bad configuration: CANVAS_AGENT_LOG_FORMAT = 'yaml'"), output);
    }
  }

  @Test
  void theConfigurationBlobMayNotSetTheFormat() throws Exception {
    try (ServerProcess server =
        ServerProcess.java(
            JAR, Map.of("PORT", "0", "CANVAS_AGENT_CONFIG", "{\"log\":{\"format\":\"json\"}}"))) {
      assertEquals(2, server.awaitExit());
      String output = server.remainingOutput();
      assertTrue(output.contains("set CANVAS_AGENT_LOG_FORMAT instead"), output);
    }
  }
}
