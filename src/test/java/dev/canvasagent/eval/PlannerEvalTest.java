package dev.canvasagent.eval;

import static dev.canvasagent.eval.EvalRoom.BoardView.prop;
import static dev.canvasagent.eval.EvalRoom.BoardView.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.eval.EvalRoom.BoardView;
import dev.canvasagent.eval.EvalRoom.RunResult;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The eval suite's planner half: plain commands to {@code debug/fake} through the real server, and
 * the board each leaves. Commands about shapes already there ("move it right") read the board from
 * the run's context; those are in {@link FollowUps}.
 */
@ExtendWith(VertxExtension.class)
class PlannerEvalTest {
  TestServer server;
  EvalRoom room;

  @BeforeEach
  void start(Vertx vertx) {
    server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "0")));
    room = new EvalRoom(server, "plan-" + UUID.randomUUID().toString().substring(0, 8));
  }

  @AfterEach
  void stop() {
    room.close();
    Await.result(server.stop());
  }

  /** The one shape a command drew. */
  JsonObject drawn(String command) {
    RunResult result = room.runDone(command);
    assertEquals(0, result.detail().getInteger("dropped"), result.finalStatus().encode());
    List<JsonObject> shapes = room.board().shapes();
    assertEquals(1, shapes.size(), shapes.toString());
    return shapes.get(0);
  }

  @Test
  void drawABlueRectangleLabeledA() {
    RunResult result = room.runDone("draw a blue rectangle labeled A");
    assertEquals(List.of("Drawing a blue rectangle labeled “A”."), result.chat());
    JsonObject rectangle = room.board().only("geo");
    assertEquals("rectangle", prop(rectangle, "geo"));
    assertEquals("blue", prop(rectangle, "color"));
    assertEquals("A", text(rectangle));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
      draw a circle                         | geo   | ellipse   | -         | -
      add a red star called North           | geo   | star      | red       | North
      create a purple diamond               | geo   | diamond   | violet    | -
      draw a brutalist orange box           | geo   | rectangle | orange    | -
      add a sticky note saying buy milk     | note  | -         | -         | buy milk
      put a green note: call Bob            | note  | -         | green     | call Bob
      write Hello world                     | text  | -         | -         | Hello world
      draw an arrow labeled next            | arrow | -         | -         | next
      draw a grey line                      | line  | -         | grey      | -
      add a frame called Ideas              | frame | -         | -         | Ideas
      """)
  void oneShapeOfEachKind(String command, String type, String geo, String color, String label) {
    JsonObject shape = drawn(command);
    assertEquals(type, shape.getString("type"));
    if (geo != null) {
      assertEquals(geo, prop(shape, "geo"));
    }
    if (color != null) {
      assertEquals(color, prop(shape, "color"));
    }
    assertEquals(label == null ? "" : label, text(shape));
  }

  @Test
  void threeRedCirclesInARowApart() {
    room.runDone("draw 3 red circles");
    BoardView board = room.board();
    List<JsonObject> circles =
        board.ofType("geo").stream()
            .sorted(Comparator.comparingDouble(shape -> board.bounds(shape).minX()))
            .toList();
    assertEquals(3, circles.size());
    for (int i = 0; i < circles.size(); i++) {
      assertEquals("ellipse", prop(circles.get(i), "geo"));
      assertEquals("red", prop(circles.get(i), "color"));
      assertEquals(
          board.bounds(circles.get(0)).minY(),
          board.bounds(circles.get(i)).minY(),
          0.001,
          "one row");
      if (i > 0) {
        assertTrue(
            board.bounds(circles.get(i - 1)).maxX() < board.bounds(circles.get(i)).minX(), "apart");
      }
    }
  }

  @Test
  void boxesLabeledABAndCAreThreeBoxes() {
    room.runDone("draw boxes labeled A, B and C");
    BoardView board = room.board();
    assertEquals(
        Set.of("A", "B", "C"),
        board.shapes().stream().map(EvalRoom.BoardView::text).collect(Collectors.toSet()));
    assertTrue(board.shapes().stream().allMatch(shape -> "rectangle".equals(prop(shape, "geo"))));
  }

  @Test
  void aNewShapeLandsInsideTheViewportTheRunWasAskedFrom() {
    JsonObject viewport =
        new JsonObject().put("x", 5000).put("y", -3000).put("w", 900).put("h", 600);
    room.run(new JsonObject().put("message", "draw a box").put("viewport", viewport));
    BoardView board = room.board();
    Box box = board.bounds(board.only("geo"));
    assertTrue(
        box.minX() >= 5000 && box.maxX() <= 5900 && box.minY() >= -3000 && box.maxY() <= -2400,
        "inside the viewport, in page coordinates: " + box);
  }

  @Test
  void deleteEverythingAndClearEmptyTheBoard() {
    room.runDone("/poster");
    assertEquals(6, room.board().shapes().size());
    room.runDone("delete everything");
    assertEquals(List.of(), room.board().shapes());

    room.runDone("draw boxes labeled A, B and C");
    room.runDone("clear the board");
    assertEquals(List.of(), room.board().shapes());
  }

  @Test
  void aCommandItCannotFollowChangesNothingAndSaysWhatItUnderstands() {
    RunResult result = room.runDone("draw a roadmap");
    assertTrue(
        result.chat().get(0).startsWith("I didn't understand “draw a roadmap”."),
        result.chat().toString());
    assertTrue(result.chat().get(0).contains("/poster"), "it lists the scripted scenarios too");
    assertEquals(0, room.board().revision());

    RunResult help = room.runDone("help");
    assertTrue(help.chat().get(0).contains("connect A to B"), help.chat().toString());
    assertEquals(0, room.board().revision());
  }

  /**
   * Commands about the shapes already on the board, which the planner reads from the run's structured
   * context ({@code ModelRequest.context()}: shapes, selection, viewport) as the context builder fills it.
   */
  @Nested
  class FollowUps {
    Box boxA() {
      BoardView board = room.board();
      return board.bounds(board.withText("A"));
    }

    @Test
    void moveItRightMovesTheBoxRight() {
      room.runDone("draw a blue rectangle labeled A");
      Box before = boxA();
      room.runDone("move it right");
      Box after = boxA();
      assertEquals(before.minX() + 100, after.minX(), 0.001);
      assertEquals(before.minY(), after.minY(), 0.001);
    }

    @Test
    void deleteItRemovesIt() {
      room.runDone("draw a blue rectangle labeled A");
      room.runDone("draw a box labeled B");
      room.runDone("delete it");
      BoardView board = room.board();
      assertEquals(
          List.of("A"),
          board.shapes().stream().map(EvalRoom.BoardView::text).toList(),
          "the topmost, B, is gone");
    }

    @Test
    void alignThemLeftLinesUpTheirLeftEdges() {
      room.runDone("draw boxes labeled A, B and C");
      room.runDone("align them left");
      BoardView board = room.board();
      Set<Double> lefts =
          board.shapes().stream()
              .map(shape -> board.bounds(shape).minX())
              .collect(Collectors.toSet());
      assertEquals(1, lefts.size(), lefts.toString());
    }

    @Test
    void makeItBiggerGrowsItAboutItsCentre() {
      room.runDone("draw a blue rectangle labeled A");
      Box before = boxA();
      room.runDone("make it bigger");
      Box after = boxA();
      assertEquals(before.width() * 1.5, after.width(), 0.5);
      assertEquals(before.centerX(), after.centerX(), 0.5);
    }

    @Test
    void colorItRedRecolorsIt() {
      room.runDone("draw a blue rectangle labeled A");
      room.runDone("color it red");
      assertEquals("red", prop(room.board().withText("A"), "color"));
    }

    @Test
    void distributeThemEvensTheGaps() {
      room.runDone("draw boxes labeled A, B and C");
      room.runDone("move B right by 60");
      room.runDone("distribute them horizontally");
      BoardView board = room.board();
      List<Box> boxes =
          board.shapes().stream()
              .map(board::bounds)
              .sorted(Comparator.comparingDouble(Box::minX))
              .toList();
      assertEquals(
          boxes.get(1).minX() - boxes.get(0).maxX(),
          boxes.get(2).minX() - boxes.get(1).maxX(),
          0.5);
    }

    @Test
    void connectAToBBindsAnArrowToBoth() {
      room.runDone("draw boxes labeled A and B");
      room.runDone("connect A to B");
      BoardView board = room.board();
      JsonObject arrow = board.only("arrow");
      Set<String> ends =
          board.bindings().stream()
              .filter(binding -> binding.getString("fromId").equals(arrow.getString("id")))
              .map(binding -> binding.getString("toId"))
              .collect(Collectors.toSet());
      assertEquals(
          Set.of(board.withText("A").getString("id"), board.withText("B").getString("id")), ends);
    }

    @Test
    void aSecondShapeGoesWhereTheFirstIsNot() {
      room.runDone("draw a box labeled A");
      room.runDone("draw a box labeled B");
      BoardView board = room.board();
      BoardView.assertApart(board.bounds(board.withText("A")), board.bounds(board.withText("B")));
    }
  }
}
