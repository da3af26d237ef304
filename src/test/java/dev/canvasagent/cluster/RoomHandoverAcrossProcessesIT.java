package dev.canvasagent.cluster;

import static dev.canvasagent.cluster.RoomHandoverTest.assertLevelWithTheStore;
import static dev.canvasagent.cluster.RoomHandoverTest.isFinalOf;
import static dev.canvasagent.cluster.RoomHandoverTest.resynced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ClusterProcesses;
import dev.canvasagent.support.OwnedKeys;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A process of a room's is killed ({@code SIGKILL}: nothing is closed or unwatched, its messages in
 * flight are gone). The room's owner, while a run on the other process streams into the room: a live
 * client on the survivor that does not reconnect ends with the store's board, resynced over what it
 * missed while the cluster noticed. The room's host's, while the survivor sequences the room: the
 * survivor's client is elected and answers the next run's screenshot.
 */
class RoomHandoverAcrossProcessesIT {
  static final int SURVIVOR = 0;
  static final int KILLED = 1;

  DatabaseConfig database;
  Vertx vertx;
  ClusterProcesses cluster;

  @AfterEach
  void stop() {
    ClusterProcesses.closeAll(cluster, vertx, database);
  }

  /**
   * Two processes on a fresh schema, acks settled by the clients, failure detection 2 s (a killed
   * process's connections close at once; the bound is for a silent one), plus {@code environment}.
   */
  void start(Map<String, String> environment) {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    Map<String, String> all = new java.util.HashMap<>(environment);
    all.put("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000");
    all.put("CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS", "2000");
    cluster = ClusterProcesses.start(vertx, 2, database, all);
  }

  @Test
  void aLiveClientOnTheSurvivorOfAKilledOwnerEndsWithTheStoresBoard() throws Exception {
    start(Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "40"));
    List<String> members = List.of(cluster.nodeId(SURVIVOR), cluster.nodeId(KILLED));
    String roomId = OwnedKeys.roomOwnedBy(members.get(KILLED), members, "killed");
    String sessionId =
        OwnedKeys.sessionWhere(
            cluster.http(SURVIVOR),
            roomId,
            id -> RendezvousOwners.ownerOf(id, members).equals(members.get(SURVIVOR)),
            64);
    JsonObject before = board(roomId);
    WsClient watcher =
        Await.result(WsClient.connect(vertx, cluster.httpPort(SURVIVOR), roomId)).autoAck();

    String runId =
        cluster.postRun(SURVIVOR, roomId, sessionId, RoomHandoverTest.SLOW_RUN).getString("runId");
    Await.result(watcher.awaitTopic("agent:action", envelope -> envelope.containsKey("rev")));
    cluster.kill(KILLED);
    Await.result(
        watcher.awaitTopic("agent:status", status -> isFinalOf(status, runId)),
        Await.DEFAULT_SECONDS * 3);

    assertLevelWithTheStore(board(roomId), before, watcher.received());
    assertTrue(resynced(watcher.received()), "resynced when the room moved: " + cluster.logs());
    assertFalse(watcher.closed().isComplete(), "the client was not sent away to reconnect");
    Await.result(watcher.close());
  }

  JsonObject board(String roomId) {
    HttpResponse<Buffer> answer =
        Await.result(cluster.http(SURVIVOR).get("/api/rooms/" + roomId + "/board").send());
    assertEquals(200, answer.statusCode(), answer.bodyAsString());
    return answer.bodyAsJsonObject();
  }

  /**
   * The process that holds a room's host is killed while the survivor sequences the room (so the room
   * does not move, only its host goes): the owner drops the dead node's clients when the cluster drops
   * the node, elects the survivor's client, and a run's screenshot request reaches that new host.
   */
  @Test
  void aHostWhoseProcessIsKilledIsReplacedByAClientOnTheSurvivor() throws Exception {
    start(Map.of("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "0"));
    List<String> members = List.of(cluster.nodeId(SURVIVOR), cluster.nodeId(KILLED));
    String roomId = OwnedKeys.roomOwnedBy(members.get(SURVIVOR), members, "host-killed");
    WsClient host =
        Await.result(WsClient.connect(vertx, cluster.httpPort(KILLED), roomId)).autoAck();
    assertEquals(host.clientId(), hostNamedIn(host.received().get(0)), "the first client hosts");
    WsClient next =
        Await.result(WsClient.connect(vertx, cluster.httpPort(SURVIVOR), roomId)).autoAck();
    assertEquals(
        host.clientId(), hostNamedIn(next.received().get(0)), "one host, on the other node");
    long capturedBefore = screenshots().getLong("captured");

    cluster.kill(KILLED);
    // Within the failure detection (2 s) and the owner's re-election; the bound is the waits'.
    Await.result(
        next.awaitTopic("canvas:host", payload -> next.clientId().equals(hostOf(payload))),
        Await.DEFAULT_SECONDS * 3);

    HttpResponse<Buffer> accepted =
        Await.result(
            cluster
                .http(SURVIVOR)
                .post("/api/canvas-agent/run")
                .sendJsonObject(
                    new JsonObject().put("roomId", roomId).put("message", "look at the board")));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String runId = accepted.bodyAsJsonObject().getString("runId");
    List<JsonObject> frames =
        Await.result(next.awaitTopic("agent:status", status -> isFinalOf(status, runId)));
    JsonObject end =
        frames.stream()
            .filter(frame -> "agent:status".equals(frame.getString("topic")))
            .map(frame -> frame.getJsonObject("payload"))
            .filter(status -> isFinalOf(status, runId))
            .findFirst()
            .orElseThrow();
    assertEquals("done", end.getString("state"), end.encode());
    assertTrue(
        frames.stream()
            .anyMatch(frame -> "agent:screenshot_request".equals(frame.getString("topic"))),
        "the new host was asked for the screenshot");
    assertTrue(
        screenshots().getLong("captured") > capturedBefore,
        "the run got its screenshot from the new host: " + screenshots().encode());
    Await.result(next.close());
  }

  private static String hostNamedIn(JsonObject hello) {
    return hostOf(hello.getJsonObject("payload"));
  }

  private static String hostOf(JsonObject payload) {
    return payload.getString("hostClientId");
  }

  private JsonObject screenshots() {
    return Await.result(cluster.health(SURVIVOR))
        .getJsonObject("verticles")
        .getJsonObject("screenshot");
  }
}
