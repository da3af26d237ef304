package dev.canvasagent.mcpstdio;

import static dev.canvasagent.mcpstdio.PipedBridge.notification;
import static dev.canvasagent.mcpstdio.PipedBridge.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.mcpstdio.FakeMcpServer.Received;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge between a stdio MCP client and a Streamable HTTP server, driven through piped streams
 * against a server the test plays: what it forwards, with which headers, and what it writes back.
 */
class StdioBridgeTest {
  private static final String TOKEN = "test-token-not-a-secret";

  private Vertx vertx;
  private FakeMcpServer server;
  private String url;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server = new FakeMcpServer(vertx);
    url = "http://127.0.0.1:" + Await.result(server.start()) + "/mcp";
  }

  @AfterEach
  void stop() {
    Await.result(vertx.close());
  }

  private PipedBridge initialized(PipedBridge bridge) {
    bridge.send(
        request(1, "initialize", new JsonObject().put("protocolVersion", FakeMcpServer.VERSION)));
    String line = bridge.nextRawLine();
    assertEquals(
        FakeMcpServer.VERSION,
        new JsonObject(line).getJsonObject("result").getString("protocolVersion"));
    return bridge;
  }

  @Test
  void aSessionIsInitializedStreamedCalledAndDeletedWithTheHeadersTheTransportAsks() {
    PipedBridge bridge = new PipedBridge(vertx, url, Optional.of(TOKEN));
    bridge.send(
        request(1, "initialize", new JsonObject().put("protocolVersion", FakeMcpServer.VERSION)));
    String initializeLine = bridge.nextRawLine();
    JsonObject initialized = new JsonObject(initializeLine);
    assertEquals(1, initialized.getInteger("id"));
    assertEquals(
        FakeMcpServer.VERSION, initialized.getJsonObject("result").getString("protocolVersion"));
    assertFalse(initializeLine.contains("\n"), "a pretty-printed body is written as one line");

    // initialized: 202, nothing written; then the GET stream: one event, a drop, a resumption.
    bridge.send(notification("notifications/initialized"));
    assertEquals("notifications/tools/list_changed", bridge.nextLine().getString("method"));
    assertEquals("notifications/resources/list_changed", bridge.nextLine().getString("method"));

    // An SSE answer: the progress notification, then the result; the priming event is no line.
    bridge.send(request("call-1", "tools/call", new JsonObject().put("name", "draw")));
    assertEquals("notifications/progress", bridge.nextLine().getString("method"));
    JsonObject called = bridge.nextLine();
    assertEquals("call-1", called.getString("id"));
    assertEquals("drawn", called.getJsonObject("result").getString("content"));

    bridge.send(request(3, "ping", null));
    assertEquals(3, bridge.nextLine().getInteger("id"));

    Await.result(bridge.closeStdin());
    assertEquals(0, bridge.unreadLines(), "a 202 writes nothing");

    List<Received> posts = server.received(HttpMethod.POST);
    Received initialize = posts.get(0);
    assertEquals("initialize", initialize.rpcMethod());
    assertNull(initialize.header("MCP-Session-Id"), "initialize starts a session");
    assertNull(initialize.header("MCP-Protocol-Version"), "no version is negotiated yet");
    for (Received post : posts) {
      assertEquals("Bearer " + TOKEN, post.header("Authorization"));
      assertEquals("application/json", post.header("Content-Type"));
      assertEquals("application/json, text/event-stream", post.header("Accept"));
    }
    for (Received later : posts.subList(1, posts.size())) {
      assertEquals(FakeMcpServer.SESSION, later.header("MCP-Session-Id"), later.rpcMethod());
      assertEquals(FakeMcpServer.VERSION, later.header("MCP-Protocol-Version"), later.rpcMethod());
    }
    assertEquals(
        List.of("initialize", "notifications/initialized", "tools/call", "ping"),
        posts.stream().map(Received::rpcMethod).toList(),
        "forwarded in the client's order");

    List<Received> streams = server.received(HttpMethod.GET);
    assertEquals(2, streams.size(), "the dropped stream is opened once more");
    for (Received stream : streams) {
      assertEquals("text/event-stream", stream.header("Accept"));
      assertEquals(FakeMcpServer.SESSION, stream.header("MCP-Session-Id"));
      assertEquals(FakeMcpServer.VERSION, stream.header("MCP-Protocol-Version"));
      assertEquals("Bearer " + TOKEN, stream.header("Authorization"));
    }
    assertNull(streams.get(0).header("Last-Event-ID"));
    assertEquals("e1", streams.get(1).header("Last-Event-ID"), "resumed after the last event");

    List<Received> deletes = server.received(HttpMethod.DELETE);
    assertEquals(1, deletes.size(), "stdin's end deletes the session");
    assertEquals(FakeMcpServer.SESSION, deletes.get(0).header("MCP-Session-Id"));
    assertEquals("Bearer " + TOKEN, deletes.get(0).header("Authorization"));
    assertFalse(bridge.stderr().contains(TOKEN), "the token is never printed");
  }

  @Test
  void aLongCallDoesNotHoldUpAPing() {
    PipedBridge bridge = initialized(new PipedBridge(vertx, url, Optional.empty()));
    bridge.send(request(2, "tools/call", new JsonObject().put("name", "slow")));
    bridge.send(request(3, "ping", null));
    assertEquals(3, bridge.nextLine().getInteger("id"), "the ping is answered first");
    server.releaseSlowCall.complete();
    JsonObject slow = bridge.nextLine();
    assertEquals(2, slow.getInteger("id"));
    assertTrue(slow.getJsonObject("result").getBoolean("slow"));
    Await.result(bridge.closeStdin());
    assertNull(
        server.received(HttpMethod.POST).get(1).header("Authorization"),
        "no token, no Authorization header");
  }

  @Test
  void httpErrorsBecomeJsonRpcErrorsWithTheRequestsId() {
    PipedBridge bridge = initialized(new PipedBridge(vertx, url, Optional.empty()));

    bridge.send(request("a", "fail/401", null));
    JsonObject unauthorized = bridge.nextLine();
    assertEquals("a", unauthorized.getString("id"));
    JsonObject error = unauthorized.getJsonObject("error");
    assertEquals(-32000, error.getInteger("code"));
    assertTrue(
        error.getString("message").contains("HTTP 401 unauthorized: check --token"),
        error.encode());
    assertTrue(error.getString("message").contains("missing bearer token"), "the server's text");
    assertEquals(401, error.getJsonObject("data").getInteger("httpStatus"));

    bridge.send(request("b", "fail/500", null));
    JsonObject failed = bridge.nextLine();
    assertEquals("b", failed.getString("id"));
    assertTrue(
        failed.getJsonObject("error").getString("message").contains("HTTP 500"), failed.encode());
    assertTrue(
        failed
            .getJsonObject("error")
            .getString("message")
            .contains("the store is down see the logs"),
        "the server's text, on one line");

    bridge.send(request("c", "fail/jsonrpc", null));
    JsonObject invalid = bridge.nextLine();
    assertEquals("c", invalid.getString("id"));
    assertEquals(
        -32602, invalid.getJsonObject("error").getInteger("code"), "the server's own error");

    bridge.send(notification("notifications/refused"));
    bridge.send(request("d", "fail/404", null));
    JsonObject expired = bridge.nextLine();
    assertEquals("d", expired.getString("id"));
    assertTrue(
        expired.getJsonObject("error").getString("message").contains("session expired"),
        expired.encode());

    // The session is forgotten: the next message carries no session id.
    bridge.send(request("e", "ping", null));
    assertEquals("e", bridge.nextLine().getString("id"));
    Await.result(bridge.closeStdin());
    List<Received> posts = server.received(HttpMethod.POST);
    assertNull(posts.get(posts.size() - 1).header("MCP-Session-Id"));
    assertTrue(
        bridge.stderr().contains("the server refused notifications/refused: HTTP 500"),
        bridge.stderr());
    assertEquals(0, bridge.unreadLines(), "a refused notification writes nothing on stdout");
    assertTrue(server.received(HttpMethod.DELETE).isEmpty(), "no session left to delete");
  }

  @Test
  void aLineThatIsNotJsonIsAParseErrorAndTheBridgeGoesOn() {
    PipedBridge bridge = new PipedBridge(vertx, url, Optional.empty());
    bridge.send("{\"jsonrpc\":\"2.0\",\"id\":1,");
    JsonObject parseError = bridge.nextLine();
    assertTrue(parseError.containsKey("id"));
    assertNull(parseError.getValue("id"));
    assertEquals(-32700, parseError.getJsonObject("error").getInteger("code"));
    bridge.send("");
    bridge.send(request(2, "ping", null));
    assertEquals(2, bridge.nextLine().getInteger("id"));
    Await.result(bridge.closeStdin());
    assertEquals(
        List.of("ping"),
        server.received(HttpMethod.POST).stream().map(Received::rpcMethod).toList(),
        "neither the bad line nor the blank one is forwarded");
  }

  @Test
  void aStreamCutShortAnswersTheRequestWithAnError() {
    PipedBridge bridge = initialized(new PipedBridge(vertx, url, Optional.empty()));
    bridge.send(request(5, "cut/short", null));
    assertEquals("notifications/progress", bridge.nextLine().getString("method"));
    JsonObject cut = bridge.nextLine();
    assertEquals(5, cut.getInteger("id"));
    assertTrue(
        cut.getJsonObject("error").getString("message").contains("ended before the response"),
        cut.encode());
    Await.result(bridge.closeStdin());
  }

  @Test
  void aStreamThatOnlyPrimesIsResumedWithAGetAfterItsLastEventId() {
    PipedBridge bridge = initialized(new PipedBridge(vertx, url, Optional.of(TOKEN)));
    bridge.send(request(9, "poll/resume", null));
    assertEquals("notifications/progress", bridge.nextLine().getString("method"));
    JsonObject polled = bridge.nextLine();
    assertEquals(9, polled.getInteger("id"));
    assertTrue(polled.getJsonObject("result").getBoolean("polled"));
    Await.result(bridge.closeStdin());
    List<Received> resumptions = server.received(HttpMethod.GET);
    assertEquals(1, resumptions.size());
    assertEquals("r1", resumptions.get(0).header("Last-Event-ID"));
    assertEquals(FakeMcpServer.SESSION, resumptions.get(0).header("MCP-Session-Id"));
    assertEquals("Bearer " + TOKEN, resumptions.get(0).header("Authorization"));
    assertEquals(0, bridge.unreadLines());
  }

  @Test
  void aServerWithoutAGetStreamIsFine() {
    server.offersStream = false;
    PipedBridge bridge = initialized(new PipedBridge(vertx, url, Optional.empty()));
    bridge.send(notification("notifications/initialized"));
    bridge.send(request(2, "ping", null));
    assertEquals(2, bridge.nextLine().getInteger("id"));
    // The GET goes out beside the ping, not before it: wait for it, then see it is not repeated.
    Await.result(
        Eventually.holds(
            vertx, () -> Future.succeededFuture(!server.received(HttpMethod.GET).isEmpty())));
    bridge.send(request(3, "ping", null));
    assertEquals(3, bridge.nextLine().getInteger("id"));
    Await.result(bridge.closeStdin());
    assertEquals(1, server.received(HttpMethod.GET).size(), "a 405 is not asked again");
    assertFalse(bridge.stderr().contains("reopening"), bridge.stderr());
  }

  @Test
  void aServerOutOfReachIsAnErrorNamingTheUrl() {
    String closedUrl = url;
    Await.result(server.close());
    PipedBridge bridge = new PipedBridge(vertx, closedUrl, Optional.empty());
    bridge.send(request(1, "initialize", new JsonObject()));
    JsonObject refused = bridge.nextLine();
    assertEquals(1, refused.getInteger("id"));
    String message = refused.getJsonObject("error").getString("message");
    assertTrue(message.startsWith("cannot reach the server at " + closedUrl), message);
    bridge.send(notification("notifications/cancelled"));
    Await.result(bridge.closeStdin());
    assertTrue(
        bridge.stderr().contains("notifications/cancelled not delivered: cannot reach the server"),
        bridge.stderr());
  }
}
