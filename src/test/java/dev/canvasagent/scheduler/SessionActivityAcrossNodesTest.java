package dev.canvasagent.scheduler;

import static dev.canvasagent.scheduler.RunEvents.status;
import static dev.canvasagent.scheduler.SessionOwnershipClusterTest.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.canvasagent.bus.Address;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.HeldDeliveries;
import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.OwnedKeys;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin session view on a cluster: asked on a node that does not own the session, it is answered
 * by the owner ({@code scheduler.node.<id>.session_activity}) with the owner's queue and running run.
 * The runner's cancels are held on the owner, so a preempted run stays {@code canceling} while the
 * next messages queue behind it.
 */
class SessionActivityAcrossNodesTest {
  DatabaseConfig database;
  InJvmCluster cluster;
  HeldDeliveries cancels;

  @BeforeEach
  void startCluster() {
    database = TestDatabase.freshSchema();
    AppConfig config =
        TestServer.config(Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "20"))
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

  static JsonObject view(TestServer node, String path) {
    HttpResponse<Buffer> response = node.get(path);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  @Test
  void theOwnerAnswersForItsSessionOnAnyNode() {
    TestServer owner = cluster.node(0);
    TestServer other = cluster.node(1);
    String room = "admin-across";
    String ownerId = owner.cluster().nodeId();
    String sessionId =
        OwnedKeys.sessionWhere(
            owner.http(),
            room,
            id -> ownerId.equals(other.cluster().ownerOf(id)) && owner.cluster().owns(id),
            64);
    cancels = HeldDeliveries.hold(cluster.vertx(0), Address.RUNNER_CANCEL.address());
    SseClient sse = owner.events(room);
    String first = post(other, room, sessionId, "draw 12 boxes").getString("runId");
    Await.result(sse.awaitEvent(status(first, "streaming")));
    String second = post(other, room, sessionId, "draw a circle").getString("runId");
    String third = post(owner, room, sessionId, "draw a star").getString("runId");
    Await.result(
        Eventually.holds(cluster.vertx(0), () -> Future.succeededFuture(cancels.count() >= 1)));

    JsonObject session = view(other, "/api/admin/sessions/" + sessionId);
    assertEquals(ownerId, session.getString("ownerNode"));
    assertEquals(room, session.getString("roomId"));
    assertEquals(first, session.getJsonObject("running").getString("runId"));
    assertEquals("canceling", session.getJsonObject("running").getString("state"));
    assertEquals(2, session.getJsonObject("queue").getInteger("length"), session.encode());
    assertEquals(
        List.of(second, third), session.getJsonObject("queue").getJsonArray("runIds").getList());
    JsonObject runs = view(owner, "/api/admin/rooms/" + room).getJsonObject("runs");
    assertEquals(1, runs.getJsonArray("running").size(), runs.encode());
    assertEquals(2, runs.getInteger("queued"), runs.encode());

    cancels.release();
    Await.result(sse.awaitEvent(status(third, "done")));
    session = view(other, "/api/admin/sessions/" + sessionId);
    assertNull(session.getValue("running"), session.encode());
    assertEquals(0, session.getJsonObject("queue").getInteger("length"));
    assertEquals(third, session.getJsonObject("lastRun").getString("runId"), session.encode());
    assertEquals("done", session.getJsonObject("lastRun").getString("state"));
    assertNull(session.getJsonObject("lastRun").getValue("code"));
    Await.result(sse.close());
  }
}
