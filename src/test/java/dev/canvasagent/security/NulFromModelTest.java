package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A model that writes a NUL (U+0000) — in a thought, a label, a todo, its prose, a document edit and
 * its reason — has it stripped on the way to PostgreSQL, which cannot store it: the run ends {@code
 * done} with everything stored, rather than {@code error} with {@code STORE_UNAVAILABLE}.
 */
@ExtendWith(VertxExtension.class)
class NulFromModelTest {
  static final String NUL = "\u0000";
  static final List<String> FINAL = List.of("done", "scheduled", "error", "canceled");

  DatabaseConfig database;
  TestServer server;

  @BeforeEach
  void start(Vertx vertx) {
    database = TestDatabase.freshSchema();
    server =
        TestServer.start(
            vertx,
            TestServer.config(Map.of()).withDatabase(Optional.of(database)),
            List.of(new NulWritingModel(vertx)));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
    TestDatabase.drop(database);
  }

  @Test
  void aRunWhoseModelWritesANulEndsDoneWithTheNulStripped() {
    String room = "nul-model";
    SseClient sse = server.events(room);
    HttpResponse<Buffer> started =
        server.postRun(
            new JsonObject()
                .put("roomId", room)
                .put("message", "draw the roadmap")
                .put("model", NulWritingModel.MODEL));
    assertEquals(202, started.statusCode(), started.bodyAsString());
    String sessionId = started.bodyAsJsonObject().getString("sessionId");

    List<SseClient.SseEvent> events =
        Await.result(
            sse.awaitEvent(
                event ->
                    "agent:status".equals(event.event())
                        && FINAL.contains(String.valueOf(event.data().getString("state")))));

    JsonObject last = events.get(events.size() - 1).data();
    assertEquals("done", last.getString("state"), last.encode());
    JsonObject board = server.board(room);
    assertEquals(1, board.getJsonArray("records").size(), board.encode());
    assertTrue(board.encode().contains("Roadmap"), board.encode());
    JsonObject resumed = server.get("/api/sessions/" + sessionId).bodyAsJsonObject();
    List<String> chat =
        resumed.getJsonArray("chat").stream()
            .map(line -> ((JsonObject) line).getString("text"))
            .toList();
    assertTrue(chat.contains("Looking first."), chat.toString());
    assertTrue(chat.contains("Done."), chat.toString());
    assertEquals(
        "Legend",
        resumed.getJsonArray("todos").getJsonObject(0).getString("text"),
        resumed.encode());
    assertEquals(
        "done", resumed.getJsonArray("runs").getJsonObject(0).getString("state"), resumed.encode());
    assertFalse(resumed.encode().contains("\\u0000"), resumed.encode());
    Await.result(sse.close());
  }

  @Test
  void aDocumentEditWhoseModelWritesANulIsStoredWithTheNulStripped() {
    String room = "nul-doc";
    HttpResponse<Buffer> created =
        Await.result(
            server
                .http()
                .post("/api/docs")
                .sendJsonObject(new JsonObject().put("roomId", room).put("content", "# Plan\n")));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String docId = created.bodyAsJsonObject().getString("id");
    SseClient sse = server.events(room);
    HttpResponse<Buffer> started =
        Await.result(
            server
                .http()
                .post("/api/docs/" + docId + "/agent")
                .sendJsonObject(
                    new JsonObject()
                        .put("instruction", "tidy the plan")
                        .put("model", NulWritingModel.MODEL)));
    assertEquals(202, started.statusCode(), started.bodyAsString());
    String runId = started.bodyAsJsonObject().getString("runId");

    List<SseClient.SseEvent> events =
        Await.result(
            sse.awaitEvent(
                event ->
                    "agent:status".equals(event.event())
                        && FINAL.contains(String.valueOf(event.data().getString("state")))
                        && runId.equals(
                            event
                                .data()
                                .getJsonObject("detail", new JsonObject())
                                .getString("runId"))));

    JsonObject last = events.get(events.size() - 1).data();
    assertEquals("done", last.getString("state"), last.encode());
    assertEquals(1, last.getJsonObject("detail").getInteger("toolCalls"), last.encode());
    assertEquals(0, last.getJsonObject("detail").getInteger("failedToolCalls"), last.encode());
    assertEquals(
        "# Plan v2\n", server.get("/api/docs/" + docId).bodyAsJsonObject().getString("content"));
    JsonObject history = server.get("/api/docs/" + docId + "/revisions").bodyAsJsonObject();
    assertEquals(
        "tidy",
        history.getJsonArray("diffs").getJsonObject(0).getString("reason"),
        history.encode());
    Await.result(sse.close());
  }

  /**
   * {@code test/nul}: on the board, a thought, a shape, a todo and prose, each with a NUL; on a
   * document (its tools offered), one line replaced with a NUL in the text and the reason, then done.
   */
  static final class NulWritingModel implements ModelProvider {
    static final String MODEL = "test/nul";
    private final Vertx vertx;

    NulWritingModel(Vertx vertx) {
      this.vertx = vertx;
    }

    @Override
    public String id() {
      return "test";
    }

    @Override
    public boolean serves(String model) {
      return MODEL.equals(model);
    }

    @Override
    public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
      boolean document = request.tools().encode().contains("canvas_replace_lines");
      vertx.runOnContext(
          go -> {
            if (document && request.turns().isEmpty()) {
              call(
                  events,
                  0,
                  "canvas_replace_lines",
                  new JsonObject()
                      .put("start_line", 1)
                      .put("end_line", 1)
                      .put("new_content", "# Plan" + NUL + " v2\n")
                      .put("reason", "ti" + NUL + "dy"));
              events.accept(new ModelEvent.Stop("tool_calls"));
              return;
            }
            if (!document) {
              call(events, 0, "think", new JsonObject().put("text", "Look" + NUL + "ing first."));
              call(
                  events,
                  1,
                  "create_shape",
                  new JsonObject()
                      .put("type", "rectangle")
                      .put("x", 0)
                      .put("y", 0)
                      .put("text", "Road" + NUL + "map"));
              call(
                  events,
                  2,
                  "todo",
                  new JsonObject().put("text", "Leg" + NUL + "end").put("status", "done"));
            }
            events.accept(new ModelEvent.TextDelta("Done" + NUL + "."));
            events.accept(new ModelEvent.Stop(document ? "end_turn" : "tool_calls"));
          });
      return () -> {};
    }

    private static void call(
        Consumer<ModelEvent> events, int ordinal, String name, JsonObject arguments) {
      events.accept(new ModelEvent.ToolCallStart(ordinal, "call_" + ordinal, name));
      events.accept(new ModelEvent.ToolCallEnd(ordinal, "call_" + ordinal, name, arguments));
    }
  }
}
