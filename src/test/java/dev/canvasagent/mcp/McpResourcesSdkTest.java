package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.McpClients;
import dev.canvasagent.support.McpClients.Client;
import dev.canvasagent.support.McpClients.McpFailure;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The official MCP TypeScript SDK's client reads a board, subscribes to it and is told of a person's
 * change on its own notification stream, and gets the prompts; a room its token cannot reach is the
 * protocol's resource-not-found. One Node process and one server for the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpResourcesSdkTest {
  Vertx vertx;
  TestServer server;
  McpClients mcp;
  TestTokens tokens;
  Client client;
  String room;

  @BeforeAll
  void start() {
    mcp = McpClients.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
    room = "sdk-" + UUID.randomUUID().toString().substring(0, 8);
    client =
        mcp.http(
            "resources",
            "http://127.0.0.1:" + server.port() + "/mcp?room=" + room,
            tokens.viewer(room));
  }

  @AfterAll
  void stop() {
    if (mcp != null) {
      mcp.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  String board() {
    return "canvas://rooms/" + room + "/board";
  }

  long personChange(long baseRevision, String shapeId) {
    HttpResponse<Buffer> changed =
        Await.result(
            server
                .http()
                .post(server.port(), "127.0.0.1", "/api/rooms/" + room + "/changes")
                .putHeader("authorization", "Bearer " + tokens.editor(room))
                .sendJsonObject(
                    new JsonObject()
                        .put("baseRevision", baseRevision)
                        .put(
                            "put",
                            new JsonArray()
                                .add(TestShapes.geo(shapeId, 0, 120 * baseRevision, 60, 60)))));
    assertEquals(200, changed.statusCode(), changed.bodyAsString());
    return changed.bodyAsJsonObject().getLong("revision");
  }

  @Test
  void aSubscribedBoardIsToldOfAPersonsChangeAndReadsAtItsNewRevision() {
    assertTrue(client.listResources().encode().contains(board()), "the session's room is listed");
    int since = client.notifications(0).size();
    client.subscribe(board());
    long revision = personChange(0, "sdk-one");
    JsonObject told =
        client.waitNotification(
            "notifications/resources/updated", board(), since, McpClients.WAIT_MS);
    assertEquals(board(), told.getJsonObject("params").getString("uri"));
    JsonObject read =
        new JsonObject(
            client
                .readResource(board())
                .getJsonArray("contents")
                .getJsonObject(0)
                .getString("text"));
    assertEquals(revision, read.getLong("revision"));
    client.unsubscribe(board());
  }

  @Test
  void aRoomOutOfReachIsResourceNotFound() {
    String elsewhere = "canvas://rooms/" + room + "-other/board";
    McpFailure read = assertThrows(McpFailure.class, () -> client.readResource(elsewhere));
    assertEquals(JsonRpcError.RESOURCE_NOT_FOUND, read.code(), read.getMessage());
    McpFailure subscribed = assertThrows(McpFailure.class, () -> client.subscribe(elsewhere));
    assertEquals(JsonRpcError.RESOURCE_NOT_FOUND, subscribed.code(), subscribed.getMessage());
  }

  @Test
  void thePromptsAreListedAndGiven() {
    assertTrue(client.listPrompts().encode().contains("draw_diagram"));
    JsonObject prompt =
        client.getPrompt("draw_diagram", new JsonObject().put("subject", "a release pipeline"));
    assertTrue(prompt.encode().contains("a release pipeline"), prompt.encode());
    McpFailure refused =
        assertThrows(McpFailure.class, () -> client.getPrompt("edit_document", new JsonObject()));
    assertEquals(JsonRpcError.INVALID_PARAMS, refused.code(), refused.getMessage());
  }
}
