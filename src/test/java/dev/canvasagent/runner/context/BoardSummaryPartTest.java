package dev.canvasagent.runner.context;

import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.geo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The worked example of docs/extending.md, "Add a prompt part": the board summary, registered next to
 * the standard parts, is gathered, rendered in its place and named in the system prompt's list.
 */
@ExtendWith(VertxExtension.class)
class BoardSummaryPartTest {
  @Test
  void countsEveryShapeOnTheBoardByType() {
    PartScope scope =
        new Inputs()
            .board(board(geo("a", 0, 0, 10, 10), geo("b", 9000, 9000, 10, 10)))
            .viewport(0, 0, 100, 100)
            .scope();

    PartOutput output = new BoardSummaryPart().render(scope, 256);

    assertEquals(new JsonObject().put("geo", 2), output.json(), "off-screen shapes count too");
    assertEquals(BoardSummaryPart.KEY, output.contextKey());
    assertTrue(output.text().startsWith("## Board summary"), output.text());
  }

  @Test
  void anEmptyBoardHasNoSectionAndATinyBudgetCutsIt() {
    assertTrue(new BoardSummaryPart().render(new Inputs().scope(), 256).isEmpty());
    PartOutput cut =
        new BoardSummaryPart().render(new Inputs().board(board(geo("a", 0, 0, 10, 10))).scope(), 8);
    assertTrue(cut.isEmpty() && cut.truncated());
  }

  @Test
  void registeredItIsGatheredAndBuiltInItsPlace(Vertx vertx, VertxTestContext test) {
    List<PromptPart<?>> parts = new ArrayList<>(PromptParts.STANDARD);
    parts.add(new BoardSummaryPart());
    AppConfig config = TestServer.config(Map.of());
    ContextGatherer gatherer =
        new ContextGatherer(
            vertx.eventBus(), new MemoryStore(), config.context(), () -> 1_000_000, parts);
    ContextBuilder builder =
        new ContextBuilder(
            parts,
            config.context().budgets(),
            config.shapeStateLimitBytes(),
            config.context().totalBudgetBytes(),
            0,
            1,
            () -> 1_000_000);
    Board board = board(geo("box", 10, 10, 100, 50), geo("far", 5000, 5000, 10, 10));
    RunRequest request =
        new RunRequest(
            "run-1",
            "session-1",
            "room-1",
            "draw a box",
            "fake",
            new Viewport(0, 0, 800, 600),
            List.of(),
            null);

    gatherer
        .gather(request, board, null)
        .onComplete(
            test.succeeding(
                inputs ->
                    test.verify(
                        () -> {
                          BuiltContext built = builder.build(inputs, 0);

                          assertEquals(
                              new JsonObject().put("geo", 2),
                              built.context().getJsonObject(BoardSummaryPart.KEY));
                          List<String> headings =
                              built
                                  .contextText()
                                  .lines()
                                  .filter(line -> line.startsWith("## "))
                                  .toList();
                          int summary = headings.indexOf("## Board summary: shapes by type");
                          assertEquals(
                              "## Off-screen shapes, clustered {bounds, count}",
                              headings.get(summary - 1));
                          assertEquals(
                              "## Shape state (tldraw records)", headings.get(summary + 1));
                          assertTrue(
                              PromptParts.described(parts)
                                  .contains(
                                      ", off-screen shapes grouped into clusters {bounds, count}, how many"
                                          + " shapes of each type the board holds (board summary), the shapes' tldraw records"),
                              PromptParts.described(parts));
                          test.completeNow();
                        })));
  }
}
