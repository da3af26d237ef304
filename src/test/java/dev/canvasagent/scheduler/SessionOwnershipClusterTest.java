package dev.canvasagent.scheduler;

import static dev.canvasagent.scheduler.RunEvents.envelopeOf;
import static dev.canvasagent.scheduler.RunEvents.started;
import static dev.canvasagent.scheduler.RunEvents.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.HeldDeliveries;
import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.OwnedKeys;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One owner per session (issue 19), two servers clustered in one JVM on one PostgreSQL schema: a
 * session's runs are queued and run on the node that owns it, whichever node they are posted to, in
 * order and once each; a cancel reaches the run where it runs; and when the owner stops, the runs
 * waiting in its queue run on the node that owns the session next.
 */
class SessionOwnershipClusterTest {
  static final String SLOW_RUN = "draw 12 boxes";

  DatabaseConfig database;
  InJvmCluster cluster;
  HeldDeliveries cancels;

  @BeforeEach
  void startCluster() {
    database = TestDatabase.freshSchema();
    AppConfig config =
        TestServer.config(
                Map.of(
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "20",
                    "CANVAS_AGENT_RUN_HEARTBEAT_MS", "200",
                    "CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS", "1000"))
            .withDatabase(Optional.of(database));
    cluster = InJvmCluster.start(2, config);
  }

  @AfterEach
  void stopCluster() {
    if (cancels != null) {
      cancels.close();
    }
    cluster.close();
    TestDatabase.drop(database);
  }

  @Test
  void aRunPostedOnOneNodeRunsOnceOnTheNodeThatOwnsItsSession() {
    TestServer owner = cluster.node(0);
    TestServer other = cluster.node(1);
    String room = "owned-room";
    String sessionId = sessionOwnedBy(0, room);
    SseClient sse = owner.events(room);

    JsonObject accepted = post(other, room, sessionId, "draw a blue rectangle labeled A");
    String runId = accepted.getString("runId");
    assertEquals(sessionId, accepted.getString("sessionId"));
    List<SseEvent> events = Await.result(sse.awaitEvent(status(runId, "done")));

    assertEquals(List.of(runId), started(events), "it started once");
    assertTrue(events.stream().anyMatch(envelopeOf(runId)), "its envelopes are out");
    assertEquals(1, runnerFinished(owner), "the owner's runner ran it");
    assertEquals(0, runnerFinished(other), "the node it was posted to did not");
    assertEquals(Map.of(runId, "done"), runStates(other, sessionId));
    Await.result(sse.close());
  }

  @Test
  void messagesPostedAlternatelyOnBothNodesRunInOrderOnceEach() {
    TestServer owner = cluster.node(0);
    TestServer other = cluster.node(1);
    // The runner's cancels are held, so the first run is still being canceled while the others
    // queue.
    cancels = HeldDeliveries.hold(cluster.vertx(0), Address.RUNNER_CANCEL.address());
    String room = "alternate-room";
    String sessionId = sessionOwnedBy(0, room);
    SseClient sse = owner.events(room);
    String first = post(other, room, sessionId, SLOW_RUN).getString("runId");
    Await.result(sse.awaitEvent(status(first, "streaming")));

    List<String> runIds =
        List.of(
            first,
            post(owner, room, sessionId, "draw a circle").getString("runId"),
            post(other, room, sessionId, "draw a star").getString("runId"),
            post(owner, room, sessionId, "draw a triangle").getString("runId"));
    // The preemption's cancel reaches the runner beside the second message's answer, not before it.
    Await.result(
        Eventually.holds(cluster.vertx(0), () -> Future.succeededFuture(cancels.count() >= 1)));
    assertEquals(1, cancels.count(), "the second message preempted the first; the others queued");
    cancels.release();
    List<SseEvent> events = Await.result(sse.awaitEvent(status(runIds.get(3), "done")));

    assertEquals(runIds, started(events), "in the order they came, each once");
    Map<String, String> states = runStates(other, sessionId);
    assertEquals("canceled", states.get(first));
    runIds.subList(1, 4).forEach(runId -> assertEquals("done", states.get(runId), runId));
    Await.result(sse.close());
  }

  @Test
  void aCancelPostedOnTheOtherNodeCancelsTheRunWhereItRuns() {
    TestServer owner = cluster.node(0);
    TestServer other = cluster.node(1);
    String room = "cancel-room";
    String sessionId = sessionOwnedBy(0, room);
    SseClient sse = owner.events(room);
    String runId = post(owner, room, sessionId, SLOW_RUN).getString("runId");
    Await.result(sse.awaitEvent(status(runId, "streaming")));
    JsonObject scheduler = verticleHealth(owner, "scheduler");
    assertEquals(owner.cluster().nodeId(), scheduler.getString("nodeId"));
    assertEquals(
        List.of(
            new JsonObject()
                .put("sessionId", sessionId)
                .put("runId", runId)
                .put("waiting", 0)
                .put("owned", true)),
        scheduler.getJsonArray("sessions").getList().stream()
            .map(entry -> entry instanceof Map<?, ?> map ? new JsonObject(castMap(map)) : entry)
            .toList(),
        "the owner's health lists the session it runs: " + scheduler.encode());
    assertEquals(
        new JsonArray(), verticleHealth(other, "scheduler").getJsonArray("sessions"), "not B's");

    HttpResponse<Buffer> canceled =
        Await.result(
            other
                .http()
                .post("/api/canvas-agent/cancel")
                .sendJsonObject(new JsonObject().put("sessionId", sessionId)));

    assertEquals(200, canceled.statusCode(), canceled.bodyAsString());
    JsonObject body = canceled.bodyAsJsonObject();
    assertEquals(runId, body.getJsonObject("canceled").getString("runId"), body.encode());
    assertEquals("canceled", body.getJsonObject("canceled").getString("state"), body.encode());
    assertEquals("canceled", runStates(other, sessionId).get(runId));
    Await.result(sse.awaitEvent(status(runId, "canceled")));
    Await.result(sse.close());
  }

  @Test
  void whenTheOwnerStopsItsQueuedMessagesRunOnTheOtherNodeInOrderOnceEach() {
    TestServer survivor = cluster.node(1);
    cancels = HeldDeliveries.hold(cluster.vertx(0), Address.RUNNER_CANCEL.address());
    // The room itself stays where it is: its stream is the survivor's to sequence (rooms across
    // nodes move with their owner, a handover of their own that this test is not about).
    String room = roomOwnedBy(1, "takeover-room");
    String sessionId = sessionOwnedBy(0, room);
    SseClient sse = survivor.events(room);
    String running = post(survivor, room, sessionId, SLOW_RUN).getString("runId");
    Await.result(sse.awaitEvent(status(running, "streaming")));
    List<String> queued =
        List.of(
            post(survivor, room, sessionId, "draw a circle").getString("runId"),
            post(cluster.node(0), room, sessionId, "draw a star").getString("runId"),
            post(survivor, room, sessionId, "draw a triangle").getString("runId"));

    cluster.stop(0);
    List<SseEvent> events = Await.result(sse.awaitEvent(status(queued.get(2), "done")));

    assertEquals(
        queued,
        started(events).stream().filter(queued::contains).toList(),
        "the survivor ran them in order, once each");
    Map<String, String> states = runStates(survivor, sessionId);
    assertEquals(
        "canceled", states.get(running), "a clean stop cancels the run it was running: " + states);
    queued.forEach(runId -> assertEquals("done", states.get(runId), runId));
    assertEquals(3, runnerFinished(survivor));
    Await.result(sse.close());
  }

  @Test
  void whenTheOwnerStopsTheFollowUpsWaitingInItsQueueRunOnTheOtherNode() {
    TestServer survivor = cluster.node(1);
    // The room itself stays where it is: its stream is the survivor's to sequence (rooms across
    // nodes move with their owner, a handover of their own that this test is not about).
    String room = roomOwnedBy(1, "followups-room");
    String sessionId = sessionOwnedBy(0, room);
    SseClient sse = survivor.events(room);
    String request = post(survivor, room, sessionId, "/two-passes").getString("runId");
    List<SseEvent> scheduled = Await.result(sse.awaitEvent(status(request, "scheduled")));
    List<String> followUps =
        RunEvents.detail(scheduled, status(request, "scheduled"))
            .orElseThrow()
            .getJsonArray("followupsQueued")
            .stream()
            .map(followUp -> ((JsonObject) followUp).getString("runId"))
            .toList();
    assertTrue(followUps.size() >= 2, followUps.toString());
    Await.result(sse.awaitEvent(status(followUps.get(0), "streaming")));

    cluster.stop(0);
    String last = followUps.get(followUps.size() - 1);
    List<SseEvent> events = Await.result(sse.awaitEvent(RunEvents.end(last)));

    Map<String, String> states = runStates(survivor, sessionId);
    assertEquals("canceled", states.get(followUps.get(0)), states.toString());
    List<String> waiting = followUps.subList(1, followUps.size());
    assertEquals(
        waiting,
        started(events).stream().filter(waiting::contains).toList(),
        "the waiting follow-ups ran on the survivor, in order, once each");
    waiting.forEach(
        runId ->
            assertTrue(
                List.of("done", "scheduled").contains(states.get(runId)), runId + " " + states));
    Await.result(sse.close());
  }

  /** A room name starting with {@code prefix} that node {@code index} owns. */
  String roomOwnedBy(int index, String prefix) {
    String nodeId = cluster.node(index).cluster().nodeId();
    for (int attempt = 0; ; attempt++) {
      String room = prefix + "-" + attempt;
      if (nodeId.equals(cluster.node(index).cluster().ownerOf(room))) {
        return room;
      }
    }
  }

  /** A new session in {@code room} that node {@code index} owns (by every node's view). */
  String sessionOwnedBy(int index, String room) {
    String nodeId = cluster.node(index).cluster().nodeId();
    return OwnedKeys.sessionWhere(
        cluster.node(index).http(),
        room,
        id ->
            nodeId.equals(cluster.node(1 - index).cluster().ownerOf(id))
                && cluster.node(index).cluster().owns(id),
        64);
  }

  static JsonObject post(TestServer node, String room, String sessionId, String message) {
    HttpResponse<Buffer> response =
        node.postRun(
            new JsonObject()
                .put("roomId", room)
                .put("sessionId", sessionId)
                .put("message", message));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  /** The session's runs and their states, as the store has them (read through {@code node}). */
  static Map<String, String> runStates(TestServer node, String sessionId) {
    HttpResponse<Buffer> resumed = node.get("/api/sessions/" + sessionId);
    assertEquals(200, resumed.statusCode(), resumed.bodyAsString());
    JsonArray runs = resumed.bodyAsJsonObject().getJsonArray("runs");
    return runs.stream()
        .map(JsonObject.class::cast)
        .collect(Collectors.toMap(run -> run.getString("runId"), run -> run.getString("state")));
  }

  /** How many runs the node's runner has finished, from its health. */
  static int runnerFinished(TestServer node) {
    return verticleHealth(node, "runner").getInteger("finished");
  }

  /** The entry of verticle {@code name} in the node's {@code GET /health}. */
  static JsonObject verticleHealth(TestServer node, String name) {
    JsonObject health = node.get("/health").bodyAsJsonObject();
    JsonObject verticles = health.getJsonObject("verticles");
    assertTrue(verticles != null && verticles.containsKey(name), health.encode());
    return verticles.getJsonObject(name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }
}
