package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpHttp;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /mcp}'s Streamable HTTP transport over real HTTP: sessions, version negotiation, the
 * transport's refusals (each a JSON-RPC error with its HTTP status), and the JSON-RPC errors of the
 * protocol. With auth on, so tokens and subjects are part of it.
 */
@ExtendWith(VertxExtension.class)
class McpTransportTest {
  TestServer server;
  TestTokens tokens;
  McpHttp mcp;

  @BeforeEach
  void start(Vertx vertx) {
    Map<String, String> environment = new HashMap<>(TestTokens.ENVIRONMENT);
    environment.put("CANVAS_AGENT_MCP_MAX_SESSIONS", "3");
    server = TestServer.start(vertx, TestServer.config(environment));
    tokens = new TestTokens(vertx);
    mcp = new McpHttp(server.http(), server.port(), tokens.editor("room-a"));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  HttpResponse<Buffer> post(McpHttp client, MultiMap headers, String body) {
    return Await.result(client.post("/mcp", headers, Buffer.buffer(body)));
  }

  static JsonObject error(HttpResponse<Buffer> answer) {
    return answer.bodyAsJsonObject().getJsonObject("error");
  }

  @Test
  void initializeOpensASessionAndNegotiatesTheVersion() {
    JsonObject result = mcp.initialize("").getJsonObject("result");
    assertEquals("2025-11-25", result.getString("protocolVersion"));
    assertEquals("canvas-agent", result.getJsonObject("serverInfo").getString("name"));
    assertTrue(
        result.getJsonObject("capabilities").getJsonObject("resources").getBoolean("subscribe"));
    assertEquals(32, mcp.session().length());

    McpHttp older = new McpHttp(server.http(), server.port(), tokens.editor("room-a"));
    JsonObject asked =
        older.request(
            "initialize",
            new JsonObject()
                .put("protocolVersion", "2025-03-26")
                .put("capabilities", new JsonObject()));
    HttpResponse<Buffer> answer = post(older, MultiMap.caseInsensitiveMultiMap(), asked.encode());
    assertEquals(
        "2025-03-26",
        answer.bodyAsJsonObject().getJsonObject("result").getString("protocolVersion"));
    asked.getJsonObject("params").put("protocolVersion", "1999-01-01");
    answer = post(older, MultiMap.caseInsensitiveMultiMap(), asked.encode());
    assertEquals(
        McpProtocol.LATEST,
        answer.bodyAsJsonObject().getJsonObject("result").getString("protocolVersion"),
        "an unknown revision is answered with the newest");
  }

  @Test
  void requestsWithoutOrWithAnUnknownSessionAreRefused() {
    mcp.initialize("");
    String ping = mcp.request("ping", new JsonObject()).encode();
    HttpResponse<Buffer> none = post(mcp, MultiMap.caseInsensitiveMultiMap(), ping);
    assertEquals(400, none.statusCode());
    assertTrue(error(none).getString("message").contains("Mcp-Session-Id"));

    HttpResponse<Buffer> unknown =
        post(mcp, MultiMap.caseInsensitiveMultiMap().add("Mcp-Session-Id", "0".repeat(32)), ping);
    assertEquals(404, unknown.statusCode());
    assertEquals(JsonRpcError.SESSION_NOT_FOUND, error(unknown).getInteger("code"));

    McpHttp someoneElse =
        new McpHttp(server.http(), server.port(), tokens.token("mallory", Role.EDITOR, "room-a"));
    HttpResponse<Buffer> stolen =
        post(
            someoneElse,
            MultiMap.caseInsensitiveMultiMap().add("Mcp-Session-Id", mcp.session()),
            ping);
    assertEquals(404, stolen.statusCode(), "a session answers only the subject it was opened for");

    assertEquals(new JsonObject(), mcp.call("ping", new JsonObject()).getJsonObject("result"));
  }

  @Test
  void notificationsAndResponsesAreAccepted202() {
    mcp.initialize("");
    HttpResponse<Buffer> note =
        post(
            mcp,
            mcp.headers(),
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("method", "notifications/cancelled")
                .put("params", new JsonObject().put("requestId", 9))
                .encode());
    assertEquals(202, note.statusCode());
    HttpResponse<Buffer> response =
        post(
            mcp,
            mcp.headers(),
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 4)
                .put("result", new JsonObject())
                .encode());
    assertEquals(202, response.statusCode());
  }

  @Test
  void malformedMessagesGetTheirJsonRpcCodes() {
    mcp.initialize("");
    HttpResponse<Buffer> garbage = post(mcp, mcp.headers(), "{not json");
    assertEquals(400, garbage.statusCode());
    assertEquals(JsonRpcError.PARSE_ERROR, error(garbage).getInteger("code"));
    assertNull(garbage.bodyAsJsonObject().getValue("id"));

    HttpResponse<Buffer> batch =
        post(
            mcp,
            mcp.headers(),
            new JsonArray().add(mcp.request("ping", new JsonObject())).encode());
    assertEquals(JsonRpcError.INVALID_REQUEST, error(batch).getInteger("code"));
    assertTrue(error(batch).getString("message").contains("batches"));

    HttpResponse<Buffer> noVersion =
        post(mcp, mcp.headers(), new JsonObject().put("id", 1).put("method", "ping").encode());
    assertEquals(JsonRpcError.INVALID_REQUEST, error(noVersion).getInteger("code"));
    assertEquals(1, noVersion.bodyAsJsonObject().getInteger("id"));

    HttpResponse<Buffer> badParams =
        post(
            mcp,
            mcp.headers(),
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 2)
                .put("method", "ping")
                .put("params", 5)
                .encode());
    assertEquals(JsonRpcError.INVALID_REQUEST, error(badParams).getInteger("code"));

    JsonObject unknown = mcp.call("server/discover", new JsonObject());
    assertEquals(JsonRpcError.METHOD_NOT_FOUND, unknown.getJsonObject("error").getInteger("code"));

    JsonObject noTool = mcp.call("tools/call", new JsonObject().put("name", "no_such_tool"));
    assertEquals(JsonRpcError.INVALID_PARAMS, noTool.getJsonObject("error").getInteger("code"));
    JsonObject noName = mcp.call("tools/call", new JsonObject().put("arguments", new JsonObject()));
    assertEquals(JsonRpcError.INVALID_PARAMS, noName.getJsonObject("error").getInteger("code"));
    JsonObject cursor = mcp.call("tools/list", new JsonObject().put("cursor", "x"));
    assertEquals(JsonRpcError.INVALID_PARAMS, cursor.getJsonObject("error").getInteger("code"));

    HttpResponse<Buffer> nul =
        post(
            mcp,
            mcp.headers(),
            mcp.request(
                    "tools/call",
                    new JsonObject()
                        .put("name", "canvas_read_all")
                        .put("arguments", new JsonObject().put("docId", "a\u0000b")))
                .encode());
    assertEquals(JsonRpcError.INVALID_PARAMS, error(nul).getInteger("code"));
    assertTrue(error(nul).getString("message").contains("/params/arguments/docId"));
  }

  @Test
  void theTransportsOwnRefusals() {
    mcp.initialize("");
    String ping = mcp.request("ping", new JsonObject()).encode();
    HttpResponse<Buffer> jsonOnly =
        post(
            mcp,
            MultiMap.caseInsensitiveMultiMap()
                .addAll(mcp.headers())
                .set("accept", "application/json"),
            ping);
    assertEquals(406, jsonOnly.statusCode());
    HttpResponse<Buffer> form =
        post(
            mcp,
            MultiMap.caseInsensitiveMultiMap()
                .addAll(mcp.headers())
                .set("content-type", "text/plain"),
            ping);
    assertEquals(415, form.statusCode());
    HttpResponse<Buffer> version =
        post(
            mcp,
            MultiMap.caseInsensitiveMultiMap()
                .addAll(mcp.headers())
                .set("MCP-Protocol-Version", "2024-01-01"),
            ping);
    assertEquals(400, version.statusCode());
    assertTrue(error(version).getString("message").contains("2025-11-25"));

    String huge =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""
            + "a".repeat(server.config().http().bodyLimitBytes())
            + "\"}}";
    HttpResponse<Buffer> tooLarge = post(mcp, mcp.headers(), huge);
    assertEquals(413, tooLarge.statusCode());
    assertTrue(error(tooLarge).getString("message").contains("CANVAS_AGENT_BODY_LIMIT_BYTES"));

    HttpResponse<Buffer> put =
        Await.result(
            server
                .http()
                .request(HttpMethod.PUT, server.port(), "127.0.0.1", "/mcp")
                .putHeader("authorization", "Bearer " + tokens.editor("room-a"))
                .send());
    assertEquals(405, put.statusCode(), put.bodyAsString());

    HttpResponse<Buffer> noToken =
        Await.result(
            new McpHttp(server.http(), server.port(), null)
                .post("/mcp", mcp.headers(), Buffer.buffer(ping)));
    assertEquals(401, noToken.statusCode());

    HttpResponse<Buffer> foreignPage =
        post(
            mcp,
            MultiMap.caseInsensitiveMultiMap()
                .addAll(mcp.headers())
                .add("origin", "http://evil.example"),
            ping);
    assertEquals(403, foreignPage.statusCode(), "Origin is checked: DNS rebinding");

    assertEquals(
        new JsonObject(),
        mcp.call("ping", new JsonObject()).getJsonObject("result"),
        "the session is unharmed");
  }

  @Test
  void initializeChecksItsRoomAndTheSessionCap() {
    McpHttp other = new McpHttp(server.http(), server.port(), tokens.editor("room-a"));
    JsonObject init =
        other.request("initialize", new JsonObject().put("protocolVersion", "2025-11-25"));
    HttpResponse<Buffer> outOfReach =
        Await.result(
            other.post("/mcp?room=room-b", MultiMap.caseInsensitiveMultiMap(), init.toBuffer()));
    assertEquals(403, outOfReach.statusCode());
    HttpResponse<Buffer> badRoom =
        Await.result(
            other.post("/mcp?room=a.b", MultiMap.caseInsensitiveMultiMap(), init.toBuffer()));
    assertEquals(400, badRoom.statusCode());
    HttpResponse<Buffer> noVersion =
        Await.result(
            other.post(
                "/mcp",
                MultiMap.caseInsensitiveMultiMap(),
                other.request("initialize", new JsonObject()).toBuffer()));
    assertEquals(JsonRpcError.INVALID_PARAMS, error(noVersion).getInteger("code"));

    for (int i = 0; i < 3; i++) {
      new McpHttp(server.http(), server.port(), tokens.editor("room-a")).initialize("?room=room-a");
    }
    HttpResponse<Buffer> full =
        Await.result(other.post("/mcp", MultiMap.caseInsensitiveMultiMap(), init.toBuffer()));
    assertEquals(503, full.statusCode());
    assertNotNull(full.getHeader("Retry-After"));
  }

  @Test
  void deleteEndsTheSessionAndOneNotificationStreamAtATime(Vertx vertx) {
    mcp.initialize("");
    MultiMap headers = mcp.headers().add("authorization", "Bearer " + tokens.editor("room-a"));
    // A stream that stays open: a second GET of the same session is refused while it lasts.
    HttpClient client = vertx.createHttpClient();
    RequestOptions get =
        new RequestOptions()
            .setMethod(HttpMethod.GET)
            .setHost("127.0.0.1")
            .setPort(server.port())
            .setURI("/mcp")
            .setHeaders(
                MultiMap.caseInsensitiveMultiMap()
                    .addAll(headers)
                    .add("accept", "text/event-stream"));
    HttpClientResponse first = Await.result(client.request(get).compose(HttpClientRequest::send));
    assertEquals(200, first.statusCode());
    assertTrue(first.getHeader("content-type").startsWith("text/event-stream"));
    Future<Void> firstEnded = first.end();
    HttpClientResponse second = Await.result(client.request(get).compose(HttpClientRequest::send));
    assertEquals(409, second.statusCode());
    HttpResponse<Buffer> noSse =
        Await.result(
            server
                .http()
                .get(server.port(), "127.0.0.1", "/mcp")
                .putHeaders(headers)
                .putHeader("accept", "application/json")
                .send());
    assertEquals(406, noSse.statusCode());

    HttpResponse<Buffer> deleted =
        Await.result(
            server.http().delete(server.port(), "127.0.0.1", "/mcp").putHeaders(headers).send());
    assertEquals(204, deleted.statusCode());
    Await.result(firstEnded);
    // The session's notification stream ended with it.
    HttpResponse<Buffer> after =
        post(mcp, mcp.headers(), mcp.request("ping", new JsonObject()).encode());
    assertEquals(404, after.statusCode());
  }

  @Test
  void toolsListHasTheDocumentToolsWithTheirSchemasAndTheCatalogIsAResource() {
    mcp.initialize("");
    JsonArray tools =
        mcp.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools");
    JsonObject readAll =
        tools.stream()
            .map(JsonObject.class::cast)
            .filter(tool -> tool.getString("name").equals("canvas_read_all"))
            .findFirst()
            .orElseThrow();
    JsonObject schema = readAll.getJsonObject("inputSchema");
    assertEquals("object", schema.getString("type"));
    assertTrue(schema.getJsonArray("required").contains("docId"));
    assertNull(schema.getValue("$schema"));

    JsonObject refused = mcp.tool("canvas_read_all", new JsonObject());
    assertTrue(refused.getBoolean("isError"));
    assertEquals(
        "INVALID_REQUEST",
        refused.getJsonObject("structuredContent").getJsonObject("error").getString("code"));
    JsonObject missing = mcp.tool("canvas_read_all", new JsonObject().put("docId", "doc-nope"));
    assertEquals(
        "NOT_FOUND",
        missing.getJsonObject("structuredContent").getJsonObject("error").getString("code"));

    JsonObject catalog =
        mcp.call("resources/read", new JsonObject().put("uri", "canvas://catalog"))
            .getJsonObject("result");
    JsonObject text =
        new JsonObject(catalog.getJsonArray("contents").getJsonObject(0).getString("text"));
    assertTrue(text.getJsonArray("verbs").size() > 10);
    JsonObject nothing =
        mcp.call("resources/read", new JsonObject().put("uri", "canvas://nothing"));
    assertEquals(
        JsonRpcError.RESOURCE_NOT_FOUND, nothing.getJsonObject("error").getInteger("code"));
  }
}
