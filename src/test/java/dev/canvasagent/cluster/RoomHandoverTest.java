package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.OwnedKeys;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A room's owner changes while a run streams into it, and a live client that does not reconnect is
 * not left silently behind: it ends with the store's board, having seen either every revision in
 * order or a {@code canvas:resync} that covers what it did not see. Two cases: the owner stops (the
 * survivor takes the room over), and a node joins and takes the room over.
 */
class RoomHandoverTest {
  static final String SLOW_RUN = "draw 20 boxes";

  DatabaseConfig database;
  InJvmCluster cluster;
  Vertx vertx;

  @BeforeEach
  void start() {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
  }

  /** Two nodes whose fake model writes a token every {@code tokenDelayMs}: that paces the runs. */
  InJvmCluster twoNodes(int tokenDelayMs) {
    AppConfig config =
        TestServer.config(
                Map.of(
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS",
                    String.valueOf(tokenDelayMs),
                    "CANVAS_AGENT_ACK_TIMEOUT_MS",
                    "60000"))
            .withDatabase(Optional.of(database));
    return InJvmCluster.start(2, config);
  }

  @AfterEach
  void stop() {
    try {
      if (cluster != null) {
        cluster.close();
      }
      vertx.close().await();
    } finally {
      TestDatabase.drop(database);
    }
  }

  @Test
  void aLiveClientOnTheSurvivorOfAnOwnerThatStopsEndsWithTheStoresBoard() {
    cluster = twoNodes(20);
    TestServer survivor = cluster.node(0);
    // The room is owned by the node that stops; the run runs on the survivor, which owns its
    // session.
    String roomId = RoomsAcrossNodesTest.roomOwnedBy(cluster, 1);
    String sessionId = sessionOwnedBy(0, roomId);
    JsonObject before = survivor.board(roomId);
    WsClient watcher = Await.result(WsClient.connect(vertx, survivor.port(), roomId)).autoAck();
    SseClient reader = survivor.events(roomId);

    String runId = post(survivor, roomId, sessionId, SLOW_RUN);
    Await.result(watcher.awaitTopic("agent:action", envelope -> envelope.containsKey("rev")));
    cluster.stop(1);
    Await.result(
        watcher.awaitTopic("agent:status", status -> isFinalOf(status, runId)),
        Await.DEFAULT_SECONDS * 3);

    assertTrue(
        finalStatusId(watcher, runId).startsWith(incarnationOn(survivor, roomId) + "-"),
        "the run ended after the survivor took the room over");
    Await.result(
        reader.awaitEvent(
            event -> event.event().equals("agent:status") && isFinalOf(event.data(), runId)));
    assertLevelWithTheStore(survivor.board(roomId), before, watcher.received());
    assertLevelWithTheStore(survivor.board(roomId), before, frames(reader));
    assertTrue(resynced(watcher.received()), "the live clients were resynced when the room moved");
    assertTrue(resynced(frames(reader)), "on SSE too");
    assertFalse(watcher.closed().isComplete(), "the client was not sent away to reconnect");
    assertFalse(reader.ended().isComplete(), "nor the SSE one");
    Await.result(watcher.close());
    Await.result(reader.close());
  }

  @Test
  void aLiveClientOfARoomThatMovesToAJoiningNodeEndsWithTheStoresBoard() {
    // The runs last longer than a node takes to join (some eight seconds here).
    cluster = twoNodes(100);
    TestServer a = cluster.node(0);
    // Enough rooms that the node to come takes some of them over (it takes none of 16 once in 650),
    // each with a run streaming into it on A while the node joins.
    Map<String, WsClient> watchers = new LinkedHashMap<>();
    Map<String, JsonObject> boards = new LinkedHashMap<>();
    Map<String, String> runs = new LinkedHashMap<>();
    for (int i = 0; i < 16; i++) {
      String roomId = "handover-" + i + "-" + UUID.randomUUID().toString().substring(0, 6);
      boards.put(roomId, a.board(roomId));
      watchers.put(roomId, Await.result(WsClient.connect(vertx, a.port(), roomId)).autoAck());
    }
    for (String roomId : watchers.keySet()) {
      runs.put(roomId, post(a, roomId, sessionOwnedBy(0, roomId), SLOW_RUN));
    }
    watchers.forEach(
        (roomId, watcher) ->
            Await.result(
                watcher.awaitTopic("agent:action", envelope -> envelope.containsKey("rev"))));

    // The join blocks this thread until the node is up; the runs stream meanwhile.
    TestServer c =
        Await.result(Future.fromCompletionStage(CompletableFuture.supplyAsync(cluster::join)), 90);
    String cId = c.cluster().nodeId();
    // A hears of the new member from its cluster manager, not from the join.
    Await.result(
        Eventually.holds(vertx, () -> Future.succeededFuture(a.cluster().members().contains(cId))));
    List<String> moved =
        watchers.keySet().stream()
            .filter(roomId -> a.cluster().ownerOf(roomId).equals(cId))
            .toList();
    assertFalse(moved.isEmpty(), "the new node owns some of the rooms");

    for (String roomId : moved) {
      WsClient watcher = watchers.get(roomId);
      Await.result(
          watcher.awaitTopic("agent:status", status -> isFinalOf(status, runs.get(roomId))),
          Await.DEFAULT_SECONDS * 3);
      Await.result(
          Eventually.holds(
              vertx,
              () ->
                  Future.succeededFuture(RoomsAcrossNodesTest.sequencing(c).containsKey(roomId))));
      assertTrue(
          finalStatusId(watcher, runs.get(roomId)).startsWith(incarnationOn(c, roomId) + "-"),
          "the run ended after the new node took the room over");
      assertLevelWithTheStore(a.board(roomId), boards.get(roomId), watcher.received());
      assertTrue(
          resynced(watcher.received()), "the live client was resynced when the room changed owner");
      assertFalse(watcher.closed().isComplete(), "the client was not sent away to reconnect");
    }
    watchers.values().forEach(watcher -> Await.result(watcher.close()));
  }

  /**
   * The store's board is what a browser holds after applying the frames it got as the contract says:
   * from the board it loaded, each revision once and in order, a resync replacing the board. A revision past the next
   * one with no resync before it is a gap the client could not have known about.
   */
  static void assertLevelWithTheStore(
      JsonObject store, JsonObject loaded, List<JsonObject> frames) {
    Map<String, JsonObject> records = byId(loaded.getJsonArray("records"));
    long revision = loaded.getLong("revision");
    List<String> gaps = new ArrayList<>();
    List<String> afterResync = new ArrayList<>();
    long resyncedAt = -1;
    for (JsonObject frame : frames) {
      JsonObject payload = frame.getJsonObject("payload");
      String topic = frame.getString("topic");
      if ("canvas:resync".equals(topic)) {
        records = byId(payload.getJsonArray("records"));
        revision = payload.getLong("revision");
        resyncedAt = revision;
        continue;
      }
      Long made =
          switch (topic) {
            case "agent:action" ->
                Boolean.TRUE.equals(payload.getValue("partial")) ? null : payload.getLong("rev");
            case "canvas:change" -> payload.getLong("revision");
            default -> null;
          };
      if (made != null && made <= resyncedAt) {
        afterResync.add(topic + " of revision " + made + " after a resync at " + resyncedAt);
      }
      if (made == null || made <= revision) {
        continue;
      }
      if (made != revision + 1) {
        gaps.add("after revision " + revision + " came " + made);
      }
      JsonObject diff = payload.getJsonObject("diff", new JsonObject());
      for (Object put : diff.getJsonArray("put", new JsonArray())) {
        records.put(((JsonObject) put).getString("id"), (JsonObject) put);
      }
      for (Object removed : diff.getJsonArray("remove", new JsonArray())) {
        records.remove(String.valueOf(removed));
      }
      revision = made;
    }
    assertEquals(List.of(), gaps, "revisions the client missed without a resync");
    assertEquals(List.of(), afterResync, "a resync is exact");
    assertEquals(store.getLong("revision"), revision, "the client's revision is the store's");
    assertEquals(byId(store.getJsonArray("records")), records, "the client's board is the store's");
  }

  static String incarnationOn(TestServer owner, String roomId) {
    return RoomsAcrossNodesTest.sequencing(owner).getJsonObject(roomId).getString("incarnation");
  }

  static String finalStatusId(WsClient client, String runId) {
    return client.received().stream()
        .filter(frame -> "agent:status".equals(frame.getString("topic")))
        .filter(frame -> isFinalOf(frame.getJsonObject("payload"), runId))
        .map(frame -> frame.getString("id"))
        .findFirst()
        .orElseThrow();
  }

  /** An SSE client's events as WebSocket frames: {@code {topic, payload, id}}. */
  static List<JsonObject> frames(SseClient sse) {
    return sse.received().stream()
        .map(
            event ->
                new JsonObject()
                    .put("topic", event.event())
                    .put("payload", event.data())
                    .put("id", event.id()))
        .toList();
  }

  static boolean resynced(List<JsonObject> frames) {
    return frames.stream().anyMatch(frame -> "canvas:resync".equals(frame.getString("topic")));
  }

  static Map<String, JsonObject> byId(JsonArray records) {
    Map<String, JsonObject> byId = new TreeMap<>();
    for (Object record : records) {
      byId.put(((JsonObject) record).getString("id"), (JsonObject) record);
    }
    return byId;
  }

  static boolean isFinalOf(JsonObject status, String runId) {
    return runId.equals(status.getJsonObject("detail", new JsonObject()).getString("runId"))
        && Set.of("done", "error", "canceled").contains(status.getString("state"))
        && !"ACK_TIMEOUT"
            .equals(status.getJsonObject("detail", new JsonObject()).getString("code"));
  }

  String post(TestServer node, String roomId, String sessionId, String message) {
    HttpResponse<Buffer> response =
        node.postRun(
            new JsonObject()
                .put("roomId", roomId)
                .put("sessionId", sessionId)
                .put("message", message));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getString("runId");
  }

  /** A new session of the room that node {@code index} owns. */
  String sessionOwnedBy(int index, String roomId) {
    String nodeId = cluster.node(index).cluster().nodeId();
    return OwnedKeys.sessionWhere(
        cluster.node(index).http(),
        roomId,
        id -> nodeId.equals(cluster.node(index).cluster().ownerOf(id)),
        64);
  }
}
