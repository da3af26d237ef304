package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.bus.ActionOutcome;
import dev.canvasagent.bus.ActionOutcome.Adjustment;
import dev.canvasagent.bus.ActionOutcome.DroppedPart;
import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.OutsideAction;
import dev.canvasagent.bus.SessionCreate;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
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
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code runner.act}, end to end over the real verticles: a board action from outside a run (an MCP
 * client's call) is judged by the sanitizer, committed by the patch engine and reaches the room's
 * watchers as one {@code agent:action} envelope of the caller's session, exactly like a run's; its
 * answer says what the sanitizer changed or left out; a refused one changes nothing and sends nothing.
 */
@ExtendWith(VertxExtension.class)
abstract class OutsideActionContract {
  Vertx vertx;
  TestServer server;
  String room;
  String session;
  final List<Handler<DeliveryContext<Object>>> interceptors = new ArrayList<>();

  abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = TestServer.start(vertx, database());
    room = "act-" + UUID.randomUUID().toString().substring(0, 8);
    session = newSession(room);
  }

  @AfterEach
  void stop() {
    interceptors.forEach(vertx.eventBus()::removeInboundInterceptor);
    Await.result(server.stop());
  }

  String newSession(String roomId) {
    return Await.result(
            Address.SCHEDULER_SESSION_CREATE.ask(
                vertx.eventBus(), new SessionCreate(roomId, "mcp", null, null)))
        .session()
        .getString("id");
  }

  Future<ActionOutcome> send(String sessionId, String verb, JsonObject params) {
    return Address.RUNNER_ACT.ask(
        vertx.eventBus(),
        new OutsideAction(
            room,
            sessionId,
            new AgentAction("mcp:" + UUID.randomUUID(), verb, params),
            Actor.agent("mcp-client", sessionId)));
  }

  ActionOutcome act(String verb, JsonObject params) {
    return Await.result(send(session, verb, params));
  }

  Failure refused(String sessionId, String verb, JsonObject params) {
    return Failure.of(Await.failure(send(sessionId, verb, params)));
  }

  long revision() {
    return server.board(room).getLong("revision");
  }

  JsonObject record(String id) {
    return server.board(room).getJsonArray("records").stream()
        .map(JsonObject.class::cast)
        .filter(record -> id.equals(record.getString("id")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no record " + id + " on the board"));
  }

  static Predicate<SseEvent> envelopeOf(String actionId) {
    return event ->
        event.event().equals("agent:action")
            && event
                .data()
                .getJsonArray("actions")
                .getJsonObject(0)
                .getString("id")
                .equals(actionId);
  }

  static JsonObject box(String id, int x) {
    return new JsonObject()
        .put("id", id)
        .put("type", "rectangle")
        .put("x", x)
        .put("y", 0)
        .put("text", id)
        .put("props", new JsonObject().put("w", 100).put("h", 50));
  }

  static JsonObject note(String ref, String text) {
    return new JsonObject().put("op", "createNote").put("ref", ref).put("text", text);
  }

  /** A person's change on the current board: its revision read first, sent again if it moved. */
  Future<Void> personChange(JsonObject change) {
    return server
        .http()
        .get("/api/rooms/" + room + "/board")
        .send()
        .compose(
            board ->
                server
                    .http()
                    .post("/api/rooms/" + room + "/changes")
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

  static JsonObject personBox(String id, double x, boolean locked) {
    JsonObject shape =
        ShapeRecords.shape(
            id, "geo", x, 500, "a1", ShapeRecords.geoProps("rectangle", 80, 40, "p"));
    return new JsonObject().put("put", new JsonArray().add(shape.put("isLocked", locked)));
  }

  @Test
  void aCreatedShapeIsOnTheBoardAndTheRoomSeesOneEnvelopeOfTheSession() {
    SseClient sse = server.events(room);
    long before = revision();
    ActionOutcome outcome = act("create_shape", box("box1", 100));

    assertTrue(outcome.changed());
    assertEquals("create_shape", outcome.verb());
    assertEquals(before + 1, outcome.revision());
    assertEquals(outcome.revision(), revision());
    assertEquals(List.of("shape:box1"), outcome.created());
    assertEquals(List.of(), outcome.updated());
    assertEquals(List.of(), outcome.removed());
    assertEquals("geo", record("shape:box1").getString("type"));
    assertEquals("shape:box1", outcome.params().getString("id"));

    SseEvent envelope = Await.result(sse.awaitEvent(envelopeOf(outcome.actionId()))).get(0);
    List<SseEvent> envelopes =
        sse.received().stream().filter(event -> event.event().equals("agent:action")).toList();
    assertEquals(1, envelopes.size(), envelopes.toString());
    envelope = envelopes.get(0);
    JsonObject data = envelope.data();
    assertEquals(session, data.getString("sessionId"));
    assertEquals(1, data.getLong("seq"));
    assertEquals(outcome.revision(), data.getLong("rev"));
    assertEquals(
        "shape:box1",
        data.getJsonObject("diff").getJsonArray("put").getJsonObject(0).getString("id"));
    assertEquals(
        outcome.params(), data.getJsonArray("actions").getJsonObject(0).getJsonObject("params"));
    Await.result(sse.close());
  }

  @Test
  void theCommitIsSignedByTheAuthor() {
    act("create_shape", box("signed", 0));
    JsonObject page = server.get("/api/rooms/" + room + "/revisions").bodyAsJsonObject();
    assertTrue(
        page.encode().contains("agent:" + session), "the revision's author: " + page.encode());
  }

  @Test
  void whatTheSanitizerChangedIsReportedAsAdjusted() {
    act("create_shape", box("box1", 0));
    ActionOutcome created = act("create_shape", box("box2", 300));
    assertTrue(
        created.adjusted().contains(new Adjustment("/id", "box2", "shape:box2")),
        created.adjusted().toString());
    assertTrue(
        created.adjusted().contains(new Adjustment("/type", "rectangle", "geo")),
        created.adjusted().toString());
    assertFalse(
        created.adjusted().stream().anyMatch(adjustment -> adjustment.path().equals("/x")),
        "an unchanged number is not adjusted, whatever its type: " + created.adjusted());

    ActionOutcome resized =
        act(
            "resize",
            new JsonObject()
                .put("shapeIds", new JsonArray().add("box1"))
                .put("scaleX", 1000)
                .put("scaleY", 1));
    assertTrue(
        resized.adjusted().contains(new Adjustment("/scaleX", 1000, 100.0)),
        "clamped to 100: " + resized.adjusted());
    assertTrue(
        resized.adjusted().contains(new Adjustment("/shapeIds/0", "box1", "shape:box1")),
        resized.adjusted().toString());
    assertEquals(List.of("shape:box1"), resized.updated());
    assertEquals(List.of(), resized.created());

    ActionOutcome batch =
        act(
            "batch_operations",
            new JsonObject()
                .put(
                    "operations", new JsonArray().add(note("note_a", "a").put("color", "purple"))));
    assertTrue(
        batch.adjusted().contains(new Adjustment("/operations/0/color", "purple", "violet")),
        batch.adjusted().toString());
  }

  @Test
  void aBatchsBadOperationIsReportedAsDroppedAndTheRestLands() {
    SseClient sse = server.events(room);
    ActionOutcome outcome =
        act(
            "batch_operations",
            new JsonObject()
                .put(
                    "operations",
                    new JsonArray()
                        .add(note("note_a", "first"))
                        .add(note("note_a", "second"))
                        .add(note("note_b", "third").put("parentRef", "frame_nowhere"))));

    assertTrue(outcome.changed());
    assertEquals(2, outcome.created().size(), outcome.created().toString());
    assertEquals(2, outcome.dropped().size(), outcome.dropped().toString());
    DroppedPart skipped = outcome.dropped().get(0);
    assertEquals("/operations/1", skipped.path());
    assertEquals(AppliedParams.OPERATION_SKIPPED, skipped.code());
    assertTrue(skipped.reason().contains("duplicate ref 'note_a'"), skipped.reason());
    DroppedPart parent = outcome.dropped().get(1);
    assertEquals("/operations/2/parentRef", parent.path());
    assertEquals(AppliedParams.PARENT_DROPPED, parent.code());
    assertTrue(parent.reason().contains("frame_nowhere"), parent.reason());
    outcome.created().forEach(id -> assertEquals("note", record(id).getString("type")));
    Await.result(sse.awaitEvent(envelopeOf(outcome.actionId())));
    Await.result(sse.close());
  }

  @Test
  void aRefusedActionChangesNothingAndSendsNothing() {
    act("create_shape", box("box1", 0));
    Await.result(personChange(personBox("shape:locked", 400, true)));
    SseClient sse = server.events(room);
    long before = revision();
    String otherRoomsSession = newSession(room + "-other");

    Failure unknown = refused(session, "create_shapes", box("x1", 0));
    assertEquals(FailureCode.ACTION_INVALID, unknown.code());
    assertTrue(unknown.getMessage().contains("create_shapes"), unknown.getMessage());

    Failure schema = refused(session, "create_shape", box("x2", 0).put("x", "left"));
    assertEquals(FailureCode.ACTION_INVALID, schema.code());
    assertTrue(
        schema.getMessage().contains("params do not match the create_shape schema"),
        schema.getMessage());

    Failure chat = refused(session, "think", new JsonObject().put("text", "hmm"));
    assertEquals(FailureCode.ACTION_INVALID, chat.code());
    assertTrue(chat.getMessage().contains("think is not a board verb"), chat.getMessage());
    Failure viewport =
        refused(
            session,
            "set_viewport",
            new JsonObject().put("x", 0).put("y", 0).put("w", 100).put("h", 100));
    assertEquals(FailureCode.ACTION_INVALID, viewport.code());
    assertTrue(viewport.getMessage().contains("not a board verb"), viewport.getMessage());

    Failure missing =
        refused(
            session, "update_shape", new JsonObject().put("shapeId", "ghost").put("text", "boo"));
    assertEquals(FailureCode.SHAPE_NOT_FOUND, missing.code());
    assertTrue(missing.getMessage().contains("ghost"), missing.getMessage());

    Failure duplicate = refused(session, "create_shape", box("box1", 0));
    assertEquals(FailureCode.ACTION_INVALID, duplicate.code());
    assertTrue(duplicate.getMessage().contains("already exists"), duplicate.getMessage());

    Failure locked =
        refused(
            session,
            "delete_shape",
            new JsonObject().put("shapeIds", new JsonArray().add("locked")));
    assertEquals(FailureCode.ACTION_INVALID, locked.code());
    assertTrue(locked.getMessage().contains("locked"), locked.getMessage());

    Failure otherRoom = refused(otherRoomsSession, "create_shape", box("x3", 0));
    assertEquals(FailureCode.SESSION_ROOM_MISMATCH, otherRoom.code());
    Failure noSession = refused("no-such-session", "create_shape", box("x4", 0));
    assertEquals(FailureCode.SESSION_NOT_FOUND, noSession.code());

    assertEquals(before, revision());
    // No seq was taken: the next envelope of the session is the one after the first action's.
    ActionOutcome next = act("create_shape", box("box2", 300));
    assertEquals(before + 1, next.revision());
    List<SseEvent> events = Await.result(sse.awaitEvent(envelopeOf(next.actionId())));
    List<SseEvent> envelopes =
        events.stream().filter(event -> event.event().equals("agent:action")).toList();
    assertEquals(1, envelopes.size(), envelopes.toString());
    assertEquals(2, envelopes.get(0).data().getLong("seq"));
    Await.result(sse.close());
  }

  @Test
  void anActionThatChangesNothingCommitsNothingAndSendsNothing() {
    act("create_shape", box("box1", 0));
    long before = revision();
    ActionOutcome same =
        act(
            "move",
            new JsonObject()
                .put("shapeIds", new JsonArray().add("box1"))
                .put("dx", 0)
                .put("dy", 0));
    assertFalse(same.changed());
    assertEquals(before, same.revision());
    assertEquals(before, revision());
    assertEquals(List.of(), same.updated());
  }

  @Test
  void aPersonsChangeMeanwhileIsMetByJudgingTheActionAgainOnTheFreshBoard() {
    AtomicInteger commits = new AtomicInteger();
    Handler<DeliveryContext<Object>> interceptor =
        delivery -> {
          if (!delivery.message().address().equals(Address.PATCH_BOARD_APPLY.address())
              || !(delivery.message().body() instanceof JsonObject body)
              || !body.encode().contains("shape:late")
              || commits.incrementAndGet() > 1) {
            delivery.next();
            return;
          }
          // The person commits just before the patch engine hears the action's first commit.
          Context context = Vertx.currentContext();
          personChange(personBox("shape:person", 700, false))
              .onComplete(changed -> context.runOnContext(go -> delivery.next()));
        };
    interceptors.add(interceptor);
    vertx.eventBus().addInboundInterceptor(interceptor);
    long before = revision();

    ActionOutcome outcome = act("create_shape", box("late", 0));

    assertEquals(2, commits.get(), "refused once as stale, then committed");
    assertTrue(outcome.changed());
    assertEquals(before + 2, outcome.revision(), "after the person's revision");
    assertEquals(outcome.revision(), revision());
    assertEquals("geo", record("shape:late").getString("type"));
    assertEquals("geo", record("shape:person").getString("type"));
  }

  @Test
  void oneSessionsCallsLandInTheOrderTheyArrived() {
    List<Future<ActionOutcome>> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(send(session, "create_shape", box("ordered" + i, i * 150)));
    }
    Await.result(Future.all(calls));
    for (int i = 1; i < calls.size(); i++) {
      assertEquals(
          calls.get(i - 1).result().revision() + 1,
          calls.get(i).result().revision(),
          "call " + i + " committed right after call " + (i - 1));
    }
  }
}
