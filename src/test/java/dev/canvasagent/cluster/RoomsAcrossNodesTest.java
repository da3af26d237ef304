package dev.canvasagent.cluster;

import static dev.canvasagent.support.NumberedEvents.overSockJS;
import static dev.canvasagent.support.NumberedEvents.overSse;
import static dev.canvasagent.support.NumberedEvents.overWebSocket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomViewports;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.NumberedEvents.Seen;
import dev.canvasagent.support.SockJSBrowsers;
import dev.canvasagent.support.SockJSBrowsers.Browser;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One room, wherever its people are: two servers clustered in this JVM on one PostgreSQL. A run on
 * one node reaches every transport's clients on the other with the same ids, in the same order; a
 * client resumes on the other node with an id it got on the first (or is resynced when the id cannot
 * be continued from); the host on one node answers a run's screenshot on the other and its viewport is
 * in that run's context; a person's edit on one node reaches the other's clients with the same id;
 * and the host and owner of a room that stops with its node are replaced on the node that survives.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoomsAcrossNodesTest {
  static final List<String> SOCKJS_TOPICS =
      List.of(
          "agent:action",
          "agent:chat",
          "agent:status",
          "agent:screenshot_request",
          "canvas:change",
          "doc:lease",
          "canvas:resync",
          "canvas:host");

  DatabaseConfig database;
  AppConfig config;
  InJvmCluster cluster;
  Vertx vertx;

  @BeforeAll
  void start() {
    database = TestDatabase.freshSchema();
    // Acks are settled by the hosts here, never by a timer.
    config =
        TestServer.config(Map.of("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000"))
            .withDatabase(Optional.of(database));
    cluster = InJvmCluster.start(2, config);
    vertx = Vertx.vertx();
  }

  @AfterAll
  void stop() {
    try {
      cluster.close();
      vertx.close().await();
    } finally {
      TestDatabase.drop(database);
    }
  }

  /** A room id that the cluster's rendezvous hashing gives to node {@code owner}. */
  static String roomOwnedBy(InJvmCluster cluster, int owner) {
    String nodeId = cluster.node(owner).cluster().nodeId();
    while (true) {
      String roomId = "across-" + UUID.randomUUID().toString().substring(0, 8);
      if (cluster.node(0).cluster().ownerOf(roomId).equals(nodeId)) {
        return roomId;
      }
    }
  }

  static String run(TestServer node, String roomId, String message) {
    var response = node.postRun(new JsonObject().put("roomId", roomId).put("message", message));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getString("sessionId");
  }

  static boolean isFinal(JsonObject status, String sessionId) {
    return status != null
        && sessionId.equals(status.getString("sessionId"))
        && Set.of("done", "error").contains(status.getString("state"))
        && !"ACK_TIMEOUT"
            .equals(status.getJsonObject("detail", new JsonObject()).getString("code"));
  }

  static List<Seen> untilFinal(List<Seen> seen, String sessionId) {
    for (int i = 0; i < seen.size(); i++) {
      if (seen.get(i).topic().equals("agent:status") && isFinal(seen.get(i).payload(), sessionId)) {
        return seen.subList(0, i + 1);
      }
    }
    throw new AssertionError("no final status of " + sessionId + " in " + seen);
  }

  static List<SseEvent> awaitFinal(SseClient sse, String sessionId) {
    return Await.result(
        sse.awaitEvent(
            event -> event.event().equals("agent:status") && isFinal(event.data(), sessionId)));
  }

  WsClient ws(TestServer node, String roomId) {
    return Await.result(WsClient.connect(vertx, node.port(), roomId));
  }

  @Test
  void aRunOnOneNodeReachesEveryTransportOnTheOtherWithTheSameIds() {
    // The room is sequenced on node B; the run is on node A.
    String roomId = roomOwnedBy(cluster, 1);
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    SseClient sseA = a.events(roomId);
    SseClient sseB = b.events(roomId);
    WsClient wsB = ws(b, roomId).autoAck();
    try (SockJSBrowsers browsers = SockJSBrowsers.start()) {
      Browser sockB = browsers.open("b", b.port(), "websocket");
      sockB.registerAll(
          SOCKJS_TOPICS.stream().map(topic -> "room." + roomId + "." + topic).toList(),
          new JsonObject());
      sockB.awaitMessage(
          "room." + roomId + ".canvas:host",
          body -> "canvas:hello".equals(body.getString("type")),
          "its hello");

      String sessionId = run(a, roomId, "across the cluster");

      List<Seen> onA = untilFinal(overSse(awaitFinal(sseA, sessionId)), sessionId);
      List<Seen> onB = untilFinal(overSse(awaitFinal(sseB, sessionId)), sessionId);
      List<Seen> overWs =
          untilFinal(
              overWebSocket(
                  Await.result(
                      wsB.awaitTopic("agent:status", status -> isFinal(status, sessionId)))),
              sessionId);
      sockB.awaitMessage(
          "room." + roomId + ".agent:status",
          status -> isFinal(status, sessionId),
          "the run's final status");
      String prefix = "room." + roomId + ".";
      List<Seen> overSockJS = untilFinal(overSockJS(sockB.events("message"), prefix), sessionId);

      assertTrue(
          onA.stream().filter(seen -> seen.topic().equals("agent:action")).count() > 0,
          "the run's envelopes: " + onA);
      assertEquals(onA, onB, "SSE on B, envelope for envelope, id for id");
      assertEquals(onA, overWs, "WebSocket on B");
      assertEquals(onA, overSockJS, "SockJS on B");
      String incarnation = onA.get(0).id().substring(0, onA.get(0).id().lastIndexOf('-'));
      for (int i = 1; i < onA.size(); i++) {
        assertEquals(
            incarnation
                + "-"
                + (Long.parseLong(onA.get(0).id().substring(incarnation.length() + 1)) + i),
            onA.get(i).id(),
            "one numbering, without gaps");
      }
    }
    Await.result(sseA.close());
    Await.result(sseB.close());
    Await.result(wsB.close());
  }

  @Test
  void aClientResumesOnTheOtherNodeWithAnIdItGotOnTheFirstOrIsResynced() {
    // Sequenced on node A, where the client first is; node B has never served the room.
    String roomId = roomOwnedBy(cluster, 0);
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    SseClient first = a.events(roomId);
    String sessionId = run(a, roomId, "resume elsewhere");
    List<Seen> onA = overSse(awaitFinal(first, sessionId));
    Await.result(first.close());
    assertTrue(onA.size() > 3, "enough events to resume in the middle: " + onA);

    String lastSeen = onA.get(1).id();
    List<Seen> missed = onA.subList(2, onA.size());
    SseClient resumed =
        Await.result(
            SseClient.connect(
                vertx,
                b.port(),
                "/api/rooms/" + roomId + "/events",
                Map.of("Last-Event-ID", lastSeen)));
    Await.result(
        Eventually.holds(
            vertx,
            () -> Future.succeededFuture(overSse(resumed.received()).size() >= missed.size())));
    assertEquals(missed, overSse(resumed.received()), "exactly the events after " + lastSeen);
    assertFalse(
        resumed.received().stream().anyMatch(event -> event.event().equals("canvas:resync")),
        "a resumed client is not resynced");
    Await.result(resumed.close());

    String incarnation = lastSeen.substring(0, lastSeen.lastIndexOf('-'));
    for (String beyond : List.of(incarnation + "-999999", "0badc0de-1")) {
      SseClient resynced =
          Await.result(
              SseClient.connect(
                  vertx,
                  b.port(),
                  "/api/rooms/" + roomId + "/events",
                  Map.of("Last-Event-ID", beyond)));
      SseEvent resync =
          Await.result(resynced.awaitEvent(event -> event.event().equals("canvas:resync"))).stream()
              .filter(event -> event.event().equals("canvas:resync"))
              .findFirst()
              .orElseThrow();
      assertEquals(
          onA.get(onA.size() - 1).id(),
          resync.data().getString("latestEventId"),
          beyond + " cannot be continued from: the board, and where the stream is");
      Await.result(resynced.close());
    }
  }

  /** Sends {@code client}'s viewport and returns once its node has handled it. */
  private static void sendViewport(WsClient client, int x, int y, int w, int h) {
    client.send(
        "canvas:viewport",
        new JsonObject()
            .put("bounds", new JsonObject().put("x", x).put("y", y).put("w", w).put("h", h))
            .put("selection", new JsonArray()));
    // A frame the bridge refuses comes back after the viewport was handled: then it is in.
    client.send(
        "agent:ack",
        new JsonObject().put("sessionId", "none").put("seq", 1).put("clientId", client.clientId()));
    Await.result(
        client.awaitTopic("error", error -> "ACK_UNKNOWN".equals(error.getString("code"))));
  }

  @Test
  void theHostOnOneNodeAnswersARunsScreenshotOnTheOtherAndEveryNodesViewportsAreInTheContext() {
    // Sequenced on node A, where the run is posted; the host is on node B.
    String roomId = roomOwnedBy(cluster, 0);
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    WsClient host = ws(b, roomId).autoAck();
    assertEquals(
        host.clientId(),
        host.received().get(0).getJsonObject("payload").getString("hostClientId"),
        "the room's first client that can answer hosts it, wherever it is");
    sendViewport(host, 10, 20, 400, 300);
    WsClient other = ws(a, roomId).autoAck();
    sendViewport(other, 0, 0, 200, 100);

    RoomViewports viewports =
        Await.result(
            Address.BRIDGE_VIEWPORTS.ask(cluster.vertx(0).eventBus(), new RoomRef(roomId)));
    assertEquals(host.clientId(), viewports.hostClientId(), "node A knows B's host");
    assertEquals(2, viewports.viewports().size(), viewports.toJson().encode());
    assertEquals(host.clientId(), viewports.viewports().get(0).clientId(), "the host's first");
    assertTrue(viewports.viewports().get(0).host());
    assertEquals(400, viewports.viewports().get(0).bounds().w());
    assertEquals(other.clientId(), viewports.viewports().get(1).clientId());
    assertFalse(viewports.viewports().get(1).host());

    Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(roomsWithHost(a) > 0)));
    Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(roomsWithHost(b) > 0)));
    long[] capturedBefore = {
      screenshots(a).getLong("captured"), screenshots(b).getLong("captured")
    };
    String sessionId = run(a, roomId, "look at the board");
    Await.result(host.awaitTopic("agent:status", status -> isFinal(status, sessionId)));
    assertTrue(
        host.received().stream()
            .anyMatch(frame -> "agent:screenshot_request".equals(frame.getString("topic"))),
        "the host on B was asked");
    // The run runs on its session's owner (scheduler: one owner per session), A or B; the host is
    // on B either way, and the other node leaves the reply to the one that asked.
    int runsOn = a.cluster().owns(sessionId) ? 0 : 1;
    TestServer runner = cluster.node(runsOn);
    TestServer bystander = cluster.node(1 - runsOn);
    assertTrue(
        screenshots(runner).getLong("captured") > capturedBefore[runsOn],
        "the run got its screenshot from the host on B: " + screenshots(runner).encode());
    assertEquals(
        0,
        screenshots(bystander).getJsonObject("rejected").getLong("unmatched"),
        "the other node heard the reply too, and left it: " + screenshots(bystander).encode());

    Await.result(host.close());
    Await.result(
        other.awaitTopic(
            "canvas:host", elected -> other.clientId().equals(elected.getString("hostClientId"))));
    Await.result(other.close());
  }

  static JsonObject screenshots(TestServer node) {
    return node.get("/health")
        .bodyAsJsonObject()
        .getJsonObject("verticles")
        .getJsonObject("screenshot");
  }

  static int roomsWithHost(TestServer node) {
    return screenshots(node).getInteger("roomsWithHost");
  }

  @Test
  void aPersonsEditOnOneNodeReachesTheOthersClientsWithTheSameId() {
    String roomId = roomOwnedBy(cluster, 1);
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    SseClient sseA = a.events(roomId);
    SseClient sseB = b.events(roomId);
    WsClient editor = ws(b, roomId);
    editor.send(
        "canvas:change",
        new JsonObject()
            .put("baseRevision", 0)
            .put("put", new JsonArray().add(TestShapes.geo("box1", 0, 0, 100, 50))));
    Predicate<SseEvent> change = event -> event.event().equals("canvas:change");
    SseEvent onA =
        Await.result(sseA.awaitEvent(change)).stream().filter(change).findFirst().orElseThrow();
    SseEvent onB =
        Await.result(sseB.awaitEvent(change)).stream().filter(change).findFirst().orElseThrow();
    assertNotEquals(null, onA.id());
    assertEquals(onA, onB, "the same change, with the same id, on both nodes");
    assertEquals(1, onA.data().getLong("revision"));
    Await.result(sseA.close());
    Await.result(sseB.close());
    Await.result(editor.close());
  }

  @Test
  void theHostAndOwnerOfARoomThatStopWithTheirNodeAreReplacedOnTheSurvivor() {
    DatabaseConfig own = TestDatabase.freshSchema();
    try (InJvmCluster pair =
        InJvmCluster.start(
            2,
            TestServer.config(Map.of("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000"))
                .withDatabase(Optional.of(own)))) {
      // Node B owns the room and holds its host; both go.
      String roomId = roomOwnedBy(pair, 1);
      TestServer a = pair.node(0);
      WsClient hostOnB = ws(pair.node(1), roomId).autoAck();
      WsClient onA = ws(a, roomId).autoAck();
      assertEquals(
          hostOnB.clientId(),
          onA.received().get(0).getJsonObject("payload").getString("hostClientId"));

      pair.stop(1);

      Await.result(
          onA.awaitTopic(
              "canvas:host", host -> onA.clientId().equals(host.getString("hostClientId"))));
      Await.result(Eventually.holds(vertx, () -> Future.succeededFuture(roomsWithHost(a) > 0)));
      String sessionId = run(a, roomId, "after the failover");
      List<JsonObject> frames =
          Await.result(onA.awaitTopic("agent:status", status -> isFinal(status, sessionId)));
      assertTrue(
          frames.stream()
              .anyMatch(
                  frame ->
                      "agent:action".equals(frame.getString("topic"))
                          && frame.getString("id") != null),
          "the survivor sequences the room now: " + frames);
      assertTrue(
          frames.stream()
              .anyMatch(frame -> "agent:screenshot_request".equals(frame.getString("topic"))),
          "and its new host is asked for screenshots");
      JsonObject bridge =
          a.get("/health").bodyAsJsonObject().getJsonObject("verticles").getJsonObject("bridge");
      assertTrue(
          bridge.getJsonObject("sequencing").containsKey(roomId),
          "the survivor lists the room it owns: " + bridge.encode());
      Await.result(onA.close());
    } finally {
      TestDatabase.drop(own);
    }
  }

  @Test
  void roomsMoveToANodeThatJoinsAndTheirClientsCarryOn() {
    DatabaseConfig own = TestDatabase.freshSchema();
    try (InJvmCluster growing =
        InJvmCluster.start(
            2,
            TestServer.config(Map.of("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000"))
                .withDatabase(Optional.of(own)))) {
      TestServer a = growing.node(0);
      TestServer b = growing.node(1);
      // Enough rooms that the node to come owns some of them.
      Map<String, SseClient> watchers = new java.util.LinkedHashMap<>();
      Map<String, WsClient> hosts = new java.util.HashMap<>();
      for (int i = 0; i < 12; i++) {
        String roomId = "grow-" + i + "-" + UUID.randomUUID().toString().substring(0, 6);
        watchers.put(roomId, a.events(roomId));
        hosts.put(roomId, ws(b, roomId).autoAck());
      }

      TestServer c = growing.join();
      String cId = c.cluster().nodeId();
      List<String> moved =
          watchers.keySet().stream()
              .filter(roomId -> a.cluster().ownerOf(roomId).equals(cId))
              .toList();
      assertFalse(moved.isEmpty(), "the new node owns some of the rooms");
      Await.result(
          Eventually.holds(
              vertx,
              () ->
                  Future.succeededFuture(
                      moved.stream().allMatch(roomId -> sequencing(c).containsKey(roomId))
                          && moved.stream()
                              .noneMatch(
                                  roomId ->
                                      sequencing(a).containsKey(roomId)
                                          || sequencing(b).containsKey(roomId)))));

      // The new node's screenshot verticle knows every room's host: the ones it elected, and the
      // others' (asked for as it started).
      Await.result(
          Eventually.holds(
              vertx, () -> Future.succeededFuture(roomsWithHost(c) == watchers.size())));

      String roomId = moved.get(0);
      String incarnation = sequencing(c).getJsonObject(roomId).getString("incarnation");
      WsClient host = hosts.get(roomId);
      SseClient watcher = watchers.get(roomId);
      String sessionId = run(a, roomId, "after scaling out");
      List<Seen> onA = untilFinal(overSse(awaitFinal(watcher, sessionId)), sessionId);
      List<Seen> onB =
          untilFinal(
              overWebSocket(
                  Await.result(
                      host.awaitTopic("agent:status", status -> isFinal(status, sessionId)))),
              sessionId);
      List<Seen> ofTheRun =
          onA.stream()
              .filter(seen -> sessionId.equals(seen.payload().getString("sessionId")))
              .toList();
      assertFalse(ofTheRun.isEmpty());
      assertTrue(
          ofTheRun.stream().allMatch(seen -> seen.id().startsWith(incarnation + "-")),
          "numbered by the new owner: " + ofTheRun);
      assertEquals(
          ofTheRun,
          onB.stream()
              .filter(seen -> sessionId.equals(seen.payload().getString("sessionId")))
              .toList(),
          "the same on both nodes");
      assertTrue(
          host.received().stream()
              .anyMatch(frame -> "agent:screenshot_request".equals(frame.getString("topic"))),
          "the host is still asked for screenshots");
      assertFalse(watcher.ended().isComplete(), "live clients carry on");
      assertEquals(
          host.clientId(),
          sequencing(c).getJsonObject(roomId).getString("hostClientId"),
          "the new owner elected the same host: " + sequencing(c).encode());
      watchers.values().forEach(sse -> Await.result(sse.close()));
      hosts.values().forEach(socket -> Await.result(socket.close()));
    } finally {
      TestDatabase.drop(own);
    }
  }

  static JsonObject sequencing(TestServer node) {
    return node.get("/health")
        .bodyAsJsonObject()
        .getJsonObject("verticles")
        .getJsonObject("bridge")
        .getJsonObject("sequencing");
  }
}
