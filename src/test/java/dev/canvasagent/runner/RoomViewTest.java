package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RichText;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.BoardSnapshot;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomView;
import dev.canvasagent.bus.RoomViewRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.runner.context.BuiltContext;
import dev.canvasagent.runner.context.ContextBuilder;
import dev.canvasagent.runner.context.ContextInputs;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.GeneratedBoards;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code runner.view}, against the real verticles: the room as a run's model sees it (the same
 * shapes, viewport, selection and clusters as the context builder gives a run), from the request's
 * viewport, the host's, or the whole board; the host's screenshot when asked, and why not when there
 * is none; an empty room as an empty board; bad requests refused naming the field.
 */
@ExtendWith(VertxExtension.class)
class RoomViewTest {
  static final Viewport VIEW = new Viewport(100, 50, 800, 600);

  Vertx vertx;
  TestServer server;
  String roomId;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = TestServer.start(vertx, Optional.empty());
    roomId = "view-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  /** A box labeled A at 150.6, 80 and a small one far away, as one person's change. */
  void drawBoxAndFarOne() {
    JsonObject box = TestShapes.geo("box1", 150.6, 80, 100, 50);
    box.getJsonObject("props").put("richText", RichText.of("A"));
    change(List.of(box, TestShapes.at("a2", TestShapes.geo("far", 5000, 5000, 10, 10))));
  }

  void change(List<JsonObject> records) {
    JsonObject body =
        new JsonObject().put("baseRevision", revision()).put("put", new JsonArray(records));
    var changed =
        Await.result(server.http().post("/api/rooms/" + roomId + "/changes").sendJsonObject(body));
    assertEquals(200, changed.statusCode(), changed.bodyAsString());
  }

  long revision() {
    return server.board(roomId).getLong("revision");
  }

  RoomView view(RoomViewRequest request) {
    return Await.result(Address.RUNNER_VIEW.ask(vertx.eventBus(), request));
  }

  Board board() {
    return Await.result(
        Address.PATCH_BOARD_GET
            .ask(vertx.eventBus(), BoardRef.current(roomId))
            .map(BoardSnapshot::board));
  }

  /** What the context builder gives a run of this room with that origin, viewport and selection. */
  JsonObject promptContext(Origin origin, Viewport viewport, List<String> selection) {
    ContextInputs inputs =
        new ContextInputs(
            roomId,
            "session-1",
            "look",
            board(),
            origin,
            viewport,
            selection,
            null,
            null,
            Map.of());
    BuiltContext built =
        ContextBuilder.create(server.config(), System::currentTimeMillis).build(inputs, 0);
    return built.context();
  }

  static JsonArray array(List<JsonObject> objects) {
    return new JsonArray(List.copyOf(objects));
  }

  @Test
  void aViewportAskedForShowsTheShapesARunsPromptShows() {
    drawBoxAndFarOne();

    RoomView view = view(new RoomViewRequest(roomId, false, VIEW));

    assertEquals(roomId, view.roomId());
    assertEquals(1, view.revision());
    assertEquals("request", view.viewportSource());
    assertEquals(new RoomView.Bounds(0, 0, 800, 600), view.viewport());
    assertEquals(100, view.frame().originX(), "the view's top-left, as a session's first run");
    assertEquals(50, view.frame().originY());
    assertEquals(
        List.of(
            new JsonObject()
                .put("id", "box1")
                .put("type", "rectangle")
                .put("x", 51)
                .put("y", 30)
                .put("w", 100)
                .put("h", 50)
                .put("text", "A")),
        view.shapes());
    assertEquals(
        150.6,
        view.frame().toPage("shape:box1", "x", 51),
        1e-9,
        "the frame maps the model's x back to the page's, rounding restored");
    assertEquals(1, view.peripheral().size());
    assertEquals(1, view.peripheral().get(0).getInteger("count"));
    assertEquals(new RoomView.Counts(2, 1, 1, 1, 1, 0), view.counts());
    assertEquals(List.of(), view.selection());
    assertNull(view.image());
    assertNull(view.imageUnavailable(), "no screenshot asked, none missing");

    JsonObject prompt = promptContext(new Origin(100, 50), VIEW, List.of());
    assertEquals(prompt.getJsonArray(ModelContext.SHAPES), array(view.shapes()));
    assertEquals(prompt.getJsonArray(ModelContext.PERIPHERAL), array(view.peripheral()));
    assertEquals(prompt.getJsonObject(ModelContext.VIEWPORT), view.viewport().toJson());
  }

  @Test
  void anOriginGivenKeepsTheModelsCoordinatesWhereverTheViewIs() {
    drawBoxAndFarOne();

    RoomView view =
        view(new RoomViewRequest(roomId, false, VIEW, new RoomViewRequest.Origin(0, 0)));

    assertEquals(new RoomView.Bounds(100, 50, 800, 600), view.viewport());
    assertEquals(151, view.shapes().get(0).getInteger("x"));
    assertEquals(
        promptContext(Origin.ZERO, VIEW, List.of()).getJsonArray(ModelContext.SHAPES),
        array(view.shapes()));
  }

  @Test
  void withoutOneTheHostsViewportAndSelectionAreTheViews() {
    drawBoxAndFarOne();
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), roomId)).autoAck();
    host.send(
        "canvas:viewport",
        new JsonObject()
            .put("bounds", new JsonObject().put("x", 140).put("y", 70).put("w", 400).put("h", 300))
            .put("selection", new JsonArray().add("shape:box1").add("shape:ghost")));
    // A frame the bridge refuses comes back after the viewport was handled: then the viewport is
    // in.
    host.send(
        "agent:ack",
        new JsonObject().put("sessionId", "none").put("seq", 1).put("clientId", host.clientId()));
    Await.result(host.awaitTopic("error", error -> "ACK_UNKNOWN".equals(error.getString("code"))));

    RoomView view = view(new RoomViewRequest(roomId, false, null));

    assertEquals("host", view.viewportSource());
    assertEquals(new RoomView.Bounds(0, 0, 400, 300), view.viewport());
    assertEquals(List.of("box1"), view.selection(), "the shape not on the board is left out");
    assertEquals("box1", view.selectedShapes().get(0).getString("id"));
    assertEquals("rectangle", view.selectedShapes().get(0).getString("type"));
    assertEquals(1, view.counts().selected());
    JsonObject prompt =
        promptContext(new Origin(140, 70), new Viewport(140, 70, 400, 300), List.of("shape:box1"));
    assertEquals(prompt.getJsonArray(ModelContext.SHAPES), array(view.shapes()));
    assertEquals(prompt.getJsonArray(ModelContext.SELECTION), new JsonArray(view.selection()));
    assertEquals(prompt.getJsonArray(ModelContext.SELECTED_SHAPES), array(view.selectedShapes()));
    Await.result(host.close());
  }

  @Test
  void withNoViewportAtAllTheViewIsTheWholeBoard() {
    drawBoxAndFarOne();

    RoomView view = view(new RoomViewRequest(roomId, false, null));

    assertEquals("board", view.viewportSource());
    assertEquals(0, view.frame().originX(), "0,0 without a viewport, as a run");
    assertEquals(new RoomView.Bounds(151, 80, 4859, 4930), view.viewport());
    assertEquals(
        List.of("box1", "far"), view.shapes().stream().map(s -> s.getString("id")).toList());
    assertEquals(List.of(), view.peripheral());
    assertEquals(new RoomView.Counts(2, 2, 2, 0, 0, 0), view.counts());
    assertEquals(
        promptContext(Origin.ZERO, null, List.of()).getJsonArray(ModelContext.SHAPES),
        array(view.shapes()));
  }

  @Test
  void aRoomNothingWasDrawnInIsAnEmptyBoardAtRevisionZero() {
    RoomView view = view(new RoomViewRequest(roomId, false, null));

    assertEquals(0, view.revision());
    assertEquals("board", view.viewportSource());
    assertEquals(new RoomView.Bounds(0, 0, 0, 0), view.viewport());
    assertEquals(List.of(), view.shapes());
    assertEquals(List.of(), view.peripheral());
    assertEquals(new RoomView.Counts(0, 0, 0, 0, 0, 0), view.counts());
    assertEquals(0, revision(), "looking drew nothing");
  }

  @Test
  void aLargeBoardsShapesOutsideTheViewAreItsClusters() {
    Board generated = GeneratedBoards.generate(7, 400);
    change(List.copyOf(generated.records().values()));
    Viewport viewport = new Viewport(0, 0, 800, 600);

    RoomView view = view(new RoomViewRequest(roomId, false, viewport));

    assertTrue(view.peripheral().size() > 3, view.peripheral().toString());
    int clustered =
        view.peripheral().stream().mapToInt(cluster -> cluster.getInteger("count")).sum();
    assertTrue(clustered <= view.counts().outOfView(), view.counts().toString());
    assertEquals(
        clustered < view.counts().outOfView(),
        view.cut().contains("peripheral"),
        "the clusters the part's budget left out are said to be cut: " + view.cut());
    assertEquals(view.peripheral().size(), view.counts().clusters());
    assertTrue(view.counts().shapes() >= 400, view.counts().toString());
    assertEquals(view.counts().inView(), view.shapes().size());
    assertTrue(
        view.counts().inView() + view.counts().outOfView() <= view.counts().shapes(),
        view.counts().toString());
    JsonObject prompt = promptContext(new Origin(0, 0), viewport, List.of());
    assertEquals(prompt.getJsonArray(ModelContext.PERIPHERAL), array(view.peripheral()));
    assertEquals(prompt.getJsonArray(ModelContext.SHAPES), array(view.shapes()));
  }

  @Test
  void aScreenshotAskedForIsTheHostsImage() {
    drawBoxAndFarOne();
    RunLogTest.host(vertx, roomId);

    RoomView view = view(new RoomViewRequest(roomId, true, VIEW));

    assertEquals(new RoomView.Image("image/png", RunLogTest.IMAGE_BASE64), view.image());
    assertNull(view.imageUnavailable());
    assertEquals(1, view.shapes().size(), "the rest of the view as without one");
  }

  @Test
  void withoutAHostTheViewSaysWhyItHasNoImage() {
    drawBoxAndFarOne();

    RoomView view = view(new RoomViewRequest(roomId, true, VIEW));

    assertNull(view.image());
    assertEquals("NO_HOST", view.imageUnavailable().code());
    assertFalse(view.imageUnavailable().reason().isBlank());
    assertEquals(1, view.shapes().size(), "a view without its image is still the view");
  }

  @Test
  void anImageOverTheScreenshotBudgetIsSaidToBeOverIt() {
    Await.result(server.stop());
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of("CANVAS_AGENT_CONFIG", "{\"context\":{\"budgets\":{\"screenshot\":8}}}")));
    drawBoxAndFarOne();
    RunLogTest.host(vertx, roomId);

    RoomView view = view(new RoomViewRequest(roomId, true, VIEW));

    assertNull(view.image(), "a run's model would not get it either");
    assertEquals("OVER_BUDGET", view.imageUnavailable().code());
    assertEquals(List.of("screenshot"), view.cut());
    assertEquals(1, view.shapes().size());
  }

  @Test
  void badRequestsAreRefusedNamingTheFieldAndChangeNothing() {
    drawBoxAndFarOne();
    long before = revision();

    assertRefused("roomId", new RoomViewRequest(" ", false, null));
    assertRefused("roomId", new RoomViewRequest("a.b", false, null));
    assertRefused("viewport", new RoomViewRequest(roomId, false, new Viewport(0, 0, -1, 10)));
    assertRefused(
        "viewport", new RoomViewRequest(roomId, false, new Viewport(0, 0, 10, Double.NaN)));
    assertRefused(
        "origin",
        new RoomViewRequest(roomId, false, VIEW, new RoomViewRequest.Origin(Double.NaN, 0)));
    assertRefusedJson("roomId", new JsonObject().put("screenshot", false));
    assertRefusedJson(
        "screenshot", new JsonObject().put("roomId", roomId).put("screenshot", "yes"));

    assertEquals(before, revision());
    assertEquals(1, view(new RoomViewRequest(roomId, false, VIEW)).shapes().size());
  }

  void assertRefused(String field, RoomViewRequest request) {
    assertRefusedFuture(field, Address.RUNNER_VIEW.ask(vertx.eventBus(), request));
  }

  /** A body no {@link RoomViewRequest} would write, sent raw as another node's could be. */
  void assertRefusedJson(String field, JsonObject body) {
    assertRefusedFuture(
        field,
        vertx
            .eventBus()
            .<JsonObject>request(Address.RUNNER_VIEW.address(), body)
            .map(reply -> reply.body()));
  }

  static void assertRefusedFuture(String field, Future<?> answer) {
    Throwable error = Await.failure(answer);
    Failure failure = Failure.of(error);
    assertEquals(FailureCode.INVALID_REQUEST, failure.code(), error.toString());
    assertTrue(failure.getMessage().contains(field), failure.getMessage());
  }

  @Test
  void theViewCrossesTheBusAsJsonAndReadsBack() {
    drawBoxAndFarOne();
    RoomView view = view(new RoomViewRequest(roomId, true, VIEW));
    JsonObject json = view.toJson();
    assertEquals(json, RoomView.fromJson(json).toJson());
    assertEquals(
        CoordinateFrame.fromJson(json.getJsonObject("frame")).toJson(), view.frame().toJson());
    assertTrue(json.containsKey("imageUnavailable"));
    assertFalse(json.containsKey("image"));
  }
}
