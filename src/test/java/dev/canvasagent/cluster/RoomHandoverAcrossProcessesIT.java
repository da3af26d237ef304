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
 * The process that owns a room is killed ({@code SIGKILL}: nothing is closed or unwatched, its
 * messages in flight are gone) while a run on the other process streams into the room: a live client
 * on the survivor that does not reconnect ends with the store's board, resynced over what it missed
 * while the cluster noticed.
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

  @Test
  void aLiveClientOnTheSurvivorOfAKilledOwnerEndsWithTheStoresBoard() throws Exception {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    cluster =
        ClusterProcesses.start(
            vertx,
            2,
            database,
            Map.of(
                "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "40",
                "CANVAS_AGENT_ACK_TIMEOUT_MS", "60000",
                "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS", "2000"));
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
}
