package dev.canvasagent.docagent;

import static dev.canvasagent.docagent.DocumentAgentTest.TEXT;
import static dev.canvasagent.docagent.DocumentAgentTest.create;
import static dev.canvasagent.docagent.DocumentAgentTest.document;
import static dev.canvasagent.docagent.DocumentAgentTest.ended;
import static dev.canvasagent.docagent.DocumentAgentTest.instruct;
import static dev.canvasagent.docagent.DocumentAgentTest.post;
import static dev.canvasagent.docagent.DocumentAgentTest.refused;
import static dev.canvasagent.docagent.DocumentAgentTest.updates;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two clustered nodes on one PostgreSQL schema: a document-agent session started on one node goes on
 * on the other with the same history, its hidden canvas updates each once, and stays bound to its
 * document wherever it is used.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentAgentAcrossNodesTest {
  DatabaseConfig database;
  InJvmCluster cluster;
  final Map<Vertx, RecordingModel> recorded = new HashMap<>();

  @BeforeAll
  void start() {
    database = TestDatabase.freshSchema();
    cluster =
        InJvmCluster.start(
            2,
            TestServer.config(Map.of()).withDatabase(Optional.of(database)),
            vertx -> {
              RecordingModel model = new RecordingModel(vertx);
              recorded.put(vertx, model);
              return List.of(model);
            });
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
    TestDatabase.drop(database);
  }

  RecordingModel model(int node) {
    return recorded.get(cluster.vertx(node));
  }

  @Test
  void aSessionStartedOnOneNodeGoesOnOnTheOtherWithItsHistoryAndHiddenUpdates() {
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    String docId = create(a, TEXT);
    String sessionId = "travelling-" + docId;
    JsonObject body =
        new JsonObject().put("model", RecordingModel.MODEL).put("sessionId", sessionId);
    SseClient roomOnA = a.events(docId);
    SseClient roomOnB = b.events(docId);

    int firstOnA = model(0).requests().size();
    ended(
        roomOnA,
        instruct(a, docId, body.copy().put("instruction", "/doc-fix teh => the"))
            .getString("runId"));
    ModelRequest first = model(0).requests().get(firstOnA);
    assertEquals(0, updates(first), "the first turn has nothing to catch up on");

    String revision = document(b, docId).getString("revisionId");
    String personText = TEXT.replace("## Section", "## Person's section");
    HttpResponse<Buffer> edited =
        Await.result(
            b.http()
                .put("/api/docs/" + docId)
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject()
                        .put("content", personText.replace("teh intro", "the intro"))
                        .put("baseRevisionId", revision)));
    assertEquals(200, edited.statusCode(), edited.bodyAsString());

    int firstOnB = model(1).requests().size();
    ended(
        roomOnB,
        instruct(b, docId, body.copy().put("instruction", "/doc-fix foo => bar"))
            .getString("runId"));
    ModelRequest onB = model(1).requests().get(firstOnB);
    assertEquals(
        "/doc-fix teh => the",
        onB.userMessage(),
        "node B sends the conversation node A began, from its first instruction");
    assertTrue(
        onB.turns().stream().anyMatch(Turn.Assistant.class::isInstance),
        "with node A's answers and tool calls: " + onB.turns());
    assertEquals(2, updates(onB), "the agent's own edit on A once, then the person's on B once");
    List<String> texts = RecordingModel.userTexts(onB);
    String last = texts.get(texts.size() - 1);
    assertTrue(last.contains("-## Section\n+## Person's section\n"), last);
    assertTrue(last.endsWith("/doc-fix foo => bar"), last);

    int secondOnA = model(0).requests().size();
    HttpResponse<Buffer> delegated =
        post(
            a,
            "/api/canvas-agent/edit-request",
            new JsonObject()
                .put("canvas_session_id", sessionId)
                .put("instruction", "/doc-fix nothing => here")
                .put("model", RecordingModel.MODEL));
    assertEquals(200, delegated.statusCode(), delegated.bodyAsString());
    assertEquals(docId, delegated.bodyAsJsonObject().getString("docId"), "the session's document");
    ModelRequest again = model(0).requests().get(secondOnA);
    assertEquals(
        3, updates(again), "one more (the agent's edit on B); the person's is not repeated");
    Await.result(roomOnA.close());
    Await.result(roomOnB.close());
  }

  @Test
  void aSessionBoundToOneDocumentIsRefusedForAnotherOnEitherNode() {
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    String docId = create(a, TEXT);
    String otherId = create(b, TEXT);
    String sessionId = "bound-" + docId;
    JsonObject body =
        new JsonObject().put("model", RecordingModel.MODEL).put("sessionId", sessionId);
    SseClient roomOnA = a.events(docId);
    ended(
        roomOnA,
        instruct(a, docId, body.copy().put("instruction", "/doc-fix teh => the"))
            .getString("runId"));
    String before = document(b, otherId).getString("revisionId");
    refused(
        post(
            b,
            "/api/docs/" + otherId + "/agent",
            body.copy().put("instruction", "/doc-fix foo => bar")),
        400,
        "INVALID_REQUEST");
    assertEquals(before, document(a, otherId).getString("revisionId"), "nothing written");
    assertTrue(
        !document(b, otherId).getJsonObject("lease").getBoolean("held"), "no lease left held");
    Await.result(roomOnA.close());
  }
}
