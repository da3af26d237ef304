package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpHttp;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Boards and documents as MCP resources over {@code /mcp} with a bare HTTP client, auth on: reads,
 * templates and the list, subscriptions told on the session's GET stream of a person's change, a
 * run's envelopes and a document's new revisions, unsubscribing, rooms and documents out of the
 * token's reach (resource not found, nothing subscribed), and the prompts with their refusals.
 */
@ExtendWith(VertxExtension.class)
class McpResourcesTest {
  static final String UPDATED = "notifications/resources/updated";

  Vertx vertx;
  TestServer server;
  TestTokens tokens;
  String room;
  String otherRoom;
  McpHttp mcp;
  String token;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
    room = "res-" + UUID.randomUUID().toString().substring(0, 8);
    otherRoom = room + "-other";
    token = tokens.viewer(room);
    mcp = new McpHttp(server.http(), server.port(), token);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  static String board(String roomId) {
    return "canvas://rooms/" + roomId + "/board";
  }

  /** A person's change to {@code roomId}'s board: one geo shape put at {@code baseRevision}. */
  long personChange(String roomId, long baseRevision, String shapeId) {
    HttpResponse<Buffer> changed =
        Await.result(
            server
                .http()
                .post(server.port(), "127.0.0.1", "/api/rooms/" + roomId + "/changes")
                .putHeader("authorization", "Bearer " + tokens.editor(roomId))
                .sendJsonObject(
                    new JsonObject()
                        .put("baseRevision", baseRevision)
                        .put(
                            "put",
                            new JsonArray()
                                .add(TestShapes.geo(shapeId, 100 * baseRevision, 0, 80, 40)))));
    assertEquals(200, changed.statusCode(), changed.bodyAsString());
    return changed.bodyAsJsonObject().getLong("revision");
  }

  JsonObject createDocument(String roomId, String content) {
    HttpResponse<Buffer> created =
        Await.result(
            server
                .http()
                .post(server.port(), "127.0.0.1", "/api/docs")
                .putHeader("authorization", "Bearer " + tokens.editor(roomId))
                .sendJsonObject(new JsonObject().put("roomId", roomId).put("content", content)));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    return created.bodyAsJsonObject();
  }

  String personEdit(String roomId, String docId, String baseRevision, String content) {
    HttpResponse<Buffer> edited =
        Await.result(
            server
                .http()
                .put(server.port(), "127.0.0.1", "/api/docs/" + docId)
                .putHeader("authorization", "Bearer " + tokens.editor(roomId))
                .sendJsonObject(
                    new JsonObject().put("content", content).put("baseRevisionId", baseRevision)));
    assertEquals(200, edited.statusCode(), edited.bodyAsString());
    return edited.bodyAsJsonObject().getString("revisionId");
  }

  /** The session's GET stream of notifications. */
  SseClient notifications() {
    return Await.result(
        SseClient.connect(
            vertx,
            server.port(),
            "/mcp",
            Map.of(
                "authorization",
                "Bearer " + token,
                "Mcp-Session-Id",
                mcp.session(),
                "MCP-Protocol-Version",
                "2025-11-25")));
  }

  /** The room's own event stream, as a browser watches it. */
  SseClient roomEvents() {
    return Await.result(
        SseClient.connect(
            vertx,
            server.port(),
            "/api/rooms/" + room + "/events",
            Map.of("authorization", "Bearer " + tokens.viewer(room))));
  }

  static Predicate<SseEvent> updated(String uri) {
    return event ->
        UPDATED.equals(event.data().getString("method"))
            && uri.equals(event.data().getJsonObject("params").getString("uri"));
  }

  static long count(SseClient stream, String uri) {
    return stream.received().stream().filter(updated(uri)).count();
  }

  JsonObject result(String method, JsonObject params) {
    JsonObject answer = mcp.call(method, params);
    assertFalse(answer.containsKey("error"), method + ": " + answer.encode());
    return answer.getJsonObject("result");
  }

  int errorCode(String method, JsonObject params) {
    JsonObject answer = mcp.call(method, params);
    assertTrue(answer.containsKey("error"), method + " should be refused: " + answer.encode());
    return answer.getJsonObject("error").getInteger("code");
  }

  static JsonObject uri(String uri) {
    return new JsonObject().put("uri", uri);
  }

  @Test
  void aBoardReadsAsItsRecordsAtItsRevisionAfterAPersonsChange() {
    mcp.initialize("");
    long revision = personChange(room, 0, "person");
    JsonArray contents = result("resources/read", uri(board(room))).getJsonArray("contents");
    assertEquals(1, contents.size());
    JsonObject content = contents.getJsonObject(0);
    assertEquals(board(room), content.getString("uri"));
    assertEquals("application/json", content.getString("mimeType"));
    JsonObject read = new JsonObject(content.getString("text"));
    assertEquals(room, read.getString("roomId"));
    assertEquals(revision, read.getLong("revision"));
    assertTrue(
        read.getJsonArray("records").stream()
            .map(JsonObject.class::cast)
            .anyMatch(record -> "shape:person".equals(record.getString("id"))),
        read.encode());
  }

  @Test
  void theBoundRoomIsListedAndBothTemplatesAreOffered() {
    mcp.initialize("?room=" + room);
    List<String> listed =
        result("resources/list", new JsonObject()).getJsonArray("resources").stream()
            .map(JsonObject.class::cast)
            .map(resource -> resource.getString("uri"))
            .toList();
    assertTrue(listed.contains(board(room)), listed.toString());
    assertTrue(listed.contains("canvas://catalog"), listed.toString());
    List<String> templates =
        result("resources/templates/list", new JsonObject())
            .getJsonArray("resourceTemplates")
            .stream()
            .map(JsonObject.class::cast)
            .map(template -> template.getString("uriTemplate"))
            .toList();
    assertEquals(List.of("canvas://rooms/{roomId}/board", "canvas://docs/{docId}"), templates);
  }

  @Test
  void aSubscribedBoardIsToldOfAPersonsChangeUntilUnsubscribed() {
    mcp.initialize("");
    SseClient stream = notifications();
    result("resources/subscribe", uri(board(room)));
    personChange(room, 0, "one");
    Await.result(stream.awaitEvent(updated(board(room))));

    result("resources/unsubscribe", uri(board(room)));
    // Then a change nobody listens to, and one to a document the session does listen to: once the
    // document's notification is in, the board's change (made before it) would have been too.
    long before = count(stream, board(room));
    personChange(room, 1, "two");
    JsonObject document = createDocument(room, "# Notes\n");
    String docUri = "canvas://docs/" + document.getString("id");
    result("resources/subscribe", uri(docUri));
    personEdit(
        room, document.getString("id"), document.getString("revisionId"), "# Notes\n\nmore\n");
    Await.result(stream.awaitEvent(updated(docUri)));
    assertEquals(before, count(stream, board(room)), "no notification after unsubscribe");
  }

  @Test
  void aRunsEnvelopesNotifyTheBoardsSubscribersCoalesced() {
    mcp.initialize("");
    SseClient stream = notifications();
    result("resources/subscribe", uri(board(room)));
    SseClient roomEvents = roomEvents();
    HttpResponse<Buffer> run =
        Await.result(
            server
                .http()
                .post(server.port(), "127.0.0.1", "/api/canvas-agent/run")
                .putHeader("authorization", "Bearer " + tokens.editor(room))
                .sendJsonObject(
                    new JsonObject()
                        .put("roomId", room)
                        .put(
                            "message",
                            "draw a blue rectangle labeled A and a red ellipse labeled B")));
    assertEquals(202, run.statusCode(), run.bodyAsString());
    Await.result(stream.awaitEvent(updated(board(room))));
    List<SseEvent> events =
        Await.result(
            roomEvents.awaitEvent(
                event ->
                    "agent:status".equals(event.event())
                        && "done".equals(event.data().getString("state"))));
    long revisions =
        events.stream()
            .filter(event -> "agent:action".equals(event.event()))
            .filter(event -> event.data().containsKey("rev"))
            .count();
    assertTrue(revisions >= 1, "the run made revisions");
    assertTrue(
        count(stream, board(room)) <= revisions,
        "never more notifications than revisions: " + count(stream, board(room)));
    JsonObject read =
        new JsonObject(
            result("resources/read", uri(board(room)))
                .getJsonArray("contents")
                .getJsonObject(0)
                .getString("text"));
    long last =
        events.stream()
            .filter(event -> "agent:action".equals(event.event()))
            .filter(event -> event.data().containsKey("rev"))
            .mapToLong(event -> event.data().getLong("rev"))
            .max()
            .orElseThrow();
    assertEquals(last, read.getLong("revision"));
  }

  @Test
  void aDocumentReadsAsMarkdownAndItsRevisionAndIsToldOfEachNewRevision() {
    mcp.initialize("");
    JsonObject document = createDocument(room, "# Plan\n\n- one\n");
    String docId = document.getString("id");
    String docUri = "canvas://docs/" + docId;
    JsonArray contents = result("resources/read", uri(docUri)).getJsonArray("contents");
    assertEquals(2, contents.size());
    assertEquals("text/markdown", contents.getJsonObject(0).getString("mimeType"));
    assertEquals("# Plan\n\n- one\n", contents.getJsonObject(0).getString("text"));
    assertEquals("application/json", contents.getJsonObject(1).getString("mimeType"));
    JsonObject about = new JsonObject(contents.getJsonObject(1).getString("text"));
    assertEquals(docId, about.getString("docId"));
    assertEquals(document.getString("revisionId"), about.getString("revision"));
    assertFalse(about.getJsonObject("lease").getBoolean("held"));

    SseClient stream = notifications();
    SseClient roomEvents = roomEvents();
    result("resources/subscribe", uri(docUri));
    String revision =
        personEdit(room, docId, document.getString("revisionId"), "# Plan\n\n- two\n");
    Await.result(stream.awaitEvent(updated(docUri)));
    // Browsers hear the same revision on the room's doc:revision topic: never the text.
    JsonObject told =
        Await.result(roomEvents.awaitEvent(event -> "doc:revision".equals(event.event()))).stream()
            .filter(event -> "doc:revision".equals(event.event()))
            .findFirst()
            .orElseThrow()
            .data();
    assertEquals(docId, told.getString("docId"));
    assertEquals(revision, told.getString("revision"));
    assertFalse(told.containsKey("content"));
    JsonObject reread =
        new JsonObject(
            result("resources/read", uri(docUri))
                .getJsonArray("contents")
                .getJsonObject(1)
                .getString("text"));
    assertEquals(revision, reread.getString("revision"));
  }

  @Test
  void aDocumentToolsWriteNotifiesToo() {
    token = tokens.editor(room);
    mcp = new McpHttp(server.http(), server.port(), token);
    mcp.initialize("");
    JsonObject document = createDocument(room, "# Log\n");
    String docId = document.getString("id");
    String docUri = "canvas://docs/" + docId;
    SseClient stream = notifications();
    result("resources/subscribe", uri(docUri));
    JsonObject lease =
        mcp.tool("canvas_check_out", new JsonObject().put("docId", docId))
            .getJsonObject("structuredContent");
    JsonObject wrote =
        mcp.tool(
            "canvas_insert_lines",
            new JsonObject()
                .put("docId", docId)
                .put("lease_id", lease.getString("lease_id"))
                .put("insert_after_line", 1)
                .put("content", "written by a tool"));
    assertFalse(wrote.getBoolean("isError", false), wrote.encode());
    Await.result(stream.awaitEvent(updated(docUri)));
  }

  @Test
  void roomsAndDocumentsOutOfReachAreNotFoundAndNothingIsSubscribed() {
    mcp.initialize("");
    SseClient stream = notifications();
    assertEquals(
        JsonRpcError.RESOURCE_NOT_FOUND, errorCode("resources/read", uri(board(otherRoom))));
    assertEquals(
        JsonRpcError.RESOURCE_NOT_FOUND, errorCode("resources/subscribe", uri(board(otherRoom))));
    JsonObject elsewhere = createDocument(otherRoom, "# Secret\n");
    String hidden = "canvas://docs/" + elsewhere.getString("id");
    assertEquals(JsonRpcError.RESOURCE_NOT_FOUND, errorCode("resources/read", uri(hidden)));
    assertEquals(JsonRpcError.RESOURCE_NOT_FOUND, errorCode("resources/subscribe", uri(hidden)));
    assertEquals(
        JsonRpcError.RESOURCE_NOT_FOUND,
        errorCode("resources/read", uri("canvas://docs/doc-none")));
    assertEquals(
        JsonRpcError.RESOURCE_NOT_FOUND,
        errorCode("resources/read", uri("canvas://rooms/not.a.room/board")));
    assertEquals(
        JsonRpcError.RESOURCE_NOT_FOUND,
        errorCode("resources/subscribe", uri("canvas://docs/a/b")));

    // The refused subscriptions hear nothing: changes there, then one where the session listens.
    result("resources/subscribe", uri(board(room)));
    personChange(otherRoom, 0, "elsewhere");
    personEdit(otherRoom, elsewhere.getString("id"), elsewhere.getString("revisionId"), "# Two\n");
    personChange(room, 0, "here");
    Await.result(stream.awaitEvent(updated(board(room))));
    assertEquals(0, count(stream, board(otherRoom)));
    assertEquals(0, count(stream, hidden));
  }

  @Test
  void aSessionHoldsABoundedNumberOfSubscriptions() {
    token = tokens.admin();
    mcp = new McpHttp(server.http(), server.port(), token);
    mcp.initialize("");
    for (int i = 0; i < ResourceSubscriptions.MAX_PER_SESSION; i++) {
      result("resources/subscribe", uri(board(room + "-" + i)));
    }
    result("resources/subscribe", uri(board(room + "-0")));
    JsonObject refused = mcp.call("resources/subscribe", uri(board(room)));
    assertEquals(JsonRpcError.INVALID_PARAMS, refused.getJsonObject("error").getInteger("code"));
    assertTrue(
        refused.getJsonObject("error").getString("message").contains("INVALID_REQUEST"),
        refused.encode());
    // The refusal subscribed nothing: a change there is not told, one to a subscribed board after
    // it is.
    SseClient stream = notifications();
    personChange(room, 0, "refused");
    personChange(room + "-0", 0, "held");
    Await.result(stream.awaitEvent(updated(board(room + "-0"))));
    assertEquals(0, count(stream, board(room)));
    // Freeing one makes room again.
    result("resources/unsubscribe", uri(board(room + "-1")));
    result("resources/subscribe", uri(board(room)));
    personChange(room, 1, "after");
    Await.result(stream.awaitEvent(updated(board(room))));
  }

  @Test
  void thePromptsAreListedAndGivenAndBadArgumentsAreRefused() {
    mcp.initialize("");
    List<String> names =
        result("prompts/list", new JsonObject()).getJsonArray("prompts").stream()
            .map(JsonObject.class::cast)
            .map(prompt -> prompt.getString("name"))
            .toList();
    assertEquals(List.of("draw_diagram", "edit_document"), names);

    JsonObject drawn =
        result(
            "prompts/get",
            new JsonObject()
                .put("name", "draw_diagram")
                .put(
                    "arguments",
                    new JsonObject().put("subject", "the water cycle").put("roomId", room)));
    JsonObject message = drawn.getJsonArray("messages").getJsonObject(0);
    assertEquals("user", message.getString("role"));
    String text = message.getJsonObject("content").getString("text");
    assertTrue(text.contains("the water cycle") && text.contains(room), text);
    assertTrue(text.contains("canvas_view"), text);

    JsonObject edit =
        result(
            "prompts/get",
            new JsonObject()
                .put("name", "edit_document")
                .put(
                    "arguments",
                    new JsonObject().put("docId", "doc-1").put("instruction", "fix the typos")));
    String steps =
        edit.getJsonArray("messages").getJsonObject(0).getJsonObject("content").getString("text");
    for (String tool :
        List.of("canvas_check_out", "canvas_read_all", "canvas_apply_patch", "canvas_check_in")) {
      assertTrue(steps.contains(tool), tool + " in " + steps);
    }

    for (JsonObject bad :
        List.of(
            new JsonObject().put("name", "draw_diagram"),
            new JsonObject().put("name", "draw_diagram").put("arguments", new JsonObject()),
            new JsonObject()
                .put("name", "draw_diagram")
                .put("arguments", new JsonObject().put("subject", " ")),
            new JsonObject()
                .put("name", "draw_diagram")
                .put("arguments", new JsonObject().put("subject", "x").put("roomId", "a.b")),
            new JsonObject()
                .put("name", "draw_diagram")
                .put("arguments", new JsonObject().put("subject", "x".repeat(2_001))),
            new JsonObject()
                .put("name", "edit_document")
                .put("arguments", new JsonObject().put("docId", "doc-1")),
            new JsonObject()
                .put("name", "edit_document")
                .put(
                    "arguments", new JsonObject().put("docId", "../doc").put("instruction", "fix")),
            new JsonObject()
                .put("name", "edit_document")
                .put("arguments", new JsonObject().put("docId", 7).put("instruction", "fix")),
            new JsonObject().put("name", "no_such_prompt"))) {
      assertEquals(JsonRpcError.INVALID_PARAMS, errorCode("prompts/get", bad), bad.encode());
    }
  }
}
