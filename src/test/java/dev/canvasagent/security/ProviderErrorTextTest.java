package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.StubProvider;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A provider whose error quotes the API key it was sent — in a 401's JSON body, in a 401 that is not
 * JSON (as proxies answer), and in an {@code error} event inside a 200 stream, with the key as its
 * error type too — and a document-agent run refused the same way. The key and its last 8 characters
 * reach no SSE, WebSocket or SockJS frame, no HTTP answer and no stored row (memory store and
 * PostgreSQL). Clients see the code, the provider's HTTP status, an identifier-like error type and a
 * correlation id; the operator's log has that correlation id on the line with the provider's text, the
 * key redacted.
 */
@ExtendWith(VertxExtension.class)
class ProviderErrorTextTest {
  static final String ANTHROPIC_KEY = "sk-ant-api03-Zq8Xw2Lr5Tn7Vb1Ym4Kc6Hd9Gf3Js0Pa";
  static final String OPENAI_KEY = "sk-proj-Rt6Uy1Io8Pa3Sd5Fg7Hj2Kl4Zx9Cv0Bn";
  static final String ROOM = "provider-errors";
  static final List<String> FINAL = List.of("done", "error", "canceled");

  @ParameterizedTest(name = "store: {0}")
  @ValueSource(strings = {"memory", "postgresql"})
  void aProvidersErrorTextNeverReachesAClientOrTheStore(String storeKind, Vertx vertx) {
    Optional<DatabaseConfig> database =
        storeKind.equals("memory") ? Optional.empty() : Optional.of(TestDatabase.freshSchema());
    StubProvider stub = Await.result(StubProvider.start(vertx));
    Map<String, String> environment =
        new HashMap<>(
            Map.of(
                "ANTHROPIC_API_KEY",
                ANTHROPIC_KEY,
                "ANTHROPIC_BASE_URL",
                stub.baseUrl(),
                "OPENAI_API_KEY",
                OPENAI_KEY,
                "OPENAI_BASE_URL",
                stub.baseUrl() + "/v1",
                "CANVAS_AGENT_MODEL_RETRIES",
                "0"));
    List<String> seen = new ArrayList<>();
    List<JsonObject> errors = new ArrayList<>();
    String logged;
    try (LogCapture log = LogCapture.open()) {
      TestServer server =
          TestServer.start(vertx, TestServer.config(environment).withDatabase(database));
      SseClient sse = server.events(ROOM);
      WsClient ws = Await.result(WsClient.connect(vertx, server.port(), ROOM, null));
      FrameSocket sockJs =
          Await.result(FrameSocket.connect(vertx, server.port(), "/eventbus/websocket"));
      for (String topic : List.of("agent:status", "agent:chat", "agent:action")) {
        sockJs.send(
            new JsonObject()
                .put("type", "register")
                .put("address", "room." + ROOM + "." + topic)
                .encode());
      }
      try {
        stub.then(
            new StubProvider.Status(
                401,
                Map.of(),
                new JsonObject()
                    .put("type", "error")
                    .put(
                        "error",
                        new JsonObject()
                            .put("type", "authentication_error")
                            .put("message", "invalid x-api-key: " + ANTHROPIC_KEY))
                    .encode()));
        errors.add(run(server, sse, ws, sockJs, "anthropic:claude-test", seen));
        stub.then(
            new StubProvider.Status(
                401, Map.of(), "<html>401 Unauthorized: bad key " + OPENAI_KEY + "</html>"));
        errors.add(run(server, sse, ws, sockJs, "openai:gpt-test", seen));
        stub.then(StubProvider.Stream.whole(anthropicStreamThenError()));
        errors.add(run(server, sse, ws, sockJs, "anthropic:claude-test", seen));
        stub.then(StubProvider.Stream.whole(openAiStreamThenError()));
        errors.add(run(server, sse, ws, sockJs, "openai:gpt-test", seen));
        stub.then(
            new StubProvider.Status(
                401,
                Map.of(),
                new JsonObject()
                    .put(
                        "error",
                        new JsonObject()
                            .put("type", "invalid_request_error")
                            .put("code", "invalid_api_key")
                            .put("message", "Incorrect API key provided: " + OPENAI_KEY))
                    .encode()));
        errors.add(documentAgent(server, sse, ws, sockJs, seen));

        seen.addAll(sse.received().stream().map(event -> event.data().encode()).toList());
        seen.addAll(ws.received().stream().map(JsonObject::encode).toList());
        seen.addAll(sockJs.frames(0, sockJs.mark()).stream().map(JsonObject::encode).toList());
        database.ifPresent(config -> seen.add(everyRow(config)));
      } finally {
        Await.result(sse.close());
        Await.result(ws.close());
        Await.result(sockJs.close());
        Await.result(server.stop());
        Await.result(stub.close());
        database.ifPresent(TestDatabase::drop);
      }
      logged = log.text();
    }

    assertEquals(5, stub.received().size(), "every run called the provider");
    for (String text : seen) {
      for (String key : List.of(ANTHROPIC_KEY, OPENAI_KEY)) {
        assertFalse(
            text.contains(key.substring(key.length() - 8)), "the key (or its end) in: " + text);
      }
    }
    for (String key : List.of(ANTHROPIC_KEY, OPENAI_KEY)) {
      assertFalse(
          logged.contains(key.substring(key.length() - 8)),
          SecretsNotLoggedTest.around(logged, key.substring(key.length() - 8)));
    }
    assertEquals(
        List.of(401, 401, 200, 200, 401),
        errors.stream().map(error -> error.getInteger("providerStatus")).toList());
    assertEquals(
        List.of(
            "authentication_error",
            "http_401",
            "invalid_request_error",
            "http_200",
            "invalid_request_error"),
        errors.stream().map(error -> error.getString("errorType")).toList());
    for (JsonObject error : errors) {
      assertEquals("MODEL_ERROR", error.getString("code"), error.encode());
      String correlationId = error.getString("correlationId");
      assertNotNull(correlationId, error.encode());
      assertTrue(error.getString("reason").contains(correlationId), error.encode());
      String line =
          logged
              .lines()
              .filter(
                  candidate ->
                      candidate.contains("model.call.failed") && candidate.contains(correlationId))
              .findFirst()
              .orElse("");
      assertTrue(
          line.contains("<redacted>"),
          "the operator's line has the provider's text, redacted: " + line);
    }
  }

  /** A run on {@code model} that the provider fails; answers the final status's detail, and adds the session's resume to {@code seen}. */
  private static JsonObject run(
      TestServer server,
      SseClient sse,
      WsClient ws,
      FrameSocket sockJs,
      String model,
      List<String> seen) {
    HttpResponse<Buffer> started =
        server.postRun(
            new JsonObject()
                .put("roomId", ROOM)
                .put("message", "draw two shapes")
                .put("model", model));
    assertEquals(202, started.statusCode(), started.bodyAsString());
    seen.add(started.bodyAsString());
    String sessionId = started.bodyAsJsonObject().getString("sessionId");
    String runId = started.bodyAsJsonObject().getString("runId");
    JsonObject detail =
        finalStatus(
            sse,
            ws,
            sockJs,
            status ->
                sessionId.equals(status.getString("sessionId"))
                    && runId.equals(status.getJsonObject("detail").getString("runId")));
    HttpResponse<Buffer> resumed = server.get("/api/sessions/" + sessionId);
    assertEquals(200, resumed.statusCode(), resumed.bodyAsString());
    seen.add(resumed.bodyAsString());
    JsonObject stored =
        resumed.bodyAsJsonObject().getJsonArray("runs").stream()
            .map(JsonObject.class::cast)
            .filter(record -> runId.equals(record.getString("runId")))
            .findFirst()
            .orElseThrow();
    assertEquals("error", stored.getString("state"), stored.encode());
    return detail;
  }

  /** The document agent on OpenAI, refused with 401; answers its final status's {@code error} in a run's terms. */
  private static JsonObject documentAgent(
      TestServer server, SseClient sse, WsClient ws, FrameSocket sockJs, List<String> seen) {
    HttpResponse<Buffer> created =
        Await.result(
            server
                .http()
                .post("/api/docs")
                .sendJsonObject(new JsonObject().put("roomId", ROOM).put("content", "# Plan\n")));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String docId = created.bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> started =
        Await.result(
            server
                .http()
                .post("/api/docs/" + docId + "/agent")
                .sendJsonObject(
                    new JsonObject()
                        .put("instruction", "tidy the plan")
                        .put("model", "openai:gpt-test")));
    assertEquals(202, started.statusCode(), started.bodyAsString());
    seen.add(started.bodyAsString());
    String runId = started.bodyAsJsonObject().getString("runId");
    JsonObject detail =
        finalStatus(
            sse,
            ws,
            sockJs,
            status -> runId.equals(status.getJsonObject("detail").getString("runId")));
    seen.add(server.get("/api/docs/" + docId).bodyAsString());
    seen.add(server.get("/api/docs/" + docId + "/revisions").bodyAsString());
    JsonObject error = detail.getJsonObject("error");
    return new JsonObject()
        .put("code", "MODEL_ERROR")
        .put("errorType", error.getString("type"))
        .put("reason", error.getString("message"))
        .put("providerStatus", error.getInteger("providerStatus"))
        .put("correlationId", error.getString("correlationId"));
  }

  /** The final {@code agent:status} matching {@code which}, as SSE, WebSocket and SockJS each delivered it (all alike). */
  private static JsonObject finalStatus(
      SseClient sse, WsClient ws, FrameSocket sockJs, Predicate<JsonObject> which) {
    Predicate<JsonObject> ended =
        status ->
            FINAL.contains(String.valueOf(status.getString("state")))
                && status.getValue("detail") instanceof JsonObject
                && which.test(status);
    List<SseClient.SseEvent> events =
        Await.result(
            sse.awaitEvent(
                event -> "agent:status".equals(event.event()) && ended.test(event.data())));
    JsonObject viaSse = events.get(events.size() - 1).data();
    List<JsonObject> frames = Await.result(ws.awaitTopic("agent:status", ended));
    JsonObject viaWs = frames.get(frames.size() - 1).getJsonObject("payload");
    int at =
        Await.result(
            sockJs.await(
                0, frame -> frame.getValue("body") instanceof JsonObject body && ended.test(body)));
    JsonObject viaSockJs = sockJs.frames(at, at + 1).get(0).getJsonObject("body");
    assertEquals("error", viaSse.getString("state"), viaSse.encode());
    assertEquals(viaSse, viaWs);
    assertEquals(viaSse, viaSockJs);
    return viaSse.getJsonObject("detail");
  }

  /** A message that starts to stream, then an {@code error} event quoting the key. */
  private static byte[] anthropicStreamThenError() {
    return ("event: message_start\n"
            + "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],"
            + "\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n"
            + "event: content_block_start\n"
            + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
            + "event: content_block_delta\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Drawing\"}}\n\n"
            + "event: error\n"
            + "data: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"key "
            + ANTHROPIC_KEY
            + " was revoked\"}}\n\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** A Chat Completions stream that starts, then an in-band error whose type is the key itself. */
  private static byte[] openAiStreamThenError() {
    return ("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
            + "\"content\":\"Drawing\"},\"finish_reason\":null}]}\n\n"
            + "data: {\"error\":{\"type\":\""
            + OPENAI_KEY
            + "\",\"message\":\"Bearer "
            + OPENAI_KEY
            + " is not valid\"}}\n\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Every row of every table of the schema, as text. */
  private static String everyRow(DatabaseConfig config) {
    StringBuilder all = new StringBuilder();
    try (Connection connection =
            DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
        Statement statement = connection.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows =
          statement.executeQuery(
              "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                  + config.schema()
                  + "' AND table_type = 'BASE TABLE'")) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
      for (String table : tables) {
        try (ResultSet rows =
            statement.executeQuery("SELECT t::text FROM " + config.schema() + "." + table + " t")) {
          while (rows.next()) {
            all.append(rows.getString(1)).append('\n');
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    assertTrue(all.indexOf("MODEL_ERROR") >= 0, "the runs are in PostgreSQL");
    return all.toString();
  }
}
