package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A person's edits: a record diff against a base revision, applied whole or not at all. */
@ExtendWith(VertxExtension.class)
class BoardChangesTest {
  TestServer server;
  String roomId;

  @BeforeEach
  void start(Vertx vertx) {
    server = TestServer.start(vertx, Optional.empty());
    roomId = "changes-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  HttpResponse<Buffer> change(JsonObject body) {
    return Await.result(
        server.http().post("/api/rooms/" + roomId + "/changes").sendJsonObject(body));
  }

  static JsonObject box(String id, String index) {
    return ShapeRecords.shape(
        id, "geo", 10, 20, index, ShapeRecords.geoProps("rectangle", 100, 50, "hi"));
  }

  static JsonObject frame(String id) {
    return ShapeRecords.shape(id, "frame", 0, 0, "a5", ShapeRecords.frameProps(400, 300, "Frame"));
  }

  JsonObject put(long base, JsonObject... records) {
    return new JsonObject().put("baseRevision", base).put("put", new JsonArray(List.of(records)));
  }

  @Test
  void aValidChangeIsCommittedAndBroadcast() {
    SseClient sse = server.events(roomId);
    HttpResponse<Buffer> response = change(put(0, box("shape:p1", "a1")));
    assertEquals(200, response.statusCode(), response.bodyAsString());
    assertEquals(1, response.bodyAsJsonObject().getLong("revision"));
    JsonObject board = server.board(roomId);
    assertEquals(1, board.getLong("revision"));
    assertEquals(box("shape:p1", "a1"), board.getJsonArray("records").getJsonObject(0));

    List<SseEvent> events =
        Await.result(sse.awaitEvent(event -> event.event().equals("canvas:change")));
    JsonObject changed = events.get(events.size() - 1).data();
    assertEquals(1, changed.getLong("revision"));
    assertEquals("person", changed.getString("author"));
    assertEquals(
        box("shape:p1", "a1"), changed.getJsonObject("diff").getJsonArray("put").getJsonObject(0));
    Await.result(sse.close());
  }

  @Test
  void aStaleBaseIs409WithTheCurrentRevisionAndChangesNothing() {
    assertEquals(200, change(put(0, box("shape:p1", "a1"))).statusCode());
    HttpResponse<Buffer> stale = change(put(0, box("shape:p2", "a2")));
    assertEquals(409, stale.statusCode(), stale.bodyAsString());
    assertEquals(
        "REVISION_CONFLICT", stale.bodyAsJsonObject().getJsonObject("error").getString("code"));
    assertEquals(1, stale.bodyAsJsonObject().getLong("revision"));
    assertEquals(1, server.board(roomId).getJsonArray("records").size());
  }

  @Test
  void changesThatWouldBreakTheBoardAre422NamingTheRecord() {
    assertEquals(200, change(put(0, frame("shape:f1"))).statusCode());
    JsonObject child = box("shape:c1", "a1").put("parentId", "shape:f1");
    assertEquals(200, change(put(1, child)).statusCode());
    JsonObject before = server.board(roomId);

    assertUnprocessable(
        change(
            new JsonObject()
                .put("baseRevision", 2)
                .put("remove", new JsonArray().add("shape:nope"))),
        "shape:nope");
    assertUnprocessable(
        change(
            new JsonObject().put("baseRevision", 2).put("remove", new JsonArray().add("shape:f1"))),
        "shape:c1");
    assertUnprocessable(
        change(put(2, box("shape:orphan", "a2").put("parentId", "shape:missing"))), "shape:orphan");
    assertUnprocessable(
        change(put(2, box("shape:inbox", "a2").put("parentId", "shape:c1"))), "shape:inbox");
    assertUnprocessable(change(put(2, frame("shape:f1").put("parentId", "shape:f1"))), "shape:f1");
    assertUnprocessable(
        change(
            put(
                2,
                new JsonObject()
                    .put("id", "document:document")
                    .put("typeName", "document")
                    .put("gridSize", 10)
                    .put("name", "")
                    .put("meta", new JsonObject()))),
        "document:document");
    JsonObject binding =
        new JsonObject()
            .put("id", "binding:b1")
            .put("typeName", "binding")
            .put("type", "arrow")
            .put("fromId", "shape:c1")
            .put("toId", "shape:f1")
            .put("meta", new JsonObject())
            .put(
                "props",
                new JsonObject()
                    .put("terminal", "start")
                    .put("normalizedAnchor", new JsonObject().put("x", 0.5).put("y", 0.5))
                    .put("isExact", false)
                    .put("isPrecise", false)
                    .put("snap", "none"));
    assertUnprocessable(change(put(2, binding)), "binding:b1");
    assertEquals(before, server.board(roomId), "nothing was applied");
  }

  @Test
  void aRecordTldrawWouldRefuseIs422NamingTheRecordAndField() {
    JsonObject purple = box("shape:p1", "a1");
    purple.getJsonObject("props").put("color", "purple");
    assertUnprocessable(change(put(0, purple)), "shape:p1 props.color");
    JsonObject withText = box("shape:p2", "a1");
    withText.getJsonObject("props").put("text", "old style");
    assertUnprocessable(change(put(0, withText)), "shape:p2 props.text");
    assertUnprocessable(change(put(0, box("shape:p3", "a10"))), "shape:p3 index");
    JsonObject flat = box("shape:p4", "a1");
    flat.getJsonObject("props").put("w", 0);
    assertUnprocessable(change(put(0, flat)), "shape:p4 props.w");
    // One bad record refuses the whole change: the good one beside it is not applied either.
    assertUnprocessable(change(put(0, box("shape:good", "a1"), purple)), "shape:p1");
    assertEquals(0, server.board(roomId).getLong("revision"));
    assertEquals(0, server.board(roomId).getJsonArray("records").size());
  }

  @Test
  void malformedChangesAre400() {
    BadInputTest.assertError(
        change(new JsonObject().put("put", new JsonArray())),
        400,
        "INVALID_REQUEST",
        "baseRevision");
    BadInputTest.assertError(
        change(new JsonObject().put("baseRevision", -1).put("put", new JsonArray())),
        400,
        "INVALID_REQUEST",
        "baseRevision");
    BadInputTest.assertError(
        change(new JsonObject().put("baseRevision", 0)), 400, "INVALID_REQUEST", "");
    BadInputTest.assertError(
        change(new JsonObject().put("baseRevision", 0).put("put", "all")),
        400,
        "INVALID_REQUEST",
        "put");
    JsonArray many = new JsonArray();
    for (int i = 0; i < 1001; i++) {
      many.add(box("shape:m" + i, "a1"));
    }
    BadInputTest.assertError(
        change(new JsonObject().put("baseRevision", 0).put("put", many)),
        400,
        "INVALID_REQUEST",
        "put");
    assertEquals(0, server.board(roomId).getLong("revision"));
  }

  static void assertUnprocessable(HttpResponse<Buffer> response, String names) {
    BadInputTest.assertError(response, 422, "INVALID_RECORD", names);
    assertTrue(
        response.bodyAsJsonObject().getJsonObject("error").getString("message").length() < 400);
  }
}
