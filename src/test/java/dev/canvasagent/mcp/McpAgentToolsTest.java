package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpClients;
import dev.canvasagent.support.McpClients.ToolRun;
import dev.canvasagent.support.McpHttp;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code canvas_agent_run} and {@code canvas_agent_edit_request} against a real server with auth on and
 * the scripted {@code debug/fake} model, paced so that a run can be cut in the middle: through the bare
 * Streamable HTTP client, and through the official SDK's client for progress.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpAgentToolsTest {
  /** Pacing of the fake model's stream: {@code /two-passes}'s boxes take seconds. */
  static final int TOKEN_DELAY_MS = 30;

  static final String TEXT = "# Title\n\nfoo line\n";

  Vertx vertx;
  TestServer server;
  TestTokens tokens;
  McpClients sdk;
  String roomId;
  McpHttp mcp;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    Map<String, String> environment = new HashMap<>(TestTokens.ENVIRONMENT);
    environment.put("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", String.valueOf(TOKEN_DELAY_MS));
    server = TestServer.start(vertx, TestServer.config(environment));
    tokens = new TestTokens(vertx);
  }

  @BeforeEach
  void room() {
    roomId = "mcp-run-" + UUID.randomUUID().toString().substring(0, 8);
    mcp = new McpHttp(server.http(), server.port(), tokens.editor(roomId));
    mcp.initialize("?room=" + roomId);
  }

  @AfterAll
  void stop() {
    if (sdk != null) {
      sdk.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  SseClient events() {
    return Await.result(
        SseClient.connect(
            vertx,
            server.port(),
            "/api/rooms/" + roomId + "/events",
            Map.of("authorization", "Bearer " + tokens.admin())));
  }

  JsonObject api(String method, String path, JsonObject body) {
    var request =
        server
            .http()
            .request(io.vertx.core.http.HttpMethod.valueOf(method), path)
            .putHeader("authorization", "Bearer " + tokens.admin());
    HttpResponse<Buffer> answer =
        Await.result(body == null ? request.send() : request.sendJsonObject(body));
    assertTrue(answer.statusCode() < 300, path + ": " + answer.bodyAsString());
    return answer.bodyAsJsonObject();
  }

  JsonArray sessions() {
    return api("GET", "/api/sessions?roomId=" + roomId, null).getJsonArray("sessions");
  }

  JsonArray shapes() {
    JsonObject board = api("GET", "/api/rooms/" + roomId + "/board", null);
    JsonArray shapes = new JsonArray();
    board.getJsonArray("records", new JsonArray()).stream()
        .map(JsonObject.class::cast)
        .filter(record -> "shape".equals(record.getString("typeName")))
        .forEach(shapes::add);
    return shapes;
  }

  static Predicate<SseEvent> finalStatusOf(String sessionId) {
    return event ->
        event.event().equals("agent:status")
            && sessionId.equals(event.data().getString("sessionId"))
            && List.of("done", "error", "canceled").contains(event.data().getString("state"));
  }

  static JsonObject structured(JsonObject result) {
    return result.getJsonObject("structuredContent");
  }

  static void refusedWith(JsonObject result, String code, String naming) {
    assertTrue(result.getBoolean("isError"), result.encode());
    JsonObject error = structured(result).getJsonObject("error");
    assertEquals(code, error.getString("code"), result.encode());
    assertTrue(
        error.getString("message").contains(naming),
        "the refusal names " + naming + ": " + error.getString("message"));
  }

  @Test
  void aRunDrawsEndsDoneAndTheRoomSeesItsEnvelopes() {
    SseClient sse = events();
    JsonObject result =
        mcp.tool("canvas_agent_run", new JsonObject().put("message", "a box for the roadmap"));

    assertFalse(result.getBoolean("isError"), result.encode());
    JsonObject answer = structured(result);
    assertEquals("done", answer.getString("state"), answer.encode());
    assertTrue(answer.getInteger("applied") > 0, answer.encode());
    assertNotNull(answer.getString("runId"));
    assertTrue(answer.getLong("revision") > 0, answer.encode());
    assertFalse(answer.getJsonArray("chat").isEmpty(), "the agent's chat: " + answer.encode());
    assertEquals(answer.getString("runId"), answer.getJsonObject("detail").getString("runId"));
    assertFalse(shapes().isEmpty(), "the board holds what the run drew");

    String sessionId = answer.getString("sessionId");
    List<SseEvent> seen = Await.result(sse.awaitEvent(finalStatusOf(sessionId)));
    long envelopes =
        seen.stream()
            .filter(event -> event.event().equals("agent:action"))
            .filter(event -> sessionId.equals(event.data().getString("sessionId")))
            .count();
    assertEquals(answer.getInteger("applied").longValue(), envelopes, "every envelope, live");
    Await.result(sse.close());

    JsonObject again =
        structured(
            mcp.tool(
                "canvas_agent_run",
                new JsonObject().put("message", "one more box").put("sessionId", sessionId)));
    assertEquals(sessionId, again.getString("sessionId"), "the same conversation goes on");
    assertEquals("done", again.getString("state"), again.encode());
  }

  @Test
  void aRequestWithFollowUpsIsAnsweredWhenTheLastOfThemEnds() {
    SseClient sse = events();
    JsonObject answer =
        structured(mcp.tool("canvas_agent_run", new JsonObject().put("message", "/two-passes")));
    assertEquals("done", answer.getString("state"), answer.encode());
    String lastRun = answer.getJsonObject("detail").getString("runId");
    assertFalse(answer.getString("runId").equals(lastRun), "ended by a follow-up: " + answer);
    assertEquals(
        answer.getString("runId"),
        answer.getJsonObject("detail").getJsonObject("followUp").getString("requestRunId"));

    List<SseEvent> seen =
        Await.result(sse.awaitEvent(finalStatusOf(answer.getString("sessionId"))));
    long envelopes =
        seen.stream()
            .filter(event -> event.event().equals("agent:action"))
            .filter(
                event -> answer.getString("sessionId").equals(event.data().getString("sessionId")))
            .count();
    assertEquals(
        envelopes, answer.getInteger("applied").longValue(), "the follow-ups' envelopes too");
    Await.result(sse.close());
  }

  @Test
  void runsCountAgainstTheSameLimitsAsTheApisAndARefusedOneIsGivenBack() {
    Map<String, String> environment = new HashMap<>(TestTokens.ENVIRONMENT);
    environment.put("CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", "1");
    // A server of its own on a Vert.x of its own: two servers on one bus would answer each other.
    Vertx own = Vertx.vertx();
    TestServer limited = TestServer.start(own, TestServer.config(environment));
    try {
      McpHttp client = new McpHttp(limited.http(), limited.port(), tokens.editor(roomId));
      client.initialize("?room=" + roomId);
      refusedWith(
          client.tool(
              "canvas_agent_run",
              new JsonObject().put("message", "a box").put("model", "nowhere/nothing")),
          "UNKNOWN_MODEL",
          "nowhere/nothing");
      JsonObject first =
          structured(client.tool("canvas_agent_run", new JsonObject().put("message", "a box")));
      assertEquals("done", first.getString("state"), "the refused run was given back: " + first);
      refusedWith(
          client.tool("canvas_agent_run", new JsonObject().put("message", "another box")),
          "RATE_LIMITED",
          "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE");
      HttpResponse<Buffer> overHttp =
          Await.result(
              limited
                  .http()
                  .post("/api/canvas-agent/run")
                  .putHeader("authorization", "Bearer " + tokens.admin())
                  .sendJsonObject(new JsonObject().put("roomId", roomId).put("message", "a box")));
      assertEquals(429, overHttp.statusCode(), "one allowance for /api and /mcp");
    } finally {
      Await.result(limited.stop());
      Await.result(own.close());
    }
  }

  @Test
  void theSdkClientGetsProgressBeforeTheResult() {
    if (sdk == null) {
      sdk = McpClients.start();
    }
    McpClients.Client client =
        sdk.http(
            "sdk-" + roomId,
            "http://127.0.0.1:" + server.port() + "/mcp?room=" + roomId,
            tokens.editor(roomId));
    ToolRun run =
        client.callToolWithProgress(
            "canvas_agent_run",
            new JsonObject().put("message", "draw a blue rectangle labeled A"),
            30_000);
    JsonObject answer = run.result().getJsonObject("structuredContent");
    assertEquals("done", answer.getString("state"), run.result().encode());
    assertTrue(answer.getInteger("applied") > 0, answer.encode());
    assertFalse(run.progress().isEmpty(), "progress while it ran");
    double last = 0;
    for (JsonObject progress : run.progress()) {
      assertTrue(progress.getDouble("progress") > last, "progress only grows: " + run.progress());
      last = progress.getDouble("progress");
    }
    assertTrue(
        run.progress().stream().anyMatch(p -> p.getString("message", "").startsWith("applied ")),
        "an applied envelope reported: " + run.progress());
    assertTrue(
        run.progress().stream().anyMatch(p -> p.getString("message", "").startsWith("done")),
        "the final status reported: " + run.progress());
    client.close();
  }

  @Test
  void badRunInputIsRefusedNamingTheProblemAndQueuesNothing() {
    refusedWith(mcp.tool("canvas_agent_run", new JsonObject()), "INVALID_REQUEST", "message");
    refusedWith(
        mcp.tool("canvas_agent_run", new JsonObject().put("message", "   ")),
        "INVALID_REQUEST",
        "message");
    refusedWith(
        mcp.tool(
            "canvas_agent_run",
            new JsonObject().put("message", "a box").put("model", "nowhere/nothing")),
        "UNKNOWN_MODEL",
        "nowhere/nothing");
    refusedWith(
        mcp.tool(
            "canvas_agent_run",
            new JsonObject().put("message", "a box").put("roomId", "someone-elses-room")),
        "FORBIDDEN",
        "someone-elses-room");
    refusedWith(
        mcp.tool(
            "canvas_agent_run",
            new JsonObject().put("message", "a box").put("selection", "not a list")),
        "INVALID_REQUEST",
        "selection");

    String elsewhere = "mcp-other-" + UUID.randomUUID().toString().substring(0, 8);
    String otherSession =
        api(
                "POST",
                "/api/canvas-agent/run",
                new JsonObject().put("roomId", elsewhere).put("message", "a box"))
            .getString("sessionId");
    refusedWith(
        mcp.tool(
            "canvas_agent_run",
            new JsonObject().put("message", "a box").put("sessionId", otherSession)),
        "SESSION_NOT_FOUND",
        otherSession);

    assertTrue(sessions().isEmpty(), "nothing queued: " + sessions().encode());
    assertTrue(shapes().isEmpty(), "the board is as it was");
  }

  @Test
  void cancellingTheCallCancelsTheRun() {
    SseClient sse = events();
    JsonObject call =
        mcp.request(
            "tools/call",
            new JsonObject()
                .put("name", "canvas_agent_run")
                .put("arguments", new JsonObject().put("message", "/two-passes")));
    Future<HttpResponse<Buffer>> streaming =
        mcp.post("/mcp", mcp.headers(), Buffer.buffer(call.encode()));
    Await.result(sse.awaitEvent(event -> event.event().equals("agent:action")));

    HttpResponse<Buffer> noted =
        Await.result(
            mcp.post(
                "/mcp",
                mcp.headers(),
                Buffer.buffer(
                    new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("method", "notifications/cancelled")
                        .put(
                            "params",
                            new JsonObject()
                                .put("requestId", call.getValue("id"))
                                .put("reason", "the user moved on"))
                        .encode())));
    assertEquals(202, noted.statusCode(), noted.bodyAsString());

    HttpResponse<Buffer> response = Await.result(streaming, 60);
    List<JsonObject> messages = McpHttp.events(response.bodyAsString());
    JsonObject result = messages.get(messages.size() - 1).getJsonObject("result");
    refusedWith(result, "CANCELED", "");
    JsonObject answer = structured(result);
    assertEquals("canceled", answer.getString("state"), answer.encode());

    String sessionId = answer.getString("sessionId");
    List<SseEvent> seen = Await.result(sse.awaitEvent(finalStatusOf(sessionId)));
    assertEquals("canceled", seen.get(seen.size() - 1).data().getString("state"));
    JsonArray left = sessions();
    assertEquals(1, left.size(), left.encode());
    Await.result(sse.close());
  }

  @Test
  void anEditRequestOnADocumentAnswersTheChange() {
    String docId =
        api("POST", "/api/docs", new JsonObject().put("content", TEXT).put("roomId", roomId))
            .getString("id");
    JsonObject result =
        mcp.tool(
            "canvas_agent_edit_request",
            new JsonObject()
                .put("canvas_session_id", docId)
                .put("instruction", "/doc-fix foo => bar")
                .put("model", "debug/fake")
                .put("context", "the primary agent was asked to rename foo"));
    assertFalse(result.getBoolean("isError"), result.encode());
    JsonObject summary = structured(result);
    assertEquals(docId, summary.getString("canvas_session_id"));
    assertTrue(summary.getBoolean("changed"), summary.encode());
    assertTrue(
        summary.getString("diff").contains("-foo line\n+bar line\n"), summary.getString("diff"));
    assertEquals(
        TEXT.replace("foo", "bar"), api("GET", "/api/docs/" + docId, null).getString("content"));
  }

  @Test
  void badEditRequestsAreRefusedAndChangeNothing() {
    String docId =
        api("POST", "/api/docs", new JsonObject().put("content", TEXT).put("roomId", roomId))
            .getString("id");
    String elsewhere =
        api("POST", "/api/docs", new JsonObject().put("content", TEXT)).getString("id");
    refusedWith(
        mcp.tool(
            "canvas_agent_edit_request",
            new JsonObject().put("canvas_session_id", docId).put("instruction", "  ")),
        "INVALID_REQUEST",
        "instruction");
    refusedWith(
        mcp.tool(
            "canvas_agent_edit_request", new JsonObject().put("instruction", "/doc-fix a => b")),
        "INVALID_REQUEST",
        "canvas_session_id");
    refusedWith(
        mcp.tool(
            "canvas_agent_edit_request",
            new JsonObject()
                .put("canvas_session_id", elsewhere)
                .put("instruction", "/doc-fix foo => bar")
                .put("model", "debug/fake")),
        "NOT_FOUND",
        elsewhere);
    assertEquals(TEXT, api("GET", "/api/docs/" + docId, null).getString("content"));
    assertEquals(TEXT, api("GET", "/api/docs/" + elsewhere, null).getString("content"));
  }

  @Test
  void bothToolsAreListedWithTheirRequestSchemas() {
    JsonObject listed = mcp.call("tools/list", new JsonObject()).getJsonObject("result");
    Map<String, JsonObject> tools = new HashMap<>();
    listed.getJsonArray("tools").stream()
        .map(JsonObject.class::cast)
        .forEach(tool -> tools.put(tool.getString("name"), tool));
    JsonObject run = tools.get("canvas_agent_run").getJsonObject("inputSchema");
    assertEquals(new JsonArray().add("message"), run.getJsonArray("required"));
    assertTrue(run.getJsonObject("properties").containsKey("sessionId"));
    JsonObject edit = tools.get("canvas_agent_edit_request").getJsonObject("inputSchema");
    assertEquals(
        new JsonArray().add("canvas_session_id").add("instruction"), edit.getJsonArray("required"));
  }
}
