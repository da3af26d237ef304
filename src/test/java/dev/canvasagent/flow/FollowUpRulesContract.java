package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scheduler's own follow-ups through real runs: the low-action rule (the run a person's message
 * started applied fewer than {@code followups.lowActionThreshold} actions, chat not counted) and open
 * todos (the request's last run leaves items open), each once per request, with strict sampling, within
 * the same cap as {@code add_detail} and {@code review}.
 */
@ExtendWith(VertxExtension.class)
abstract class FollowUpRulesContract {
  Vertx vertx;
  TestServer server;
  CapturingModel model;
  String roomId;
  SseClient sse;

  abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void prepare(Vertx vertx) {
    this.vertx = vertx;
    model = new CapturingModel(vertx);
    roomId = "rules-" + UUID.randomUUID().toString().substring(0, 8);
  }

  void start(Map<String, String> environment) {
    Map<String, String> env = new HashMap<>(environment);
    server =
        TestServer.start(
            vertx,
            TestServer.config(env).withDatabase(database()),
            List.of(model, new ScriptedModel(vertx)));
    sse = server.events(roomId);
  }

  @AfterEach
  void stop() {
    if (sse != null) {
      Await.result(sse.close());
    }
    if (server != null) {
      Await.result(server.stop());
    }
  }

  /** Posts a request and waits for its last run: the session's events of the request, its {@code runId}. */
  record Request(String sessionId, String runId, List<SseEvent> events) {
    /** The follow-ups of this request as they started: {@code {runId, number, reason, …}} each. */
    List<JsonObject> followUps() {
      return events.stream()
          .filter(event -> event.event().equals("agent:status"))
          .filter(event -> event.data().getString("state").equals("waiting_context"))
          .map(event -> event.data().getJsonObject("detail"))
          .filter(
              detail ->
                  detail.containsKey("followUp")
                      && detail.getJsonObject("followUp").getString("requestRunId").equals(runId))
          .map(
              detail ->
                  detail.getJsonObject("followUp").copy().put("runId", detail.getString("runId")))
          .toList();
    }

    List<String> reasons() {
      return followUps().stream().map(followUp -> followUp.getString("reason")).toList();
    }

    JsonObject endOf(String runId) {
      return events.stream().filter(RunFlowContract.endOf(runId)).findFirst().orElseThrow().data();
    }

    JsonObject last() {
      return events.get(events.size() - 1).data();
    }
  }

  Request request(JsonObject body) {
    var response = server.postRun(body.copy().put("roomId", roomId));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
    String runId = response.bodyAsJsonObject().getString("runId");
    // A request is over at the first done, error or canceled of its own runs.
    List<SseEvent> all =
        Await.result(
            sse.awaitEvent(
                event ->
                    event.event().equals("agent:status")
                        && List.of("done", "error", "canceled")
                            .contains(event.data().getString("state"))
                        && isOf(event.data().getJsonObject("detail"), runId)));
    int start = 0;
    for (int i = 0; i < all.size(); i++) {
      if (RunFlowContract.endOf(runId).negate().test(all.get(i))
          && runId.equals(
              all.get(i).data().getJsonObject("detail", new JsonObject()).getString("runId"))
          && "waiting_context".equals(all.get(i).data().getString("state"))) {
        start = i;
        break;
      }
    }
    return new Request(
        sessionId,
        runId,
        all.subList(start, all.size()).stream()
            .filter(event -> sessionId.equals(event.data().getString("sessionId")))
            .toList());
  }

  static boolean isOf(JsonObject detail, String requestRunId) {
    return detail != null
        && (requestRunId.equals(detail.getString("runId"))
            || (detail.containsKey("followUp")
                && requestRunId.equals(
                    detail.getJsonObject("followUp").getString("requestRunId"))));
  }

  JsonObject message(String text) {
    return new JsonObject().put("message", text);
  }

  @Test
  void aPersonsRunWithFewActionsGetsOneStrictFollowUpNamingHowFew() {
    start(Map.of("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "6"));
    Request request = request(message("sketch our   roadmap").put("model", CapturingModel.MODEL));

    assertEquals(List.of("low_actions"), request.reasons());
    JsonObject asking = request.endOf(request.runId());
    assertEquals("scheduled", asking.getString("state"), asking.encode());
    JsonObject queued =
        asking.getJsonObject("detail").getJsonArray("followupsQueued").getJsonObject(0);
    assertEquals("low_actions", queued.getString("reason"));
    assertEquals(1, queued.getInteger("number"));
    assertEquals(
        1,
        asking.getJsonObject("detail").getInteger("applied"),
        "the think: chat, which the rule does not count");

    JsonObject last = request.last();
    assertEquals("done", last.getString("state"));
    assertEquals(
        1,
        last.getJsonObject("detail").getInteger("followups"),
        "the follow-up's own few actions earn nothing more");
    List<ModelRequest> asked = model.requests();
    assertEquals(2, asked.size());
    assertEquals(ModelRequest.Sampling.DEFAULT, asked.get(0).sampling());
    ModelRequest followUp = asked.get(1);
    assertEquals(ModelRequest.Sampling.STRICT, followUp.sampling(), "a follow-up samples strictly");
    assertEquals(
        "You made only 0 changes for: \"sketch our roadmap\". Look at the board again and finish what was"
            + " asked; answer without actions if it is done.",
        followUp.context().getString(ModelContext.MESSAGE));
    assertEquals(
        "low_actions",
        followUp.context().getJsonObject(ModelContext.FOLLOW_UP).getString("reason"));
  }

  @Test
  void enoughActionsAThresholdOfZeroOrARunThatFailsGetNoLowActionFollowUp() {
    start(Map.of("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "3"));
    Request enough = request(message("a box for the roadmap"));
    assertEquals(List.of(), enough.reasons(), "three shapes reach the threshold of 3");
    assertEquals("done", enough.endOf(enough.runId()).getString("state"));

    Request failed = request(message("/fail now"));
    assertEquals("error", failed.last().getString("state"));
    assertEquals(List.of(), failed.reasons(), "a run that ends in error is not judged");
    assertFalse(failed.last().getJsonObject("detail").containsKey("followupsQueued"));
    Await.result(server.stop());
    Await.result(sse.close());

    start(Map.of("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "0"));
    Request off = request(message("look").put("model", CapturingModel.MODEL));
    assertEquals(List.of(), off.reasons(), "0 turns the rule off");
    assertEquals("done", off.endOf(off.runId()).getString("state"));
  }

  @Test
  void aBatchCountsAsTheShapesItCreatedSoABuiltStructureIsNotAskedToFinish() {
    start(Map.of("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "6"));
    Request swot = request(ScriptedModel.run(roomId, List.of(batch(8, "swot"))));
    assertEquals(List.of(), swot.reasons(), "four frames and four notes are eight shapes of work");
    assertEquals("done", swot.endOf(swot.runId()).getString("state"));

    Request small = request(ScriptedModel.run(roomId, List.of(batch(2, "pair"))));
    assertEquals(List.of("low_actions"), small.reasons(), "two notes are two shapes of work");
    assertEquals("done", small.last().getString("state"));
  }

  /** One {@code batch_operations} creating {@code notes} notes, refs prefixed so runs do not collide. */
  static JsonObject batch(int notes, String prefix) {
    JsonArray operations = new JsonArray();
    for (int i = 0; i < notes; i++) {
      operations.add(
          new JsonObject()
              .put("op", "createNote")
              .put("ref", prefix + "_" + i)
              .put("text", prefix + " " + i));
    }
    return ScriptedModel.call(
        "batch_operations", new JsonObject().put("title", prefix).put("operations", operations));
  }

  @Test
  void openTodosGetOneFollowUpListingTheOpenItemsAtTheEndOfTheRequest() {
    start(Map.of());
    Request todos = request(message("/todos plan it"));
    assertEquals(
        List.of("open_todos"),
        todos.reasons(),
        "the request's last run left 'Label every arrow' open");
    assertEquals("done", todos.last().getString("state"));
    assertEquals(
        1,
        todos.last().getJsonObject("detail").getInteger("followups"),
        "once per request, though still open");

    // Another request of the session ends with the item still open: its own one follow-up.
    Request next =
        request(
            message("anything")
                .put("model", CapturingModel.MODEL)
                .put("sessionId", todos.sessionId()));
    assertEquals(List.of("open_todos"), next.reasons());
    ModelRequest followUp = model.requests().get(1);
    assertEquals(ModelRequest.Sampling.STRICT, followUp.sampling());
    String text = followUp.context().getString(ModelContext.MESSAGE);
    assertTrue(text.startsWith("Your todo list still has open items for: \"anything\"."), text);
    assertTrue(text.contains("- Label every arrow\n"), text);
    assertFalse(text.contains("Sketch the layout"), "a done item is not listed: " + text);
    assertEquals("done", next.last().getString("state"));
  }

  @Test
  void theCapCountsAddDetailTheLowActionRuleAndOpenTodosTogether() {
    start(Map.of("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "6", "CANVAS_AGENT_MAX_FOLLOWUPS", "3"));
    // /todos applies four actions: low_actions first, then the open todo at the request's end.
    Request todos = request(message("/todos plan it"));
    assertEquals(List.of("low_actions", "open_todos"), todos.reasons());
    assertEquals(2, todos.last().getJsonObject("detail").getInteger("followups"));

    // /detail asks for a pass every time: its own ask, the low-action rule, one more ask; then the
    // cap.
    Request detail = request(message("/detail please").put("sessionId", todos.sessionId()));
    assertEquals(List.of("add_detail", "low_actions", "add_detail"), detail.reasons());
    assertEquals(
        List.of(1, 2, 3),
        detail.followUps().stream().map(followUp -> followUp.getInteger("number")).toList());
    JsonObject done = detail.last().getJsonObject("detail");
    assertEquals("done", detail.last().getString("state"));
    assertEquals(3, done.getInteger("followups"), done.encode());
    assertEquals(
        1,
        done.getInteger("followupsRefused"),
        "the fourth ask is over the cap; the open todo gets no pass either");
    JsonObject first = detail.endOf(detail.runId()).getJsonObject("detail");
    assertEquals(
        List.of("add_detail", "low_actions"),
        first.getJsonArray("followupsQueued").stream()
            .map(queued -> ((JsonObject) queued).getString("reason"))
            .toList(),
        "the person's run asked one and earned one");
  }

  @Test
  void aCapOfOneLeavesTheOpenTodosWithoutAPass() {
    start(Map.of("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "6", "CANVAS_AGENT_MAX_FOLLOWUPS", "1"));
    Request todos = request(message("/todos plan it"));
    assertEquals(List.of("low_actions"), todos.reasons());
    assertEquals("done", todos.last().getString("state"));
    assertEquals(1, todos.last().getJsonObject("detail").getInteger("followups"));
  }
}
