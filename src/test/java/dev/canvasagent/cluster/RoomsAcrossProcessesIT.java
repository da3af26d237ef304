package dev.canvasagent.cluster;

import static dev.canvasagent.support.NumberedEvents.overSockJS;
import static dev.canvasagent.support.NumberedEvents.overSse;
import static dev.canvasagent.support.NumberedEvents.overWebSocket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ClusterProcesses;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.NumberedEvents.Seen;
import dev.canvasagent.support.OwnedKeys;
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
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One room across two fat-jar processes clustered on loopback over one PostgreSQL schema, with real
 * clients over real sockets: a run started through one process reaches SSE and SockJS clients on the
 * other with the same ids; a client resumes on the other process with an id it got on the first, or is
 * resynced; the host's page on one process answers the screenshot of a run on the other; and when the
 * process that sequences a room is killed, the survivor's clients carry on with a new incarnation.
 *
 * <p>One cluster for the class, each test in rooms and sessions of its own. Which node owns a room or a
 * session is computed here as every node computes it (rendezvous hashing over the members their
 * {@code /health} lists), so each test knows where its room is sequenced and where its run runs; the
 * node that ran a run is then read from its record in the store. The kill of a node is the last test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RoomsAcrossProcessesIT {
  static final int A = 0;
  static final int B = 1;

  /** The members' failure detection, set here so that the wait for a killed node's drop is its own. */
  static final int FAILURE_DETECTION_MS = 10_000;

  /** A killed process closes its connections: it is dropped well within the failure detection time. */
  static final long DROPPED_WITHIN_MS = FAILURE_DETECTION_MS + 3_000;

  /**
   * A SockJS page's topics, without {@code agent:screenshot_request}: a SockJS client that listens to
   * both that and {@code agent:action} can host, and one that never answers would hold the runs up.
   */
  static final List<String> SOCKJS_TOPICS =
      List.of(
          "agent:action",
          "agent:chat",
          "agent:status",
          "canvas:change",
          "doc:lease",
          "canvas:resync",
          "canvas:host");

  DatabaseConfig database;
  Vertx vertx;
  ClusterProcesses cluster;
  List<String> members;

  /** Each node's id, read while both are up (a killed node's is still needed after). */
  List<String> nodeIds;

  @BeforeAll
  void start() {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    // The edge limits out of the way (every client here is 127.0.0.1, and the tests poll /health);
    // no low-actions follow-up, so each run is one run; acks are settled by the hosts, never a
    // timer.
    Map<String, String> environment = new HashMap<>(TestServer.UNLIMITED);
    environment.put("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "0");
    environment.put("CANVAS_AGENT_ACK_TIMEOUT_MS", "60000");
    environment.put(
        "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS", String.valueOf(FAILURE_DETECTION_MS));
    cluster = ClusterProcesses.start(vertx, 2, database, environment);
    members =
        cluster.clusterOf(A).getJsonArray("members").stream().map(String.class::cast).toList();
    assertEquals(
        members,
        cluster.clusterOf(B).getJsonArray("members").stream().map(String.class::cast).toList(),
        "both nodes see the same members, so name the same owners");
    nodeIds = List.of(cluster.nodeId(A), cluster.nodeId(B));
  }

  @AfterAll
  void stop() {
    ClusterProcesses.closeAll(cluster, vertx, database);
  }

  /**
   * Posted through A, run on A (its session's owner), sequenced on B: an SSE client on A, and an SSE
   * and a SockJS client on B, see the same events with the same ids, in the same order.
   */
  @Test
  @Order(1)
  void aRunStartedOnOneProcessReachesSseAndSockJSClientsOnTheOtherWithTheSameIds() {
    String roomId = roomOwnedBy(B, "delivered");
    String sessionId = sessionOwnedBy(A, roomId);
    SseClient sseA = sse(A, roomId, Map.of());
    SseClient sseB = sse(B, roomId, Map.of());
    try (SockJSBrowsers browsers = SockJSBrowsers.start()) {
      Browser sockB = browsers.open("b", cluster.httpPort(B), "websocket");
      String prefix = "room." + roomId + ".";
      sockB.registerAll(
          SOCKJS_TOPICS.stream().map(topic -> prefix + topic).toList(), new JsonObject());
      sockB.awaitMessage(
          prefix + "canvas:host",
          body -> "canvas:hello".equals(body.getString("type")),
          "its hello");

      String runId = run(A, roomId, sessionId, "across the processes");

      List<Seen> onA = untilFinal(overSse(awaitFinal(sseA, sessionId)), sessionId);
      List<Seen> onB = untilFinal(overSse(awaitFinal(sseB, sessionId)), sessionId);
      sockB.awaitMessage(
          prefix + "agent:status", status -> isFinal(status, sessionId), "the run's final status");
      List<Seen> overSockJS = untilFinal(overSockJS(sockB.events("message"), prefix), sessionId);

      assertEquals(A, ranOn(runId), "the run ran on its session's owner, A");
      assertEquals("done", onA.get(onA.size() - 1).payload().getString("state"), onA.toString());
      assertTrue(
          onA.stream().anyMatch(seen -> seen.topic().equals("agent:action")),
          "the run's envelopes: " + onA);
      assertEquals(onA, onB, "SSE on B: envelope for envelope, id for id, seq for seq");
      assertEquals(onA, overSockJS, "SockJS on B");
      assertOneNumbering(onA);
      String incarnation = incarnationOf(onA.get(0).id());
      assertEquals(
          incarnation,
          sequencing(B).getJsonObject(roomId).getString("incarnation"),
          "numbered by the room's owner, B: " + sequencing(B).encode());
    } finally {
      Await.result(sseA.close());
      Await.result(sseB.close());
    }
  }

  /**
   * A client that saw part of a run on A reconnects to B, which has never served the room, with the
   * last id it got: B sends exactly the events after it, then live ones; ids that no buffer can
   * continue from are resynced.
   */
  @Test
  @Order(2)
  void aClientResumesOnTheOtherProcessWithAnIdItGotOnTheFirstOrIsResynced() {
    String roomId = roomOwnedBy(A, "resumed");
    SseClient onA = sse(A, roomId, Map.of());
    String first = sessionOwnedBy(A, roomId);
    run(A, roomId, first, "resume elsewhere");
    List<Seen> firstRun = untilFinal(overSse(awaitFinal(onA, first)), first);
    assertTrue(firstRun.size() > 3, "enough events to resume in the middle: " + firstRun);

    String lastSeen = firstRun.get(1).id();
    SseClient resumed = sse(B, roomId, Map.of("Last-Event-ID", lastSeen));
    List<Seen> missed = firstRun.subList(2, firstRun.size());
    Await.result(
        Eventually.holds(
            vertx,
            () -> Future.succeededFuture(overSse(resumed.received()).size() >= missed.size())));
    assertEquals(missed, overSse(resumed.received()), "exactly the events after " + lastSeen);

    // Then live: a second run, through B this time, runs on B (its session's owner).
    String second = sessionOwnedBy(B, roomId);
    String secondRunId = run(B, roomId, second, "and carry on");
    List<Seen> everything = untilFinal(overSse(awaitFinal(onA, second)), second);
    List<Seen> afterLastSeen = everything.subList(2, everything.size());
    List<Seen> got = untilFinal(overSse(awaitFinal(resumed, second)), second);
    assertEquals(B, ranOn(secondRunId), "the second run ran on its session's owner, B");
    assertEquals(afterLastSeen, got, "the missed events, then the live ones, in the room's order");
    assertEquals(
        got.size(),
        got.stream().map(Seen::id).distinct().count(),
        "none twice: " + got.stream().map(Seen::id).toList());
    assertOneNumbering(everything);
    assertFalse(
        resumed.received().stream().anyMatch(event -> event.event().equals("canvas:resync")),
        "a resumed client is not resynced");
    Await.result(resumed.close());

    String latest = everything.get(everything.size() - 1).id();
    String incarnation = incarnationOf(lastSeen);
    for (String beyond : List.of(incarnation + "-999999", "0badc0de-1", "not-an-id")) {
      SseClient resynced = sse(B, roomId, Map.of("Last-Event-ID", beyond));
      SseEvent resync = first(resynced, event -> event.event().equals("canvas:resync"));
      assertEquals(
          latest,
          resync.data().getString("latestEventId"),
          beyond + " cannot be continued from: the board, and where the stream is");
      assertTrue(
          overSse(resynced.received()).isEmpty(),
          "nothing replayed to a resynced client: " + resynced.received());
      Await.result(resynced.close());
    }
    Await.result(onA.close());
  }

  /**
   * The host's page is on B; the room is sequenced on A and the run runs on A. A's run asks B's host
   * for its screenshot and gets it; A's clients hear of the host on B, those there before it as a
   * {@code canvas:host} and one that joins after in its hello.
   */
  @Test
  @Order(3)
  void theHostsPageOnOneProcessAnswersTheScreenshotOfARunOnTheOther() {
    String roomId = roomOwnedBy(A, "hosted");
    String sessionId = sessionOwnedBy(A, roomId);
    SseClient watcherOnA = sse(A, roomId, Map.of());
    long hostsBefore = screenshots(A).getLong("roomsWithHost");
    WsClient host = Await.result(WsClient.connect(vertx, cluster.httpPort(B), roomId)).autoAck();
    assertEquals(
        host.clientId(),
        host.received().get(0).getJsonObject("payload").getString("hostClientId"),
        "the room's first client that can answer hosts it");
    SseEvent heard =
        first(
            watcherOnA,
            event ->
                event.event().equals("canvas:host")
                    && host.clientId().equals(event.data().getString("hostClientId")));
    assertEquals(null, heard.id(), "a host change is not replayed, so has no id");
    WsClient editorOnA = Await.result(WsClient.connect(vertx, cluster.httpPort(A), roomId));
    assertEquals(
        host.clientId(),
        editorOnA.received().get(0).getJsonObject("payload").getString("hostClientId"),
        "a client that joins on A is greeted with the host on B");
    // A's screenshot verticle hears of B's host from the room's owner (A), apart from the stream.
    Await.result(
        Eventually.holds(
            vertx, () -> cluster.health(A).map(health -> roomsWithHost(health) > hostsBefore)));
    JsonObject before = screenshots(A);

    String runId = run(A, roomId, sessionId, "look at the board");
    List<JsonObject> frames =
        Await.result(host.awaitTopic("agent:status", status -> isFinal(status, sessionId)));

    assertEquals(A, ranOn(runId), "the run ran on its session's owner, A");
    JsonObject status =
        frames.stream()
            .filter(frame -> "agent:status".equals(frame.getString("topic")))
            .map(frame -> frame.getJsonObject("payload"))
            .filter(payload -> isFinal(payload, sessionId))
            .findFirst()
            .orElseThrow();
    assertEquals("done", status.getString("state"), status.encode());
    assertTrue(
        frames.stream()
            .anyMatch(frame -> "agent:screenshot_request".equals(frame.getString("topic"))),
        "the host on B was asked for the screenshot");
    JsonObject after = screenshots(A);
    assertTrue(
        after.getLong("captured") > before.getLong("captured"),
        "A's run got its screenshot from the host on B: " + after.encode());
    assertEquals(before.getLong("timedOut"), after.getLong("timedOut"), after.encode());
    assertEquals(before.getLong("noHost"), after.getLong("noHost"), after.encode());
    JsonObject bystander = screenshots(B);
    assertEquals(
        0,
        bystander.getJsonObject("rejected").getLong("unmatched"),
        "B heard the host's reply too, and left it to A: " + bystander.encode());
    Await.result(editorOnA.awaitTopic("agent:status", payload -> isFinal(payload, sessionId)));

    Await.result(host.close());
    Await.result(
        editorOnA.awaitTopic(
            "canvas:host",
            elected -> editorOnA.clientId().equals(elected.getString("hostClientId"))));
    Await.result(editorOnA.close());
    Await.result(watcherOnA.close());
  }

  /**
   * B sequences the room and is killed (SIGKILL) while the room's clients are on A. A, the room's
   * owner now, starts a new incarnation: the clients on A get the next run's events under it, and a
   * client that reconnects with an id of B's incarnation is resynced. Last: the cluster is one node
   * after it.
   */
  @Test
  @Order(4)
  void whenTheProcessThatSequencesARoomIsKilledTheSurvivorsClientsCarryOnInANewIncarnation()
      throws InterruptedException {
    String roomId = roomOwnedBy(B, "survived");
    SseClient watcher = sse(A, roomId, Map.of());
    SseClient onTheDoomed = sse(B, roomId, Map.of());
    WsClient host = Await.result(WsClient.connect(vertx, cluster.httpPort(A), roomId)).autoAck();
    HttpResponse<Buffer> edited =
        Await.result(
            cluster
                .http(A)
                .post("/api/rooms/" + roomId + "/changes")
                .putHeader("content-type", "application/json")
                .sendJsonObject(
                    new JsonObject()
                        .put("baseRevision", 0)
                        .put("put", new JsonArray().add(TestShapes.geo("box1", 0, 0, 100, 50)))));
    assertEquals(200, edited.statusCode(), edited.bodyAsString());
    String oldId = first(watcher, event -> event.event().equals("canvas:change")).id();
    assertEquals(
        oldId,
        first(onTheDoomed, event -> event.event().equals("canvas:change")).id(),
        "the same id on B");
    String oldIncarnation = incarnationOf(oldId);
    assertEquals(
        oldIncarnation,
        sequencing(B).getJsonObject(roomId).getString("incarnation"),
        "B sequences the room: " + sequencing(B).encode());

    cluster.kill(B);
    // B's operating system closed its connections: the browser there is cut off, and will
    // reconnect.
    Await.result(onTheDoomed.ended());
    Await.result(onTheDoomed.close());
    cluster.awaitMembers(A, 1, DROPPED_WITHIN_MS);
    // The room is A's now; a run posted before A sequences it could be published while nobody
    // listens, which a handover may lose (docs/cluster.md): the test is about what follows.
    Await.result(
        Eventually.holds(
            vertx,
            () -> cluster.health(A).map(health -> sequencingOf(health).containsKey(roomId))));
    String newIncarnation = sequencing(A).getJsonObject(roomId).getString("incarnation");
    assertNotEquals(oldIncarnation, newIncarnation, "a new owner starts a new incarnation");

    String sessionId = sessionOwnedBy(A, roomId);
    String runId = run(A, roomId, sessionId, "after the kill");
    List<Seen> seen = overSse(awaitFinal(watcher, sessionId));
    List<Seen> ofTheRun =
        untilFinal(seen.subList(seen.indexOf(seenWithId(seen, oldId)) + 1, seen.size()), sessionId);
    assertEquals(A, ranOn(runId));
    assertFalse(watcher.ended().isComplete(), "the SSE client on A stayed connected");
    assertTrue(
        ofTheRun.stream().anyMatch(event -> event.topic().equals("agent:action")),
        "the run's envelopes: " + ofTheRun);
    assertTrue(
        ofTheRun.stream().allMatch(event -> incarnationOf(event.id()).equals(newIncarnation)),
        "numbered by the survivor's new incarnation " + newIncarnation + ": " + ofTheRun);
    assertOneNumbering(ofTheRun);
    List<Seen> overWs =
        overWebSocket(
                Await.result(host.awaitTopic("agent:status", status -> isFinal(status, sessionId))))
            .stream()
            .filter(event -> incarnationOf(event.id()).equals(newIncarnation))
            .toList();
    assertEquals(ofTheRun, untilFinal(overWs, sessionId), "the same on the WebSocket on A");
    assertEquals(
        host.clientId(),
        sequencing(A).getJsonObject(roomId).getString("hostClientId"),
        "the survivor elected the host on A: " + sequencing(A).encode());

    // The browser that was on B reconnects to A with the last id it got there.
    SseClient reconnected = sse(A, roomId, Map.of("Last-Event-ID", oldId));
    SseEvent resync = first(reconnected, event -> event.event().equals("canvas:resync"));
    assertEquals(
        ofTheRun.get(ofTheRun.size() - 1).id(),
        resync.data().getString("latestEventId"),
        "an id of the dead owner's incarnation cannot be continued from");
    assertTrue(
        resync.data().getJsonArray("records").stream()
            .anyMatch(record -> "shape:box1".equals(((JsonObject) record).getString("id"))),
        "with the board, the edit made while B sequenced the room in it: "
            + resync.data().encode());
    Await.result(reconnected.close());
    Await.result(watcher.close());
    Await.result(host.close());
  }

  static Seen seenWithId(List<Seen> seen, String id) {
    return seen.stream()
        .filter(event -> event.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no event " + id + " in " + seen));
  }

  /** The events up to and with the session's final status. */
  static List<Seen> untilFinal(List<Seen> seen, String sessionId) {
    for (int i = 0; i < seen.size(); i++) {
      if (seen.get(i).topic().equals("agent:status") && isFinal(seen.get(i).payload(), sessionId)) {
        return seen.subList(0, i + 1);
      }
    }
    throw new AssertionError("no final status of " + sessionId + " in " + seen);
  }

  static boolean isFinal(JsonObject status, String sessionId) {
    return status != null
        && sessionId.equals(status.getString("sessionId"))
        && Set.of("done", "error", "canceled").contains(status.getString("state"))
        && !"ACK_TIMEOUT"
            .equals(status.getJsonObject("detail", new JsonObject()).getString("code"));
  }

  static List<SseEvent> awaitFinal(SseClient sse, String sessionId) {
    return Await.result(
        sse.awaitEvent(
            event -> event.event().equals("agent:status") && isFinal(event.data(), sessionId)));
  }

  static SseEvent first(SseClient sse, Predicate<SseEvent> wanted) {
    return Await.result(sse.awaitEvent(wanted)).stream().filter(wanted).findFirst().orElseThrow();
  }

  /** An id is {@code <incarnation>-<n>}. */
  static String incarnationOf(String eventId) {
    return eventId.substring(0, eventId.lastIndexOf('-'));
  }

  static long numberOf(String eventId) {
    return Long.parseLong(eventId.substring(eventId.lastIndexOf('-') + 1));
  }

  /** One incarnation, numbered one after another without a gap. */
  static void assertOneNumbering(List<Seen> seen) {
    String incarnation = incarnationOf(seen.get(0).id());
    long start = numberOf(seen.get(0).id());
    for (int i = 0; i < seen.size(); i++) {
      assertEquals(incarnation + "-" + (start + i), seen.get(i).id(), "one numbering: " + seen);
    }
  }

  /** A room name starting with {@code prefix} that every node gives to node {@code owner}. */
  String roomOwnedBy(int owner, String prefix) {
    return OwnedKeys.roomOwnedBy(nodeIds.get(owner), members, prefix);
  }

  /**
   * A new session in {@code roomId} that node {@code owner} owns among the members it sees now: its
   * runs run there.
   */
  String sessionOwnedBy(int owner, String roomId) {
    String nodeId = nodeIds.get(owner);
    List<String> now =
        cluster.clusterOf(owner).getJsonArray("members").stream().map(String.class::cast).toList();
    return OwnedKeys.sessionWhere(
        cluster.http(owner), roomId, id -> nodeId.equals(RendezvousOwners.ownerOf(id, now)), 64);
  }

  /** Posts a run through node {@code through}; its id. */
  String run(int through, String roomId, String sessionId, String message) {
    JsonObject accepted = cluster.postRun(through, roomId, sessionId, message);
    assertEquals(sessionId, accepted.getString("sessionId"));
    return accepted.getString("runId");
  }

  /** The node that ran the run, as its record in the store names it. */
  int ranOn(String runId) {
    List<String> nodes =
        TestDatabase.queryStrings(
            database,
            "SELECT node_id FROM "
                + database.schema()
                + ".canvas_agent_runs WHERE id = '"
                + runId
                + "'");
    assertEquals(1, nodes.size(), "one record of " + runId);
    for (int index : List.of(A, B)) {
      if (nodes.get(0).equals(nodeIds.get(index))) {
        return index;
      }
    }
    throw new AssertionError(runId + " ran on " + nodes.get(0) + ", not a member");
  }

  SseClient sse(int node, String roomId, Map<String, String> headers) {
    return Await.result(
        SseClient.connect(
            vertx, cluster.httpPort(node), "/api/rooms/" + roomId + "/events", headers));
  }

  JsonObject screenshots(int node) {
    return Await.result(cluster.health(node))
        .getJsonObject("verticles")
        .getJsonObject("screenshot");
  }

  static long roomsWithHost(JsonObject health) {
    return health.getJsonObject("verticles").getJsonObject("screenshot").getLong("roomsWithHost");
  }

  JsonObject sequencing(int node) {
    return sequencingOf(Await.result(cluster.health(node)));
  }

  static JsonObject sequencingOf(JsonObject health) {
    return health.getJsonObject("verticles").getJsonObject("bridge").getJsonObject("sequencing");
  }
}
