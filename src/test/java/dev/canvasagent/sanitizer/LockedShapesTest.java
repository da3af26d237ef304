package dev.canvasagent.sanitizer;

import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.bus.AcceptedAction;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.SanitizeRequest;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.LockedRefusal;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.patch.PatchEngineVerticle;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 17: locked shapes survive every verb. Each board verb of the catalog is run, through the real
 * sanitizer and patch engine, against a board where a person locked a shape ({@code lk}), a group
 * ({@code lg}, with its two children) and a frame ({@code lf}, holding a group {@code g} that holds
 * {@code kid} and {@code kid2}, none locked itself). Whatever the verb, every one of those records is
 * exactly as it was afterwards; an action that would have changed one is refused ACTION_INVALID with
 * the {@code locked:} reason naming it, and one that leaves them be is committed.
 */
@ExtendWith(VertxExtension.class)
class LockedShapesTest {
  static final ActionCatalog CATALOG = ActionCatalog.standard();
  static final Set<String> HELD =
      Set.of(
          "shape:lk",
          "shape:lg",
          "shape:lg1",
          "shape:lg2",
          "shape:lf",
          "shape:g",
          "shape:kid",
          "shape:kid2");

  /** The board verbs there were when the cases below were written, each with a case. */
  static final Set<String> KNOWN_BOARD_VERBS =
      Set.of(
          "create_shape",
          "batch_operations",
          "update_shape",
          "delete_shape",
          "move",
          "resize",
          "rotate",
          "group",
          "ungroup",
          "align",
          "distribute",
          "stack",
          "reorder",
          "place",
          "label",
          "pen",
          "apply_preset",
          "clear");

  static final int SEQUENCES = 10;
  static final int ACTIONS_PER_SEQUENCE = 40;

  Vertx vertx;
  int rooms;

  /**
   * One action and what must become of it: refused naming {@code named} (the shapes as the model
   * knows them), or committed ({@code named} empty).
   */
  record Case(String verb, JsonObject params, List<String> named) {
    boolean refused() {
      return !named.isEmpty();
    }

    @Override
    public String toString() {
      return verb + " " + params.encode() + (refused() ? " refused " + named : " committed");
    }
  }

  static Case refused(String verb, JsonObject params, String... named) {
    return new Case(verb, params, List.of(named));
  }

  static Case committed(String verb, JsonObject params) {
    return new Case(verb, params, List.of());
  }

  static JsonObject locked(JsonObject record) {
    return record.put("isLocked", true);
  }

  static List<JsonObject> lockedBoard() {
    return List.of(
        geo("free", -300, 0, 100, 80).put("index", "a1"),
        geo("free2", 600, 200, 100, 80).put("index", "a2"),
        locked(geo("lk", 0, 0, 100, 80)).put("index", "a3"),
        locked(group("lg", 0, 150)).put("index", "a4"),
        in("lg", geo("lg1", 0, 0, 50, 50)).put("index", "a1"),
        in("lg", geo("lg2", 80, 0, 50, 50)).put("index", "a2"),
        locked(frame("lf", 0, 300, 400, 300)).put("index", "a5"),
        in("lf", group("g", 0, 0)),
        in("g", geo("kid", 10, 10, 100, 80)).put("index", "a1"),
        in("g", geo("kid2", 150, 10, 100, 80)).put("index", "a2"));
  }

  static JsonArray ids(String... ids) {
    return new JsonArray(Arrays.asList((Object[]) ids));
  }

  static JsonObject params(Object... pairs) {
    JsonObject params = new JsonObject();
    for (int i = 0; i < pairs.length; i += 2) {
      params.put((String) pairs[i], pairs[i + 1]);
    }
    return params;
  }

  static JsonObject point(double x, double y) {
    return new JsonObject().put("x", x).put("y", y);
  }

  /** The verbs that name one shape: the locked one and the one deep inside the locked frame. */
  static Stream<Case> onEachHeldShape(String verb, Function<String, JsonObject> params) {
    return Stream.of(
        refused(verb, params.apply("lk"), "lk"), refused(verb, params.apply("kid"), "kid"));
  }

  static Stream<Case> cases() {
    List<Stream<Case>> cases = new ArrayList<>();
    cases.add(
        onEachHeldShape(
            "update_shape",
            id -> params("shapeId", id, "props", new JsonObject().put("color", "red"))));
    cases.add(onEachHeldShape("update_shape", id -> params("shapeId", id, "x", 40)));
    cases.add(onEachHeldShape("delete_shape", id -> params("shapeIds", ids(id))));
    cases.add(
        Stream.of(
            // Deleting the group inside the locked frame, and a group a person locked.
            refused("delete_shape", params("shapeId", "g"), "g", "kid", "kid2"),
            refused("delete_shape", params("shapeIds", ids("free", "lg")), "lg", "lg1", "lg2")));
    cases.add(onEachHeldShape("move", id -> params("shapeIds", ids(id), "dx", 50, "dy", 0)));
    cases.add(
        Stream.of(refused("move", params("shapeIds", ids("lg1"), "x", 500, "y", 500), "lg1")));
    cases.add(
        onEachHeldShape("resize", id -> params("shapeIds", ids(id), "scaleX", 2, "scaleY", 2)));
    cases.add(onEachHeldShape("rotate", id -> params("shapeIds", ids(id), "degrees", 45)));
    cases.add(
        Stream.of(
            refused("group", params("shapeIds", ids("free", "lk")), "lk"),
            refused("group", params("shapeIds", ids("kid", "kid2")), "g", "kid", "kid2"),
            refused("ungroup", params("shapeIds", ids("lg")), "lg", "lg1", "lg2"),
            refused("ungroup", params("shapeIds", ids("g")), "g", "kid", "kid2")));
    cases.add(
        Stream.of(
            // Left: the locked shape would move to the free one's edge.
            refused("align", params("shapeIds", ids("free", "lk"), "alignment", "left"), "lk"),
            // Right: the locked shape is the edge the free one moves to, and stays where it is.
            committed("align", params("shapeIds", ids("free", "lk"), "alignment", "right")),
            refused(
                "distribute",
                params("shapeIds", ids("free", "lk", "free2"), "direction", "horizontal"),
                "lk"),
            refused(
                "stack",
                params("shapeIds", ids("free", "lk"), "direction", "horizontal", "gap", 10),
                "lk")));
    cases.add(onEachHeldShape("reorder", id -> params("shapeIds", ids(id), "to", "front")));
    cases.add(
        Stream.of(
            refused(
                "place",
                params("shapeId", "lk", "referenceShapeId", "free", "side", "right"),
                "lk"),
            // Placing a free shape next to a locked one changes only the free one.
            committed(
                "place", params("shapeId", "free", "referenceShapeId", "lk", "side", "right"))));
    cases.add(onEachHeldShape("label", id -> params("shapeId", id, "text", "renamed")));
    cases.add(
        onEachHeldShape("apply_preset", id -> params("preset", "Hero", "targetIds", ids(id))));
    cases.add(
        Stream.of(
            // Everything but the locked shapes, and what they sit in, goes.
            committed("clear", new JsonObject()),
            // Drawn across the locked frame: a new shape on the page, never inside the frame.
            committed(
                "create_shape", params("type", "rectangle", "x", 50, "y", 350, "text", "new")),
            // An arrow may bind to a locked shape: the binding leaves the shape as it is.
            committed(
                "create_shape",
                params("type", "arrow", "id", "link", "fromId", "free", "toId", "lk")),
            committed(
                "pen", params("points", new JsonArray().add(point(0, 350)).add(point(300, 500)))),
            committed(
                "batch_operations",
                params(
                    "operations",
                    new JsonArray()
                        .add(params("op", "createFrame", "ref", "frame_new", "name", "New"))
                        .add(
                            params(
                                "op",
                                "createNote",
                                "ref",
                                "note_a",
                                "text",
                                "a",
                                "parentRef",
                                "frame_new"))
                        // A model naming the locked frame as a parent: it cannot, so top-level.
                        .add(
                            params(
                                "op",
                                "createNote",
                                "ref",
                                "note_b",
                                "text",
                                "b",
                                "parentRef",
                                "lf"))))));
    return cases.stream().flatMap(Function.identity());
  }

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    NodeBoards boards = new NodeBoards();
    Await.result(vertx.deployVerticle(new SanitizerVerticle(CATALOG, true, boards)));
    Await.result(
        vertx.deployVerticle(
            new PatchEngineVerticle(
                new MemoryStore(), TestServer.config(Map.of()).boardCache(), boards)));
  }

  /**
   * The cases were written for every board verb there was; a verb added later needs no case here to be
   * held to the lock, as the one check is on its diff and the property below runs it.
   */
  @Test
  void theCasesCoverEveryBoardVerbTheyWereWrittenFor() {
    Set<String> boardVerbs =
        CATALOG.entries().stream()
            .filter(entry -> entry.verb().kind() == VerbKind.BOARD)
            .map(entry -> entry.verb().name())
            .collect(Collectors.toSet());
    assertTrue(boardVerbs.containsAll(KNOWN_BOARD_VERBS), boardVerbs.toString());
    assertEquals(
        new TreeSet<>(KNOWN_BOARD_VERBS),
        cases().map(Case::verb).collect(Collectors.toCollection(TreeSet::new)));
  }

  /**
   * Property: random actions of every verb of the catalog (params from its schema, shape ids drawn
   * from the board, so the locked ones often), through the real sanitizer and patch engine, never
   * change a shape a lock holds; seeds are fixed, so a failure reproduces.
   */
  @Test
  void randomActionsOfEveryVerbNeverChangeALockedShape() {
    int refusedLocked = 0;
    for (int seed = 1; seed <= SEQUENCES; seed++) {
      String roomId = "locked-property-" + seed;
      RandomActions actions = new RandomActions(seed);
      Board start =
          commit(Board.empty(roomId), RecordDiff.putting(lockedBoard().toArray(JsonObject[]::new)));
      Map<String, JsonObject> held = new HashMap<>();
      HELD.forEach(id -> held.put(id, start.record(id).orElseThrow()));
      Board board = start;
      for (int step = 0; step < ACTIONS_PER_SEQUENCE; step++) {
        String verb = actions.verb();
        AgentAction action = new AgentAction(seed + ":" + step, verb, actions.params(verb, board));
        Future<AcceptedAction> sanitized =
            Address.SANITIZER_SANITIZE.ask(
                vertx.eventBus(),
                new SanitizeRequest(roomId, action, board.revision(), CoordinateFrame.atOrigin()));
        Board next = board;
        try {
          AcceptedAction accepted = Await.result(sanitized);
          if ("BOARD".equals(accepted.kind()) && board.changedBy(accepted.diff())) {
            next = commit(board, accepted.diff());
          }
        } catch (RuntimeException refused) {
          if (LockedRefusal.isLocked(refused.getMessage())) {
            refusedLocked++;
          }
        }
        for (var entry : held.entrySet()) {
          assertEquals(
              Optional.of(entry.getValue()),
              next.record(entry.getKey()),
              "seed " + seed + " step " + step + " " + verb + " " + action.params().encode());
        }
        board = next;
      }
    }
    assertTrue(refusedLocked > 0, "some actions named the locked shapes and were refused");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void lockedShapesAreUnchangedAfterTheAction(Case action) {
    String roomId = "locked-" + action.verb() + "-" + ++rooms;
    Board before =
        commit(Board.empty(roomId), RecordDiff.putting(lockedBoard().toArray(JsonObject[]::new)));

    Future<AcceptedAction> sanitized =
        Address.SANITIZER_SANITIZE.ask(
            vertx.eventBus(),
            new SanitizeRequest(
                roomId,
                new AgentAction("a1", action.verb(), action.params()),
                before.revision(),
                CoordinateFrame.atOrigin()));

    if (action.refused()) {
      Failure failure = Failure.of(Await.failure(sanitized));
      assertEquals(FailureCode.ACTION_INVALID, failure.code(), failure.getMessage());
      assertTrue(LockedRefusal.isLocked(failure.getMessage()), failure.getMessage());
      assertTrue(
          failure.getMessage().contains("[" + String.join(", ", action.named()) + "]"),
          failure.getMessage());
    } else {
      RecordDiff diff = Await.result(sanitized).diff();
      assertFalse(diff.isEmpty(), "the action changes the board");
      commit(before, diff);
    }

    Board after =
        Await.result(Address.PATCH_BOARD_GET.ask(vertx.eventBus(), BoardRef.current(roomId)))
            .board();
    for (String id : HELD) {
      assertEquals(before.record(id), after.record(id), id + " is as the person left it");
    }
    for (JsonObject record : after.records().values()) {
      if ("shape".equals(record.getString("typeName"))
          && !before.records().containsKey(record.getString("id"))) {
        assertFalse(
            HELD.contains(record.getString("parentId")),
            "a new shape is never put inside a locked frame or group: " + record.encode());
      }
    }
  }

  @Test
  void clearLeavesTheLockedShapesAndWhatTheySitInAndRemovesTheRest() {
    String roomId = "locked-clear";
    Board board =
        commit(
            Board.empty(roomId),
            RecordDiff.putting(
                geo("free", 0, 0, 100, 80),
                frame("open", 200, 0, 400, 300),
                in("open", locked(geo("pinned", 10, 10, 50, 50))),
                in("open", geo("loose", 100, 10, 50, 50).put("index", "a2"))));

    AcceptedAction cleared = sanitize(roomId, board, "clear", new JsonObject());

    assertEquals(Set.of("shape:free", "shape:loose"), Set.copyOf(cleared.diff().remove()));
    Board after = commit(board, cleared.diff());
    assertEquals(Set.of("shape:open", "shape:pinned"), shapeIds(after));

    Failure again =
        Failure.of(
            Await.failure(
                Address.SANITIZER_SANITIZE.ask(
                    vertx.eventBus(),
                    new SanitizeRequest(
                        roomId,
                        new AgentAction("a2", "clear", new JsonObject()),
                        after.revision(),
                        CoordinateFrame.atOrigin()))));
    assertEquals(FailureCode.ACTION_INVALID, again.code());
    assertTrue(again.getMessage().startsWith("locked: shape(s) [pinned]"), again.getMessage());
  }

  @Test
  void aBatchNamingTheLockedFrameAsParentPlacesTheObjectTopLevelAndSaysWhy() {
    String roomId = "locked-batch";
    Board board =
        commit(Board.empty(roomId), RecordDiff.putting(lockedBoard().toArray(JsonObject[]::new)));

    AcceptedAction batch =
        sanitize(
            roomId,
            board,
            "batch_operations",
            params(
                "operations",
                new JsonArray()
                    .add(
                        params(
                            "op", "createNote", "ref", "note_b", "text", "b", "parentRef", "lf"))));

    JsonArray placed =
        batch.action().params().getJsonObject("result").getJsonArray("placedTopLevel");
    assertEquals(1, placed.size(), placed.encode());
    assertEquals("note_b", placed.getJsonObject(0).getString("ref"));
    assertTrue(placed.getJsonObject(0).getString("reason").contains("placed top-level"));
    assertTrue(
        batch.diff().put().stream()
            .filter(record -> "shape".equals(record.getString("typeName")))
            .allMatch(record -> ShapeRecords.PAGE_ID.equals(record.getString("parentId"))));
  }

  AcceptedAction sanitize(String roomId, Board board, String verb, JsonObject params) {
    return Await.result(
        Address.SANITIZER_SANITIZE.ask(
            vertx.eventBus(),
            new SanitizeRequest(
                roomId,
                new AgentAction("a1", verb, params),
                board.revision(),
                CoordinateFrame.atOrigin())));
  }

  /** Commits {@code diff} on {@code board} as a person would; the board after it. */
  Board commit(Board board, RecordDiff diff) {
    long revision =
        Await.result(
                Address.PATCH_BOARD_APPLY.ask(
                    vertx.eventBus(),
                    new BoardChangeRequest(board.roomId(), board.revision(), diff, "person")))
            .revision();
    return board.apply(diff, revision);
  }

  static Set<String> shapeIds(Board board) {
    return board.records().values().stream()
        .filter(record -> "shape".equals(record.getString("typeName")))
        .map(record -> record.getString("id"))
        .collect(Collectors.toSet());
  }
}
