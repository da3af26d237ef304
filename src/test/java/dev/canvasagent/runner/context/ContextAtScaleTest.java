package dev.canvasagent.runner.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.geometry.ShapeIndex;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.support.GeneratedBoards;
import dev.canvasagent.support.TestServer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A run's context on a 50,000-shape board (frames with children, groups, notes, boxes, text, arrows
 * bound at both ends) keeps every budget: each part its own, the context its total, the shape state
 * its limit; and still says what the board holds around the view.
 */
class ContextAtScaleTest {
  static Board board;

  @BeforeAll
  static void generate() {
    board = GeneratedBoards.generate(50_000, 50_000);
  }

  Inputs inputs() {
    List<String> selection =
        board.shapeIndex().paintOrder().stream().limit(40).map(ShapeIndex.Placed::id).toList();
    Inputs inputs = new Inputs().board(board).origin(-800, -500).viewport(-800, -500, 1600, 1000);
    inputs.selection = selection;
    return inputs;
  }

  @Test
  void everyPartKeepsItsBudgetAndTheContextItsTotal() {
    AppConfig config = TestServer.config(Map.of());
    ContextBuilder builder = ContextBuilder.create(config, () -> 0);
    PartScope scope = inputs().scope();
    for (PromptPart<?> part : PromptParts.STANDARD) {
      PartOutput output = part.render(scope, builder.budget(part));
      assertTrue(
          output.bytes() <= builder.budget(part),
          part.name() + ": " + output.bytes() + " bytes over its budget " + builder.budget(part));
    }

    BuiltContext built = builder.build(inputs().build(), 0);

    ContextStats stats = built.stats();
    assertTrue(
        stats.contextBytes() <= config.context().totalBudgetBytes(),
        "context " + stats.contextBytes() + " bytes");
    assertTrue(stats.shapeStateStats().bytes() <= config.shapeStateLimitBytes());
    assertTrue(stats.shapeStateStats().truncated(), "50,000 shapes do not fit the shape state");
    assertEquals(board.shapeIndex().size(), stats.shapes());
    assertTrue(stats.shapes() >= 50_000);
    assertTrue(stats.shapesInView() > 0 && stats.shapesSent() > 0, stats.toString());
    assertTrue(stats.peripheralClusters() > 0, stats.toString());
  }

  @Test
  void theViewAndItsClustersAccountForEveryMeasurableShape() {
    PartScope scope = inputs().scope();
    JsonObject blurry = new BlurryShapesPart().render(scope, 49_152).stats();
    JsonObject peripheral = new PeripheralClustersPart().render(scope, 4_096).stats();
    long measurable =
        board.shapeIndex().paintOrder().stream().filter(placed -> placed.bounds() != null).count();
    assertEquals(measurable, blurry.getInteger("inView") + peripheral.getInteger("outOfView"));
  }
}
