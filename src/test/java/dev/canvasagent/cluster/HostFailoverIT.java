package dev.canvasagent.cluster;

import static dev.canvasagent.cluster.RoomHandoverTest.isFinalOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The process that holds a room's host is killed ({@code SIGKILL}: its socket to the host is never
 * closed in order, no leave is sent) while the room is sequenced on the other: the owner drops the
 * dead node's clients when the cluster drops the node, elects the survivor's client, and a run's
 * screenshot request reaches that new host.
 */
class HostFailoverIT {
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
  void aHostWhoseProcessIsKilledIsReplacedByAClientOnTheSurvivor() throws Exception {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    cluster =
        ClusterProcesses.start(
            vertx,
            2,
            database,
            Map.of(
                "CANVAS_AGENT_ACK_TIMEOUT_MS", "60000",
                "CANVAS_AGENT_LOW_ACTION_THRESHOLD", "0",
                "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS", "2000"));
    List<String> members = List.of(cluster.nodeId(SURVIVOR), cluster.nodeId(KILLED));
    // Sequenced on the survivor, so the room itself does not move: only its host goes.
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
