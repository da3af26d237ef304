package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ClusterProcesses;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.OwnedKeys;
import dev.canvasagent.support.Requests;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A session's owner killed with SIGKILL while its run streams (issue 19): three fat-jar processes
 * clustered on one PostgreSQL schema, driven over HTTP and watched through real SSE clients on the
 * two survivors. Node A owns the session and runs a long run; three more messages of the session
 * are posted through all three nodes, the last two waiting in A's queue; A is killed mid-run. The run
 * it was running ends {@code error} {@code INTERRUPTED} within the durability grace; the waiting
 * messages run on the session's next owner (the heir: second for it by rendezvous), never on the
 * third node, in order and once each; and nothing is lost or doubled: the board's revisions stay one
 * linear history with each action committed once, the todos are made once, the session's envelopes
 * keep strictly increasing seqs on both survivors' streams, and every run ends once, in the store as
 * on the stream.
 */
class SessionFailoverIT {
  /** The session's owner, killed. */
  static final int A = 0;

  /** The session's next owner: the survivor its queue moves to. */
  static final int HEIR = 1;

  /**
   * The room's owner, before and after the kill: it sequences the room's stream throughout, so the
   * runs on A and then on the heir reach every client through it. A room's own handover (a new
   * incarnation, which may lose what a dying owner was sending) is not what this test is about.
   */
  static final int THIRD = 2;

  /** Slows {@code debug/fake} so that twelve boxes take seconds: the run is streaming at the kill. */
  static final int FAKE_TOKEN_DELAY_MS = 40;

  static final int HEARTBEAT_MS = 250;
  static final int INTERRUPTED_AFTER_MS = 3_000;
  static final int FAILURE_DETECTION_MS = 4_000;

  /**
   * What a loaded machine adds to the settings' own times: three JVMs and PostgreSQL on shared cores,
   * the event bus and the SSE stream between the store's decision and the client.
   */
  static final int MARGIN_MS = 10_000;

  /**
   * From the kill to the running run's {@code INTERRUPTED} on the stream: its last heartbeat was at
   * most one heartbeat before the kill, it is stale {@code INTERRUPTED_AFTER_MS} later, and a
   * survivor's sweeper (every heartbeat) ends it then. Any node sweeps: the members need not have
   * changed.
   */
  static final long INTERRUPTED_WITHIN_MS = INTERRUPTED_AFTER_MS + 2L * HEARTBEAT_MS + MARGIN_MS;

  /**
   * From the kill to the first waiting message's start on the heir: both clocks must have passed
   * — the members changed (Hazelcast drops the dead member within the failure detection time) and the
   * queued runs' heartbeats are stale — then the heir's takeover (every heartbeat, and at the
   * members' change) queues them, and its claim (retried every heartbeat) holds once the interrupted
   * run is recorded.
   */
  static final long QUEUE_MOVES_WITHIN_MS =
      Math.max(INTERRUPTED_AFTER_MS, FAILURE_DETECTION_MS) + 3L * HEARTBEAT_MS + MARGIN_MS;

  /** How long the heir may take to run the taken-over messages and their follow-ups. */
  static final long RUNS_END_WITHIN_S = 120;

  static final String LONG_RUN = "draw 12 boxes";

  DatabaseConfig database;
  Vertx vertx;
  ClusterProcesses cluster;

  @BeforeEach
  void start() {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    cluster =
        ClusterProcesses.start(
            vertx,
            3,
            database,
            Map.of(
                "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", String.valueOf(FAKE_TOKEN_DELAY_MS),
                "CANVAS_AGENT_RUN_HEARTBEAT_MS", String.valueOf(HEARTBEAT_MS),
                "CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS", String.valueOf(INTERRUPTED_AFTER_MS),
                "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS", String.valueOf(FAILURE_DETECTION_MS),
                // Only the open_todos rule grants follow-ups: the few-actions rule would add one
                // to every short message, and nothing more to see.
                "CANVAS_AGENT_LOW_ACTION_THRESHOLD", "0",
                // The test holds a run's row for a moment (below); the heartbeats that wait on it
                // must not take the connections the messages posted meanwhile need.
                "CANVAS_AGENT_DB_POOL_SIZE", "32"));
  }

  @AfterEach
  void stop() {
    ClusterProcesses.closeAll(cluster, vertx, database);
  }

  /**
   * The owner's run interrupted, as every test here begins: A runs the long run of a session it
   * owns, two messages wait behind it in A's queue, and A is killed (SIGKILL) while the run streams.
   */
  record Killed(
      String room,
      String sessionId,
      String preempted,
      String longRun,
      List<String> queued,
      SseClient sse,
      SseClient onThird) {}

  Killed killOwnerMidRun() throws Exception {
    List<String> members = List.of(cluster.nodeId(A), cluster.nodeId(HEIR), cluster.nodeId(THIRD));
    // Owned by the third among all three, so among the survivors too: only A's keys move.
    String room = OwnedKeys.roomOwnedBy(cluster.nodeId(THIRD), members, "failover");
    String sessionId = sessionOwnedByAWithHeir(members, room);
    SseClient sse = Await.result(SseClient.connect(vertx, cluster.httpPort(HEIR), events(room)));
    SseClient onThird =
        Await.result(SseClient.connect(vertx, cluster.httpPort(THIRD), events(room)));

    // A person's message preempts the session's running run, so three messages can only wait
    // behind a run that is already being canceled: the first run is preempted by the long one,
    // and while its cancel cannot be recorded (the test holds its row) the session still runs it,
    // and the two messages after the long one queue behind it instead of preempting it in turn.
    String preempted = post(A, room, sessionId, LONG_RUN);
    Await.result(sse.awaitEvent(status(preempted, "streaming")));
    String longRun;
    List<String> queued;
    try (Connection holder =
        DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password())) {
      holder.setAutoCommit(false);
      try (var lock = holder.createStatement()) {
        lock.execute(
            "SELECT id FROM "
                + database.schema()
                + ".canvas_agent_runs WHERE id = '"
                + preempted
                + "' FOR UPDATE");
      }
      longRun = post(HEIR, room, sessionId, LONG_RUN);
      queued =
          List.of(
              post(THIRD, room, sessionId, "/todos"), post(A, room, sessionId, "draw 4 circles"));
      for (String waiting : queued) {
        Await.result(sse.awaitEvent(waitingInQueue(waiting)));
      }
      holder.rollback();
    }
    Await.result(sse.awaitEvent(status(longRun, "streaming")));
    // Two of its boxes are on the board: it is mid-run, with ten to come.
    Await.result(sse.awaitEvent(nthCommit(longRun, 2)));
    assertTrue(
        sse.received().stream().noneMatch(started(queued.get(0))),
        "the queued messages wait behind the long run");
    assertEquals(
        List.of(
            new JsonObject()
                .put("sessionId", sessionId)
                .put("runId", longRun)
                .put("waiting", 2)
                .put("owned", true)),
        schedulerSessions(A),
        "A's health says what the test chose: it owns the session, runs the long run, queues two");

    cluster.kill(A);
    return new Killed(room, sessionId, preempted, longRun, queued, sse, onThird);
  }

  @Test
  void theOwnersRunEndsInterruptedAndItsQueuedMessagesRunOnTheHeirInOrderOnceEach()
      throws Exception {
    Killed killed = killOwnerMidRun();
    String heir = cluster.nodeId(HEIR);
    String room = killed.room();
    String sessionId = killed.sessionId();
    String preempted = killed.preempted();
    String longRun = killed.longRun();
    List<String> queued = killed.queued();
    SseClient sse = killed.sse();
    SseClient onThird = killed.onThird();

    List<SseEvent> untilInterrupted =
        Await.result(sse.awaitEvent(ended(longRun)), seconds(INTERRUPTED_WITHIN_MS));
    JsonObject interrupted = last(untilInterrupted, ended(longRun)).data();
    assertEquals("error", interrupted.getString("state"), interrupted.encode());
    assertEquals(
        "INTERRUPTED", interrupted.getJsonObject("detail").getString("code"), interrupted.encode());
    Await.result(sse.awaitEvent(started(queued.get(0))), seconds(QUEUE_MOVES_WITHIN_MS));
    List<SseEvent> events =
        Await.result(sse.awaitEvent(requestEnded(queued.get(1))), RUNS_END_WITHIN_S);
    Map<String, JsonObject> runs = settledRuns(sessionId);

    // Each run of the session ended once, on the stream as in the store.
    List<SseEvent> statuses =
        events.stream().filter(event -> "agent:status".equals(event.event())).toList();
    Map<String, List<String>> ends = new HashMap<>();
    for (SseEvent status : statuses) {
      if (isEnd(status)) {
        ends.computeIfAbsent(runIdOf(status), id -> new ArrayList<>())
            .add(status.data().getString("state"));
      }
    }
    assertEquals(runs.keySet(), ends.keySet(), "every stored run ended on the stream: " + ends);
    runs.forEach(
        (runId, run) ->
            assertEquals(
                List.of(run.getString("state")),
                ends.get(runId),
                "run " + runId + " ended once, as the store has it: " + run.encode()));
    assertEquals("canceled", runs.get(preempted).getString("state"));
    assertEquals(
        "PREEMPTED",
        runs.get(preempted).getJsonObject("detail").getString("code"),
        runs.toString());
    assertEquals("error", runs.get(longRun).getString("state"));
    assertEquals(
        "INTERRUPTED",
        runs.get(longRun).getJsonObject("detail").getString("code"),
        runs.toString());

    // The queued messages ran on the heir, in order, once each, each request (and the follow-ups it
    // earned) whole before the next.
    List<String> startedRuns =
        statuses.stream()
            .filter(status -> "waiting_context".equals(status.data().getString("state")))
            .map(SessionFailoverIT::runIdOf)
            .toList();
    assertEquals(
        startedRuns.size(),
        new HashSet<>(startedRuns).size(),
        "no run started twice: " + startedRuns);
    assertEquals(List.of(preempted, longRun), startedRuns.subList(0, 2), startedRuns.toString());
    List<String> afterTheKill = startedRuns.subList(2, startedRuns.size());
    assertEquals(queued.get(0), afterTheKill.get(0), afterTheKill.toString());
    String requestOfSecond = queued.get(1);
    int second = afterTheKill.indexOf(requestOfSecond);
    assertTrue(second > 0, afterTheKill.toString());
    for (int i = 0; i < afterTheKill.size(); i++) {
      JsonObject run = runs.get(afterTheKill.get(i));
      assertEquals(
          i < second ? queued.get(0) : requestOfSecond,
          requestOf(run),
          "the first message's runs, then the second's: " + afterTheKill);
      assertTrue(List.of("done", "scheduled").contains(run.getString("state")), run.encode());
    }
    for (String runId : afterTheKill) {
      assertEquals(
          List.of(heir),
          TestDatabase.queryStrings(
              database,
              "SELECT node_id FROM "
                  + database.schema()
                  + ".canvas_agent_runs WHERE id = '"
                  + runId
                  + "'"),
          "run " + runId + " ran on the heir, not on the third node");
    }
    assertEquals(2L, scheduler(HEIR).getLong("runsTakenOver"), "the heir took the two over");
    assertEquals(0L, scheduler(THIRD).getLong("runsTakenOver"), "the third took nothing");

    // The session's envelopes, partial and final, came in strictly increasing seqs, none twice,
    // and the same ones on both survivors' streams.
    List<JsonObject> envelopes = envelopes(events, sessionId);
    long previous = 0;
    for (JsonObject envelope : envelopes) {
      long seq = envelope.getLong("seq");
      assertTrue(seq > previous, "seq " + seq + " after " + previous + ": " + envelope.encode());
      previous = seq;
    }
    List<SseEvent> onThirdEvents = Await.result(onThird.awaitEvent(requestEnded(queued.get(1))));
    assertEquals(
        seqs(envelopes),
        seqs(envelopes(onThirdEvents, sessionId)),
        "the third node's client got the same envelopes");

    // One linear board history, each action committed once: the revisions are 1..n, each made by
    // one action, and those the heir's runs made are the last ones, each named by one envelope
    // (a commit of the interrupted run, or of a queued run run twice, would stand between them).
    List<Long> revisions =
        TestDatabase.queryStrings(
                database,
                "SELECT rev FROM "
                    + database.schema()
                    + ".canvas_board_revisions WHERE room_id = '"
                    + room
                    + "' ORDER BY rev")
            .stream()
            .map(Long::valueOf)
            .toList();
    assertEquals(
        LongStream.rangeClosed(1, revisions.size()).boxed().toList(),
        revisions,
        "strictly linear, no gap");
    Map<Long, String> actionOfRevision = new HashMap<>();
    Set<String> committedActions = new HashSet<>();
    for (JsonObject envelope : envelopes) {
      if (envelope.getBoolean("partial", false) || !envelope.containsKey("rev")) {
        continue;
      }
      String actionId = envelope.getJsonArray("actions").getJsonObject(0).getString("id");
      assertTrue(committedActions.add(actionId), "action " + actionId + " committed once");
      String before = actionOfRevision.put(envelope.getLong("rev"), actionId);
      assertEquals(null, before, "revision " + envelope.getLong("rev") + " made by one action");
    }
    Set<String> heirsRuns = new HashSet<>(afterTheKill);
    List<Long> heirsRevisions =
        actionOfRevision.entrySet().stream()
            .filter(entry -> heirsRuns.contains(runOfAction(entry.getValue())))
            .map(Map.Entry::getKey)
            .sorted()
            .toList();
    assertTrue(!heirsRevisions.isEmpty(), "the queued messages drew");
    long n = revisions.size();
    assertEquals(
        LongStream.rangeClosed(n - heirsRevisions.size() + 1, n).boxed().toList(),
        heirsRevisions,
        "the heir's commits are the history's last, one per action: " + actionOfRevision);
    long longRunsRevisions =
        actionOfRevision.values().stream()
            .filter(action -> action.startsWith(longRun + ":"))
            .count();
    assertTrue(
        longRunsRevisions >= 2 && longRunsRevisions < 12, "cut off mid-run: " + longRunsRevisions);
    assertTrue(
        events.subList(events.indexOf(last(events, ended(longRun))), events.size()).stream()
            .noneMatch(envelopeOf(longRun)),
        "nothing of the interrupted run after its end");

    // The todos the queued /todos made, once each.
    List<String> todos =
        TestDatabase.queryStrings(
            database,
            "SELECT text FROM "
                + database.schema()
                + ".canvas_agent_todos WHERE session_id = '"
                + sessionId
                + "' ORDER BY position");
    assertEquals(
        Map.of("Sketch the layout", 1L, "Label every arrow", 1L),
        todos.stream().collect(Collectors.groupingBy(text -> text, Collectors.counting())),
        todos.toString());
    Await.result(sse.close());
    Await.result(onThird.close());
  }

  /**
   * A person's message posted through a survivor once the members have changed, while A's queued
   * messages still wait in the store for the heir to take them over: it is the newest message of the
   * session, so it runs after them, whichever of the heir's claim and takeover comes first.
   */
  @Test
  void aMessagePostedOnceTheOwnerIsGoneRunsAfterTheMessagesItHadQueued() throws Exception {
    Killed killed = killOwnerMidRun();
    cluster.awaitMembers(THIRD, 2, FAILURE_DETECTION_MS + MARGIN_MS);
    cluster.awaitMembers(HEIR, 2, FAILURE_DETECTION_MS + MARGIN_MS);
    String late = post(THIRD, killed.room(), killed.sessionId(), "draw 2 stars");

    Await.result(killed.sse().awaitEvent(requestEnded(killed.queued().get(1))), RUNS_END_WITHIN_S);
    List<SseEvent> events =
        Await.result(killed.sse().awaitEvent(requestEnded(late)), RUNS_END_WITHIN_S);
    List<String> requests =
        events.stream()
            .filter(started(null))
            .map(SessionFailoverIT::runIdOf)
            .filter(runId -> killed.queued().contains(runId) || late.equals(runId))
            .toList();
    assertEquals(
        List.of(killed.queued().get(0), killed.queued().get(1), late),
        requests,
        "the messages A had queued first, in order, then the one posted after it died");
    Map<String, JsonObject> runs = settledRuns(killed.sessionId());
    assertTrue(
        List.of("done", "scheduled").contains(runs.get(late).getString("state")),
        runs.get(late).encode());
    Await.result(killed.sse().close());
    Await.result(killed.onThird().close());
  }

  /** The scheduler's entry in node {@code index}'s {@code /health}. */
  JsonObject scheduler(int index) {
    return Await.result(cluster.health(index))
        .getJsonObject("verticles")
        .getJsonObject("scheduler");
  }

  /** The sessions node {@code index}'s scheduler runs or queues, as its health lists them. */
  List<JsonObject> schedulerSessions(int index) {
    return scheduler(index).getJsonArray("sessions").stream()
        .map(entry -> entry instanceof JsonObject json ? json : new JsonObject(castMap(entry)))
        .toList();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Object map) {
    return (Map<String, Object>) map;
  }

  static String events(String room) {
    return "/api/rooms/" + room + "/events";
  }

  /** The action envelopes of the session among {@code events}, in the order they came. */
  static List<JsonObject> envelopes(List<SseEvent> events, String sessionId) {
    return events.stream()
        .filter(event -> "agent:action".equals(event.event()))
        .map(SseEvent::data)
        .filter(envelope -> sessionId.equals(envelope.getString("sessionId")))
        .toList();
  }

  static List<Long> seqs(List<JsonObject> envelopes) {
    return envelopes.stream().map(envelope -> envelope.getLong("seq")).toList();
  }

  /**
   * A new session of {@code room} (created through A) that A owns among {@code members}, and the heir
   * once A has gone.
   */
  String sessionOwnedByAWithHeir(List<String> members, String room) {
    String ownerA = members.get(A);
    List<String> survivors = members.stream().filter(member -> !member.equals(ownerA)).toList();
    return OwnedKeys.sessionWhere(
        cluster.http(A),
        room,
        id ->
            ownerA.equals(RendezvousOwners.ownerOf(id, members))
                && members.get(HEIR).equals(RendezvousOwners.ownerOf(id, survivors)),
        128);
  }

  /** Posts {@code message} to the session through node {@code index}; its run id. */
  String post(int index, String room, String sessionId, String message) {
    return cluster.postRun(index, room, sessionId, message).getString("runId");
  }

  /** The session's stored runs by id, once none is queued or running (read through the heir). */
  Map<String, JsonObject> settledRuns(String sessionId) {
    JsonObject[] resumed = new JsonObject[1];
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                cluster
                    .http(HEIR)
                    .get("/api/sessions/" + sessionId)
                    .send()
                    .map(
                        response -> {
                          resumed[0] = response.bodyAsJsonObject();
                          return resumed[0].getJsonArray("runs").stream()
                              .map(JsonObject.class::cast)
                              .noneMatch(
                                  run ->
                                      List.of("queued", "running")
                                          .contains(run.getString("state")));
                        })));
    Map<String, JsonObject> runs = new HashMap<>();
    resumed[0]
        .getJsonArray("runs")
        .forEach(run -> runs.put(((JsonObject) run).getString("runId"), (JsonObject) run));
    return runs;
  }

  static long seconds(long ms) {
    return (ms + 999) / 1000;
  }

  static String runIdOf(SseEvent event) {
    return event.data().getJsonObject("detail", new JsonObject()).getString("runId");
  }

  /** The user request a stored run belongs to: its own id, or the request a follow-up is of. */
  static String requestOf(JsonObject run) {
    JsonObject followUp = run.getJsonObject("detail", new JsonObject()).getJsonObject("followUp");
    return followUp == null ? run.getString("runId") : followUp.getString("requestRunId");
  }

  /** The run an action id ({@code <runId>:<ordinal>}) belongs to. */
  static String runOfAction(String actionId) {
    return actionId.substring(0, actionId.lastIndexOf(':'));
  }

  static boolean isEnd(SseEvent event) {
    return "agent:status".equals(event.event())
        && List.of("scheduled", "done", "error", "canceled")
            .contains(event.data().getString("state"))
        && !event.data().getJsonObject("detail", new JsonObject()).containsKey("position");
  }

  static SseEvent last(List<SseEvent> events, Predicate<SseEvent> which) {
    for (int i = events.size() - 1; i >= 0; i--) {
      if (which.test(events.get(i))) {
        return events.get(i);
      }
    }
    throw new AssertionError("no such event in " + events);
  }

  /** The status {@code state} of run {@code runId}, not a queued run's {@code scheduled {position}}. */
  static Predicate<SseEvent> status(String runId, String state) {
    return event ->
        "agent:status".equals(event.event())
            && runId.equals(runIdOf(event))
            && state.equals(event.data().getString("state"))
            && !event.data().getJsonObject("detail").containsKey("position");
  }

  /** The start of run {@code runId}, or of any run when it is null. */
  static Predicate<SseEvent> started(String runId) {
    return event ->
        "agent:status".equals(event.event())
            && "waiting_context".equals(event.data().getString("state"))
            && (runId == null || runId.equals(runIdOf(event)));
  }

  /** The status that ends run {@code runId}: {@code scheduled} (follow-ups to come) or final. */
  static Predicate<SseEvent> ended(String runId) {
    return event -> isEnd(event) && runId.equals(runIdOf(event));
  }

  /** The {@code scheduled {position}} status of a run that joined its session's queue. */
  static Predicate<SseEvent> waitingInQueue(String runId) {
    return event ->
        "agent:status".equals(event.event())
            && runId.equals(runIdOf(event))
            && "scheduled".equals(event.data().getString("state"))
            && event.data().getJsonObject("detail").containsKey("position");
  }

  /** The final status that ends the request {@code runId} started (its run's, or a follow-up's). */
  static Predicate<SseEvent> requestEnded(String runId) {
    return event ->
        "agent:status".equals(event.event())
            && Requests.ofRequest(event.data().getJsonObject("detail"), runId)
            && List.of("done", "error", "canceled").contains(event.data().getString("state"));
  }

  /** An action envelope (partial or final) of run {@code runId}. */
  static Predicate<SseEvent> envelopeOf(String runId) {
    return event ->
        "agent:action".equals(event.event())
            && event
                .data()
                .getJsonArray("actions")
                .getJsonObject(0)
                .getString("id")
                .startsWith(runId + ":");
  }

  /**
   * The {@code count}th board commit of run {@code runId}: a final envelope with a revision. It counts
   * the envelopes it is shown, so each wait takes a predicate of its own.
   */
  static Predicate<SseEvent> nthCommit(String runId, int count) {
    int[] seen = {0};
    return event -> {
      if (envelopeOf(runId).test(event)
          && !event.data().getBoolean("partial", false)
          && event.data().containsKey("rev")) {
        seen[0]++;
      }
      return seen[0] >= count;
    };
  }
}
