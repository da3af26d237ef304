package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Role;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.config.ConfigLoader;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.logging.JsonLinesTest;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.StubProvider;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server's secrets never reach its log: the JWT secret, every token a client presents (valid,
 * forged, expired, malformed; in headers, in {@code ?access_token=}, in SockJS message headers), the
 * providers' API keys (a call refused with 401 whose body quotes the key, and one that succeeds), and
 * the database password. Every event of every logger at DEBUG is captured, from startup to shutdown,
 * and searched; so are the messages of configuration errors about secret settings, and what
 * {@link AppConfig} and its records print.
 */
@ExtendWith(VertxExtension.class)
class SecretsNotLoggedTest {
  /** Without separators: a parser that quotes the token it stopped at would quote all of it. */
  static final String JWT_SECRET = "jwtSecretOfTheLogTest7f3a9c2e5b1d4806";

  static final String OTHER_SECRET = "another-secret-that-signs-forged-tokens-91ab";
  static final String ANTHROPIC_KEY = "sk-ant-logtest-4f1c9e2a7b63d5";
  static final String OPENAI_KEY = "sk-openai-logtest-8d3e6a1f0c27b9";
  static final String DATABASE_PASSWORD = "pgPasswordLogtest5b7e02c4";
  static final String ROOM = "secrets";

  /** What a person wrote, as a run's message: logged as its length, never its text. */
  static final String USER_TEXT = "userTextOfTheLogTest3c8e1a a person wrote this";

  /** A document's content: logged as sizes and revisions, never its text. */
  static final String DOCUMENT_TEXT = "documentTextOfTheLogTest9d2f6b a paragraph of it";

  @Test
  void noSecretIsLoggedFromStartupToShutdown(Vertx vertx) throws IOException {
    loggedFromStartupToShutdown(vertx, LogCapture.open());
  }

  /**
   * The same with the JSON console ({@code CANVAS_AGENT_LOG_FORMAT=json}): no secret, token, user
   * message or document text in any line, and every line one JSON object with the event's fields.
   */
  @Test
  void noSecretIsInTheJsonLinesAndEveryLineIsAnObject(Vertx vertx) throws IOException {
    String logged = loggedFromStartupToShutdown(vertx, LogCapture.openJson());
    List<JsonObject> lines = JsonLinesTest.parseLines(logged);
    assertTrue(lines.size() > 10, logged);
    assertTrue(
        lines.stream().anyMatch(line -> "model.call.failed".equals(line.getString("event"))),
        "the refused provider call was logged as an event");
  }

  /** Starts a server, presents every kind of secret to it, stops it; asserts none was logged, and answers the log. */
  private static String loggedFromStartupToShutdown(Vertx vertx, LogCapture capture)
      throws IOException {
    AccessTokens issuer = AccessTokens.create(vertx, TestTokens.auth(JWT_SECRET));
    AccessTokens forger = AccessTokens.create(vertx, TestTokens.auth(OTHER_SECRET));
    String editor = issuer.mint("ed", List.of(ROOM), List.of(), Role.EDITOR, Duration.ofHours(1));
    String viewer = issuer.mint("vi", List.of(ROOM), List.of(), Role.VIEWER, Duration.ofHours(1));
    String otherRoom =
        issuer.mint("ot", List.of("elsewhere"), List.of(), Role.EDITOR, Duration.ofHours(1));
    long now = System.currentTimeMillis() / 1000;
    String expired =
        issuer.sign(
            new JsonObject()
                .put("sub", "late")
                .put("role", "editor")
                .put("rooms", new JsonArray().add(ROOM))
                .put("iat", now - 3600)
                .put("exp", now - 600));
    String forged = forger.mint("ed", List.of(ROOM), List.of(), Role.ADMIN, Duration.ofHours(1));
    String malformed =
        editor.substring(0, editor.lastIndexOf('.') + 1)
            + "not-a-signature-but-secret-looking-0a1b";
    List<String> tokens = List.of(editor, viewer, otherRoom, expired, forged, malformed);

    StubProvider stub = Await.result(StubProvider.start(vertx));
    DatabaseConfig database = TestDatabase.freshSchema();
    // The test database trusts local connections, so any password is taken: what matters is that it
    // is used and never shown.
    DatabaseConfig withPassword =
        new DatabaseConfig(
            database.host(),
            database.port(),
            database.database(),
            database.user(),
            DATABASE_PASSWORD,
            database.schema(),
            database.poolSize(),
            database.maxWaitQueueSize());
    Map<String, String> environment =
        new HashMap<>(
            Map.of(
                "CANVAS_AGENT_JWT_SECRET",
                JWT_SECRET,
                "ANTHROPIC_API_KEY",
                ANTHROPIC_KEY,
                "ANTHROPIC_BASE_URL",
                stub.baseUrl(),
                "OPENAI_API_KEY",
                OPENAI_KEY,
                "OPENAI_BASE_URL",
                stub.baseUrl() + "/v1",
                "CANVAS_STEWARD_DEBUG",
                "true",
                "CANVAS_AGENT_MODEL_RETRIES",
                "0"));
    String logged;
    List<String> configErrors = new ArrayList<>();
    try (LogCapture log = capture) {
      TestServer server =
          TestServer.start(
              vertx, TestServer.config(environment).withDatabase(Optional.of(withPassword)));
      try {
        presentTokens(vertx, server, tokens);
        providerCalls(vertx, server, stub, editor, viewer);
      } finally {
        Await.result(server.stop());
        Await.result(stub.close());
        TestDatabase.drop(database);
      }
      configErrors.addAll(configErrors());
      logged = log.text();
    }

    assertTrue(
        logged.contains("auth.") || logged.contains("model.call.failed"),
        "the capture saw the server's events");
    assertTrue(logged.contains("model.call.failed"), "the refused provider call was logged");
    Map<String, String> secrets =
        new HashMap<>(
            Map.of(
                "the JWT secret",
                JWT_SECRET,
                "the Anthropic key",
                ANTHROPIC_KEY,
                "the OpenAI key",
                OPENAI_KEY,
                "the database password",
                DATABASE_PASSWORD));
    for (int i = 0; i < tokens.size(); i++) {
      secrets.put("token " + i, tokens.get(i));
      secrets.put(
          "token " + i + "'s signature",
          tokens.get(i).substring(tokens.get(i).lastIndexOf('.') + 1));
    }
    secrets.forEach(
        (what, secret) ->
            assertFalse(
                logged.contains(secret), what + " is in the log: " + around(logged, secret)));
    secrets.forEach(
        (what, secret) ->
            configErrors.forEach(
                message -> assertFalse(message.contains(secret), what + " is in: " + message)));
    for (String content : List.of(USER_TEXT, DOCUMENT_TEXT)) {
      String marker = content.substring(0, content.indexOf(' '));
      assertFalse(logged.contains(marker), "user content is in the log: " + around(logged, marker));
    }
    return logged;
  }

  /**
   * Found by this test: a query string that did not decode failed in the router, whose DEBUG line
   * carried the exception quoting the whole URI, {@code access_token} and all. It is answered here.
   */
  @Test
  void aQueryThatDoesNotDecodeIsRefusedAndItsTokenNotLogged(Vertx vertx) {
    String token = new TestTokensFor(vertx).editor();
    HttpResponse<Buffer> response;
    String logged;
    try (LogCapture log = LogCapture.open()) {
      TestServer server =
          TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_JWT_SECRET", JWT_SECRET)));
      response =
          Await.result(
              server
                  .http()
                  .get("/api/rooms/" + ROOM + "/events?access_token=" + token + "&lastEventId=%zz")
                  .send());
      Await.result(server.stop());
      logged = log.text();
    }

    assertEquals(400, response.statusCode(), response.bodyAsString());
    assertEquals(
        "INVALID_REQUEST", response.bodyAsJsonObject().getJsonObject("error").getString("code"));
    assertFalse(
        logged.contains(token.substring(token.lastIndexOf('.') + 1)),
        around(logged, token.substring(token.lastIndexOf('.') + 1)));
  }

  /** Tokens signed with {@link #JWT_SECRET}. */
  private record TestTokensFor(AccessTokens issuer) {
    TestTokensFor(Vertx vertx) {
      this(AccessTokens.create(vertx, TestTokens.auth(JWT_SECRET)));
    }

    String editor() {
      return issuer.mint("ed", List.of(ROOM), List.of(), Role.EDITOR, Duration.ofHours(1));
    }
  }

  /** Each token as a header, as {@code ?access_token=} on the streams (and where it is not taken), and in SockJS messages. */
  private static void presentTokens(Vertx vertx, TestServer server, List<String> tokens) {
    for (String token : tokens) {
      status(server, "/api/rooms/" + ROOM + "/board", "Bearer " + token);
      status(server, "/api/rooms/" + ROOM + "/board?access_token=" + token, null);
      status(server, "/api/rooms/" + ROOM + "/board?access_token=" + token, "Bearer " + token);
      status(
          server, "/api/rooms/" + ROOM + "/revisions?access_token=" + token + "&limit=%zz", null);
      status(
          server,
          "/api/rooms/" + ROOM + "/events?access_token=" + token + "&lastEventId=%zz",
          null);
      status(server, "/api/rooms/" + ROOM + "/board", "bearer" + token);
      status(server, "/api/rooms/" + ROOM + "/board", "Basic " + token);
      HttpResponse<Buffer> run =
          Await.result(
              server
                  .http()
                  .post("/api/canvas-agent/run")
                  .putHeader("authorization", "Bearer " + token)
                  .putHeader("content-type", "application/json")
                  .sendBuffer(Buffer.buffer("{\"roomId\":\"" + ROOM + "\",\"message\":")));
      assertTrue(run.statusCode() < 500, run.bodyAsString());
      sseWithQueryToken(vertx, server, token);
      webSocketWithQueryToken(vertx, server, token);
      sockJsWithHeaderToken(vertx, server, token);
    }
  }

  private static void status(TestServer server, String uri, String authorization) {
    var request = server.http().get(uri);
    if (authorization != null) {
      request.putHeader("authorization", authorization);
    }
    HttpResponse<Buffer> response = Await.result(request.send());
    assertTrue(response.statusCode() < 500, uri + ": " + response.bodyAsString());
  }

  private static void sseWithQueryToken(Vertx vertx, TestServer server, String token) {
    try {
      Await.result(
          Await.result(
                  SseClient.connect(
                      vertx, server.port(), "/api/rooms/" + ROOM + "/events?access_token=" + token))
              .close());
    } catch (RuntimeException refused) {
      assertTrue(refused.getMessage().contains("SSE answered 4"), refused.getMessage());
    }
  }

  private static void webSocketWithQueryToken(Vertx vertx, TestServer server, String token) {
    try {
      FrameSocket socket =
          Await.result(
              FrameSocket.connect(
                  vertx, server.port(), "/api/rooms/" + ROOM + "/ws?access_token=" + token));
      socket.send(
          new JsonObject()
              .put("topic", "canvas:viewport")
              .put(
                  "payload",
                  new JsonObject()
                      .put(
                          "bounds",
                          new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 10)))
              .encode());
      Await.result(socket.close());
    } catch (io.vertx.core.http.UpgradeRejectedException refused) {
      assertTrue(refused.getStatus() < 500);
    }
  }

  private static void sockJsWithHeaderToken(Vertx vertx, TestServer server, String token) {
    FrameSocket socket =
        Await.result(FrameSocket.connect(vertx, server.port(), "/eventbus/websocket"));
    JsonObject headers = new JsonObject().put("authorization", "Bearer " + token);
    socket.send(
        new JsonObject()
            .put("type", "register")
            .put("address", "room." + ROOM + ".canvas:host")
            .put("headers", headers)
            .encode());
    socket.send(
        new JsonObject()
            .put("type", "send")
            .put("address", "room." + ROOM + ".canvas:viewport")
            .put("headers", headers)
            .put("replyAddress", "r-1")
            .put(
                "body",
                new JsonObject()
                    .put(
                        "bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1)))
            .encode());
    Await.result(socket.await(0, frame -> "r-1".equals(frame.getString("address"))));
    Await.result(socket.close());
  }

  /** A run on Anthropic refused with 401 (the body quoting the key, as providers do), then one on OpenAI that succeeds. */
  private static void providerCalls(
      Vertx vertx, TestServer server, StubProvider stub, String editor, String viewer)
      throws IOException {
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
    stub.then(StubProvider.Stream.whole(resource("openai-answer.sse")));
    SseClient events =
        Await.result(
            SseClient.connect(
                vertx, server.port(), "/api/rooms/" + ROOM + "/events?access_token=" + viewer));
    for (String model : List.of("anthropic:claude-test", "openai:gpt-test")) {
      HttpResponse<Buffer> run =
          Await.result(
              server
                  .http()
                  .post("/api/canvas-agent/run")
                  .putHeader("authorization", "Bearer " + editor)
                  .sendJsonObject(
                      new JsonObject()
                          .put("roomId", ROOM)
                          .put("message", "draw two shapes. " + USER_TEXT)
                          .put("model", model)));
      assertEquals(202, run.statusCode(), run.bodyAsString());
      String sessionId = run.bodyAsJsonObject().getString("sessionId");
      var ended =
          Await.result(
              events.awaitEvent(
                  event ->
                      event.event().equals("agent:status")
                          && sessionId.equals(event.data().getString("sessionId"))
                          && List.of("done", "error", "canceled")
                              .contains(event.data().getString("state"))));
      String state = ended.get(ended.size() - 1).data().getString("state");
      assertEquals(model.startsWith("anthropic") ? "error" : "done", state, model);
    }
    Await.result(events.close());
    HttpResponse<Buffer> document =
        Await.result(
            server
                .http()
                .post("/api/docs")
                .putHeader("authorization", "Bearer " + editor)
                .sendJsonObject(
                    new JsonObject()
                        .put("roomId", ROOM)
                        .put("title", "notes")
                        .put("content", "# Notes\n\n" + DOCUMENT_TEXT + "\n")));
    assertEquals(201, document.statusCode(), document.bodyAsString());
    List<StubProvider.Received> received = stub.received();
    assertEquals(ANTHROPIC_KEY, received.get(0).headers().get("x-api-key"), "the key was sent");
    assertEquals("Bearer " + OPENAI_KEY, received.get(1).headers().get("authorization"));
  }

  /** The messages of configuration errors about the secret settings, each with the secret in it. */
  private static List<String> configErrors() {
    List<Map<String, String>> bad =
        List.of(
            Map.of("CANVAS_AGENT_JWT_SECRET", JWT_SECRET.substring(0, 20)),
            Map.of(
                "CANVAS_AGENT_JWT_SECRET",
                JWT_SECRET,
                "CANVAS_AGENT_JWT_PUBLIC_KEY",
                "-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----"),
            Map.of("ANTHROPIC_API_KEY", ANTHROPIC_KEY + " x"),
            Map.of("OPENAI_API_KEY", OPENAI_KEY + "\u00e9"),
            Map.of("OPENAI_BASE_URL", "https://user:" + OPENAI_KEY + "@api.example.com/v1"),
            Map.of(
                "GEMINI_BASE_URL",
                "https://generativelanguage.example.com/v1?key=" + ANTHROPIC_KEY),
            Map.of(
                "DATABASE_URL",
                "postgresql://postgres:" + DATABASE_PASSWORD + "@127.0.0.1:notaport/test"),
            Map.of("DATABASE_URL", "mysql://postgres:" + DATABASE_PASSWORD + "@127.0.0.1/test"),
            Map.of("PGPASSWORD", DATABASE_PASSWORD, "PGPORT", "seventy"),
            Map.of("CANVAS_AGENT_CONFIG", "{\"auth\":{\"jwtSecret\": " + JWT_SECRET + "}}"),
            Map.of(
                "CANVAS_AGENT_CONFIG",
                "{\"providers\":{\"openai\":{\"apiKey\":\"" + OPENAI_KEY + "\"}},}"),
            Map.of(
                "CANVAS_AGENT_CONFIG", "{\"database\":{\"password\":" + DATABASE_PASSWORD + "}}"));
    List<String> messages = new ArrayList<>();
    for (Map<String, String> environment : bad) {
      messages.add(
          assertThrows(
                  ConfigException.class,
                  () -> ConfigLoader.load(environment),
                  environment.toString())
              .getMessage());
    }
    return messages;
  }

  @Test
  void theConfigurationAndItsRecordsPrintNoSecret() throws ReflectiveOperationException {
    AppConfig config =
        TestServer.config(
            Map.of(
                "CANVAS_AGENT_JWT_SECRET",
                JWT_SECRET,
                "ANTHROPIC_API_KEY",
                ANTHROPIC_KEY,
                "OPENAI_API_KEY",
                OPENAI_KEY,
                "GEMINI_API_KEY",
                OPENAI_KEY + "g",
                "OPENAI_COMPATIBLE_API_KEY",
                OPENAI_KEY + "c",
                "OPENAI_COMPATIBLE_BASE_URL",
                "http://127.0.0.1:11434/v1",
                "DATABASE_URL",
                "postgresql://canvas:" + DATABASE_PASSWORD + "@db.example.com:5432/canvas"));
    assertEquals(
        DATABASE_PASSWORD, config.database().orElseThrow().password(), "the password was read");
    List<String> printed = new ArrayList<>();
    printed(config, printed);
    for (String text : printed) {
      for (String secret : List.of(JWT_SECRET, ANTHROPIC_KEY, OPENAI_KEY, DATABASE_PASSWORD)) {
        assertFalse(text.contains(secret), "a secret in: " + text);
      }
    }
    assertTrue(printed.size() > 10, "every record was printed: " + printed.size());
  }

  /** What {@code value} and every record inside it print. */
  private static void printed(Object value, List<String> into) throws ReflectiveOperationException {
    if (value instanceof Optional<?> optional) {
      if (optional.isPresent()) {
        printed(optional.get(), into);
      }
      return;
    }
    if (value != null && value.getClass().isRecord()) {
      into.add(value.toString());
      for (RecordComponent component : value.getClass().getRecordComponents()) {
        printed(component.getAccessor().invoke(value), into);
      }
    }
  }

  /** The log line that holds {@code secret}, for the failure message. */
  static String around(String logged, String secret) {
    int at = logged.indexOf(secret);
    if (at < 0) {
      return "";
    }
    int start = logged.lastIndexOf('\n', at) + 1;
    int end = logged.indexOf('\n', at);
    return logged.substring(start, end < 0 ? logged.length() : Math.min(end, start + 2_000));
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in =
        SecretsNotLoggedTest.class.getResourceAsStream("/providers/http/" + name)) {
      return in.readAllBytes();
    }
  }
}
