package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One client floods the server (runs, API requests, WebSocket messages) while another client's run
 * goes on: the flood is refused with RATE_LIMITED, and the other run's envelopes all arrive and it ends
 * {@code done}. With auth on the two clients are two token subjects; with auth off, two addresses
 * (127.0.0.2 and 127.0.0.1, both loopback).
 */
@ExtendWith(VertxExtension.class)
class FloodTest {
  static final Map<String, String> LIMITS =
      Map.of(
          "CANVAS_AGENT_RUNS_PER_MINUTE", "3",
          "CANVAS_AGENT_REQUESTS_PER_SECOND", "5",
          "CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND", "20",
          "CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND", "20");

  Vertx vertx;
  TestServer server;
  final String floodRoom = "flood-" + UUID.randomUUID().toString().substring(0, 8);
  final String calmRoom = "calm-" + UUID.randomUUID().toString().substring(0, 8);

  /** One client: where it connects from and the token it shows (null with auth off). */
  record Client(WebClient http, WebSocketClientOptions sockets, String token) {
    HttpRequest<Buffer> authorized(HttpRequest<Buffer> request) {
      return token == null ? request : request.putHeader("authorization", TestTokens.bearer(token));
    }

    String query() {
      return token == null ? null : "access_token=" + token;
    }
  }

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
  }

  @AfterEach
  void tearDown() {
    Await.result(server.stop());
  }

  @Test
  void withAuthOnOneSubjectsFloodLeavesAnothersRunAlone() {
    Map<String, String> environment = new HashMap<>(LIMITS);
    environment.putAll(TestTokens.ENVIRONMENT);
    server = TestServer.start(vertx, TestServer.config(environment));
    TestTokens tokens = new TestTokens(vertx);
    Client mallory =
        new Client(
            server.http(),
            new WebSocketClientOptions(),
            tokens.token("mallory", Role.EDITOR, floodRoom));
    Client alice =
        new Client(
            server.http(),
            new WebSocketClientOptions(),
            tokens.token("alice", Role.EDITOR, calmRoom));
    floodWhileAnotherRuns(mallory, alice);
  }

  @Test
  void withAuthOffOneAddresssFloodLeavesAnothersRunAlone() {
    server = TestServer.start(vertx, TestServer.config(LIMITS));
    String elsewhere = "127.0.0.2";
    WebClient fromElsewhere =
        WebClient.create(
            vertx,
            new WebClientOptions()
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(server.port())
                .setLocalAddress(elsewhere));
    try {
      Client flooder =
          new Client(fromElsewhere, new WebSocketClientOptions().setLocalAddress(elsewhere), null);
      Client calm = new Client(server.http(), new WebSocketClientOptions(), null);
      floodWhileAnotherRuns(flooder, calm);
    } finally {
      fromElsewhere.close();
    }
  }

  void floodWhileAnotherRuns(Client flooder, Client calm) {
    WsClient host =
        Await.result(WsClient.connect(vertx, calm.sockets(), server.port(), calmRoom, calm.query()))
            .autoAck();
    WsClient floodSocket =
        Await.result(
            WsClient.connect(vertx, flooder.sockets(), server.port(), floodRoom, flooder.query()));

    // The flood: every request sent at once, and a stream of messages far over the room's
    // allowance.
    List<Future<HttpResponse<Buffer>>> runs =
        IntStream.range(0, 30)
            .mapToObj(
                i ->
                    flooder
                        .authorized(
                            flooder
                                .http()
                                .post("/api/canvas-agent/run")
                                .putHeader("content-type", "application/json"))
                        .sendJsonObject(
                            new JsonObject().put("roomId", floodRoom).put("message", "flood " + i)))
            .toList();
    JsonObject viewport =
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 1).put("h", 1));
    for (int i = 0; i < 300; i++) {
      floodSocket.send("canvas:viewport", viewport);
    }
    List<Future<HttpResponse<Buffer>>> reads =
        IntStream.range(0, 60)
            .mapToObj(
                i ->
                    flooder
                        .authorized(flooder.http().get("/api/rooms/" + floodRoom + "/board"))
                        .send())
            .toList();

    // Meanwhile the other client's run.
    HttpResponse<Buffer> started =
        Await.result(
            calm.authorized(
                    calm.http()
                        .post("/api/canvas-agent/run")
                        .putHeader("content-type", "application/json"))
                .sendJsonObject(
                    new JsonObject().put("roomId", calmRoom).put("message", "draw a box")));
    assertEquals(202, started.statusCode(), started.bodyAsString());
    String sessionId = started.bodyAsJsonObject().getString("sessionId");
    List<JsonObject> frames =
        Await.result(
            host.awaitTopic(
                "agent:status",
                status ->
                    sessionId.equals(status.getString("sessionId"))
                        && List.of("done", "error", "canceled")
                            .contains(status.getString("state"))));
    JsonObject last =
        frames.stream()
            .filter(frame -> "agent:status".equals(frame.getString("topic")))
            .map(frame -> frame.getJsonObject("payload"))
            .filter(status -> sessionId.equals(status.getString("sessionId")))
            .reduce((a, b) -> b)
            .orElseThrow();
    assertEquals("done", last.getString("state"), last.encode());
    long applied = last.getJsonObject("detail").getLong("applied");
    assertTrue(applied >= 1, last.encode());
    assertEquals(
        applied,
        frames.stream()
            .filter(
                frame ->
                    "agent:action".equals(frame.getString("topic"))
                        && sessionId.equals(frame.getJsonObject("payload").getString("sessionId")))
            .count(),
        "every envelope arrived");
    assertTrue(
        frames.stream().noneMatch(frame -> "error".equals(frame.getString("topic"))),
        "nothing refused: " + frames);

    // The flood was refused, and by the limits.
    Await.result(Future.join(runs));
    Await.result(Future.join(reads));
    List<HttpResponse<Buffer>> runAnswers = runs.stream().map(Future::result).toList();
    List<HttpResponse<Buffer>> readAnswers = reads.stream().map(Future::result).toList();
    long accepted = runAnswers.stream().filter(response -> response.statusCode() == 202).count();
    assertTrue(accepted >= 1 && accepted <= 3, accepted + " of the flood's runs accepted");
    for (HttpResponse<Buffer> refused : concat(runAnswers, readAnswers)) {
      if (refused.statusCode() != 202 && refused.statusCode() != 200) {
        assertEquals(429, refused.statusCode(), refused.bodyAsString());
        assertEquals(
            "RATE_LIMITED", refused.bodyAsJsonObject().getJsonObject("error").getString("code"));
        assertTrue(Long.parseLong(refused.getHeader("Retry-After")) >= 1);
      }
    }
    assertTrue(
        messages(runAnswers).anyMatch(message -> message.contains("CANVAS_AGENT_RUNS_PER_MINUTE")),
        "the runs limit refused some");
    assertTrue(
        messages(concat(runAnswers, readAnswers))
            .anyMatch(message -> message.contains("CANVAS_AGENT_REQUESTS_PER_SECOND")),
        "the requests limit refused some");
    Await.result(
        floodSocket.awaitTopic("error", error -> "RATE_LIMITED".equals(error.getString("code"))));

    Await.result(host.close());
    Await.result(floodSocket.close());
  }

  static List<HttpResponse<Buffer>> concat(
      List<HttpResponse<Buffer>> first, List<HttpResponse<Buffer>> second) {
    return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
  }

  static java.util.stream.Stream<String> messages(List<HttpResponse<Buffer>> answers) {
    return answers.stream()
        .filter(response -> response.statusCode() == 429)
        .map(response -> response.bodyAsJsonObject().getJsonObject("error").getString("message"));
  }
}
