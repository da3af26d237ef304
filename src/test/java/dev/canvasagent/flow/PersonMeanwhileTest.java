package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.bus.Address;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.ScriptedModel;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Issue 16, defect 2: what a run does when a person changes the board under one of its commits,
 * against PostgreSQL. A person's real change ({@code POST /api/rooms/{roomId}/changes}) is made just
 * before the patch engine hears the agent's commit, so the engine refuses that commit as stale: an
 * action whose shape the person deleted is dropped with that reason and the run goes on; a run that
 * can commit nothing for its patience ends {@code error REVISION_CONFLICT}.
 */
@ExtendWith(VertxExtension.class)
class PersonMeanwhileTest {
  static final String ROOM = "meanwhile-room";
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  final List<Handler<DeliveryContext<Object>>> interceptors = new ArrayList<>();

  void start(Vertx vertx, Map<String, String> environment) {
    this.vertx = vertx;
    database = TestDatabase.freshSchema();
    AppConfig config = TestServer.config(environment).withDatabase(Optional.of(database));
    server = TestServer.start(vertx, config, List.of(new ScriptedModel(vertx)));
  }

  @AfterEach
  void stop() {
    interceptors.forEach(vertx.eventBus()::removeInboundInterceptor);
    Await.result(server.stop());
    TestDatabase.drop(database);
  }

  /** A person's change on the current board: its revision read first, sent again if it moved. */
  Future<Void> personChange(JsonObject change) {
    return server
        .http()
        .get("/api/rooms/" + ROOM + "/board")
        .send()
        .compose(
            board ->
                server
                    .http()
                    .post("/api/rooms/" + ROOM + "/changes")
                    .sendJsonObject(
                        change
                            .copy()
                            .put("baseRevision", board.bodyAsJsonObject().getLong("revision"))))
        .compose(
            answer ->
                answer.statusCode() == 409
                    ? personChange(change)
                    : answer.statusCode() == 200
                        ? Future.succeededFuture()
                        : Future.failedFuture(answer.bodyAsString()));
  }

  static JsonObject personBox(String id, double x) {
    return new JsonObject()
        .put(
            "put",
            new JsonArray()
                .add(
                    ShapeRecords.shape(
                        id, "geo", x, 500, "a1", ShapeRecords.geoProps("rectangle", 80, 40, "p"))));
  }

  static JsonObject removing(String id) {
    return new JsonObject().put("remove", new JsonArray().add(id));
  }

  /**
   * Before the patch engine hears an agent's commit that passes {@code which}, the person makes the
   * change {@code meanwhile} gives (null: none); returns how many agent commits passed {@code which}.
   */
  AtomicInteger beforeAgentCommits(
      Predicate<JsonObject> which, Function<Integer, JsonObject> meanwhile) {
    AtomicInteger seen = new AtomicInteger();
    Handler<DeliveryContext<Object>> interceptor =
        delivery -> {
          if (!delivery.message().address().equals(Address.PATCH_BOARD_APPLY.address())
              || !(delivery.message().body() instanceof JsonObject body)
              || !which.test(body)) {
            delivery.next();
            return;
          }
          JsonObject change = meanwhile.apply(seen.incrementAndGet());
          if (change == null) {
            delivery.next();
            return;
          }
          Context context = Vertx.currentContext();
          personChange(change).onComplete(changed -> context.runOnContext(go -> delivery.next()));
        };
    interceptors.add(interceptor);
    vertx.eventBus().addInboundInterceptor(interceptor);
    return seen;
  }

  static Predicate<JsonObject> puts(String recordId) {
    return body ->
        body.getJsonObject("diff").getJsonArray("put").stream()
            .map(JsonObject.class::cast)
            .anyMatch(record -> recordId.equals(record.getString("id")));
  }

  List<SseEvent> runToEnd(SseClient sse, List<JsonObject> calls) {
    var accepted = server.postRun(ScriptedModel.run(ROOM, calls));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    return Await.result(
        sse.awaitEvent(RunFlowContract.endOf(accepted.bodyAsJsonObject().getString("runId"))));
  }

  static JsonObject create(String id, int x) {
    return ScriptedModel.call(
        "create_shape",
        new JsonObject()
            .put("id", id)
            .put("type", "rectangle")
            .put("x", x)
            .put("y", 0)
            .put("text", id)
            .put("props", new JsonObject().put("w", 100).put("h", 50)));
  }

  static JsonObject recolor(String id) {
    return ScriptedModel.call(
        "update_shape",
        new JsonObject().put("shapeId", id).put("props", new JsonObject().put("color", "red")));
  }

  @Test
  void anActionWhoseShapeAPersonDeletedIsDroppedWithThatReasonAndTheRunGoesOn(Vertx vertx) {
    start(vertx, Map.of());
    Await.result(personChange(personBox("shape:t1", 0)));
    Await.result(personChange(personBox("shape:t2", 200)));
    // The person deletes t2 just before the run's first commit (so the run sees the board without
    // it before it comes to the action on t2), and t1 just before the commit of the action on t1.
    beforeAgentCommits(puts("shape:made"), nth -> nth == 1 ? removing("shape:t2") : null);
    AtomicInteger onT1 =
        beforeAgentCommits(puts("shape:t1"), nth -> nth == 1 ? removing("shape:t1") : null);
    SseClient sse = server.events(ROOM);
    List<SseEvent> events =
        runToEnd(
            sse,
            List.of(
                ScriptedModel.call("think", new JsonObject().put("text", "Recolor both.")),
                create("made", 0),
                recolor("t2"),
                recolor("t1"),
                ScriptedModel.call(
                    "move",
                    new JsonObject()
                        .put("shapeIds", new JsonArray().add("made"))
                        .put("dx", 40)
                        .put("dy", 0))));

    JsonObject end = events.get(events.size() - 1).data();
    JsonObject detail = end.getJsonObject("detail");
    assertEquals("done", end.getString("state"), end.encode());
    assertEquals(
        3, detail.getInteger("applied"), "the think, the create and the move: " + end.encode());
    assertEquals(2, detail.getInteger("dropped"), end.encode());
    JsonArray deleted = detail.getJsonArray("targetsDeleted", new JsonArray());
    assertEquals(2, deleted.size(), end.encode());
    assertEquals("update_shape", deleted.getJsonObject(0).getString("name"), end.encode());
    assertTrue(deleted.getJsonObject(0).getString("reason").contains("t2"), end.encode());
    assertTrue(deleted.getJsonObject(1).getString("reason").contains("t1"), end.encode());
    assertTrue(deleted.getJsonObject(0).getString("actionId").endsWith(":2"), end.encode());
    assertTrue(deleted.getJsonObject(1).getString("actionId").endsWith(":3"), end.encode());
    assertEquals(1, onT1.get(), "the action on t1 was tried once, then its shape was gone");

    List<JsonObject> envelopes = RunFaultsTest.envelopes(events);
    assertEquals(
        List.of("create_shape", "move"),
        envelopes.stream()
            .map(envelope -> envelope.getJsonArray("actions").getJsonObject(0).getString("name"))
            .toList());
    JsonObject board = server.board(ROOM);
    List<String> ids =
        board.getJsonArray("records").stream()
            .map(record -> ((JsonObject) record).getString("id"))
            .toList();
    assertEquals(List.of("shape:made"), ids);
    Await.result(sse.close());
  }

  /**
   * An action in another dialect is put into our verbs once: when a person's change makes its commit
   * stale, it is sanitized again as our verb, and logged and counted as an alias use once.
   */
  @Test
  void anActionInAnotherDialectIsLoggedAndCountedOnceThoughAConflictHasItSanitizedAgain(
      Vertx vertx) {
    start(vertx, Map.of());
    List<Logger> loggers =
        List.of(
            (Logger) LoggerFactory.getLogger("dev.canvasagent.runner.AliasedVerbs"),
            (Logger) LoggerFactory.getLogger("dev.canvasagent.runner.Run"));
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    loggers.forEach(logger -> logger.addAppender(log));
    AtomicInteger commits =
        beforeAgentCommits(puts("shape:aliased"), nth -> nth == 1 ? personBox("shape:p", 0) : null);
    SseClient sse = server.events(ROOM);
    try {
      List<SseEvent> events =
          runToEnd(
              sse,
              List.of(
                  ScriptedModel.call(
                      "wb_create",
                      new JsonObject()
                          .put(
                              "shape",
                              new JsonObject()
                                  .put("_type", "geo")
                                  .put("shapeId", "aliased")
                                  .put("x", 0)
                                  .put("y", 0)))));

      JsonObject end = events.get(events.size() - 1).data();
      JsonObject detail = end.getJsonObject("detail");
      assertEquals("done", end.getString("state"), end.encode());
      assertEquals(1, detail.getInteger("applied"), end.encode());
      assertEquals(2, commits.get(), "refused as stale once, then committed");
      assertEquals(new JsonObject().put("wb_create", 1), detail.getJsonObject("aliases"));
      List<ILoggingEvent> uses =
          log.list.stream()
              .filter(event -> "[CanvasAgent:VerbAlias]".equals(event.getFormattedMessage()))
              .toList();
      assertEquals(1, uses.size(), uses.toString());
      assertEquals(
          List.of("wb_create", "shruai", "create_shape"),
          uses.get(0).getKeyValuePairs().stream()
              .filter(pair -> List.of("alias", "dialect", "verb").contains(pair.key))
              .map(pair -> String.valueOf(pair.value))
              .toList());
      // The run's final status reaches the stream just before its run.finished line is written.
      Await.result(
          Eventually.holds(
              vertx,
              () -> {
                // The appender adds under its own lock, on the runner's event loop.
                synchronized (log) {
                  return Future.succeededFuture(
                      log.list.stream()
                          .anyMatch(event -> "run.finished".equals(event.getFormattedMessage())));
                }
              }));
      assertEquals(
          List.of("{\"wb_create\":1}"),
          log.list.stream()
              .filter(event -> "run.finished".equals(event.getFormattedMessage()))
              .flatMap(event -> event.getKeyValuePairs().stream())
              .filter(pair -> pair.key.equals("aliases"))
              .map(pair -> String.valueOf(pair.value))
              .toList(),
          "the run.finished line names the aliases too");
      assertEquals(
          List.of("create_shape"),
          RunFaultsTest.envelopes(events).stream()
              .map(envelope -> envelope.getJsonArray("actions").getJsonObject(0).getString("name"))
              .toList());
    } finally {
      loggers.forEach(logger -> logger.detachAppender(log));
      Await.result(sse.close());
    }
  }

  @Test
  void anActionOnAShapeAPersonLockedMeanwhileIsDroppedAsLockedAndTheRunGoesOn(Vertx vertx) {
    start(vertx, Map.of());
    Await.result(personChange(personBox("shape:t1", 0)));
    // The person locks t1 just before the patch engine hears the run's recolor of it: that commit
    // is
    // refused as stale, and judged again against the board with the lock.
    JsonObject locking = personBox("shape:t1", 0);
    locking.getJsonArray("put").getJsonObject(0).put("isLocked", true);
    AtomicInteger onT1 = beforeAgentCommits(puts("shape:t1"), nth -> nth == 1 ? locking : null);
    SseClient sse = server.events(ROOM);
    List<SseEvent> events = runToEnd(sse, List.of(recolor("t1"), create("after", 300)));

    JsonObject end = events.get(events.size() - 1).data();
    JsonObject detail = end.getJsonObject("detail");
    assertEquals("done", end.getString("state"), end.encode());
    assertEquals(1, detail.getInteger("applied"), "the create after it: " + end.encode());
    assertEquals(1, detail.getInteger("dropped"), end.encode());
    JsonArray locked = detail.getJsonArray("locked", new JsonArray());
    assertEquals(1, locked.size(), end.encode());
    assertTrue(locked.getJsonObject(0).getString("reason").startsWith("locked: shape(s) [t1]"));
    assertEquals(1, onT1.get(), "tried once; judged again, it was refused before any commit");
    JsonObject t1 =
        server.board(ROOM).getJsonArray("records").stream()
            .map(JsonObject.class::cast)
            .filter(record -> "shape:t1".equals(record.getString("id")))
            .findFirst()
            .orElseThrow();
    assertEquals(locking.getJsonArray("put").getJsonObject(0), t1, "as the person left it");
    Await.result(sse.close());
  }

  @Test
  void aRunThatCanCommitNothingForItsPatienceEndsWithRevisionConflict(Vertx vertx) {
    start(vertx, Map.of("CANVAS_AGENT_CONFLICT_PATIENCE_MS", "1000"));
    Await.result(personChange(personBox("shape:p", 0)));
    // A person who edits just before every commit of the second create: it never lands.
    AtomicInteger attempts =
        beforeAgentCommits(puts("shape:never"), nth -> personBox("shape:p", nth));
    SseClient sse = server.events(ROOM);
    List<SseEvent> events =
        runToEnd(
            sse,
            List.of(
                ScriptedModel.call("think", new JsonObject().put("text", "Three boxes.")),
                create("first", 0),
                create("never", 200),
                create("after", 400)));

    JsonObject end = events.get(events.size() - 1).data();
    JsonObject detail = end.getJsonObject("detail");
    assertEquals("error", end.getString("state"), end.encode());
    assertEquals("REVISION_CONFLICT", detail.getString("code"), end.encode());
    assertEquals(true, detail.getBoolean("retryable"), end.encode());
    assertTrue(detail.getString("reason").contains("1000 ms"), end.encode());
    assertEquals(
        2, detail.getInteger("applied"), "the think and the first create: " + end.encode());
    assertTrue(
        attempts.get() > 3,
        "retried past the old fixed three attempts, until its patience ran out: " + attempts.get());
    assertTrue(
        detail.getString("reason").contains(attempts.get() + " attempts"),
        "the reason counts the attempts: " + end.encode());
    List<String> ids =
        server.board(ROOM).getJsonArray("records").stream()
            .map(record -> ((JsonObject) record).getString("id"))
            .toList();
    assertTrue(ids.contains("shape:first"), ids.toString());
    assertFalse(ids.contains("shape:never"), ids.toString());
    assertFalse(ids.contains("shape:after"), ids.toString());
    Await.result(sse.close());
  }
}
