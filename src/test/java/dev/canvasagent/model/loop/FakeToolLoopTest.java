package dev.canvasagent.model.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.fake.FakeModel;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A tool loop over {@code debug/fake}: one round of the planner's calls, then a summary of their results. */
@ExtendWith(VertxExtension.class)
class FakeToolLoopTest {
  @Test
  void theFakeModelEndsALoopWithASummaryOfTheResults(Vertx vertx) {
    List<String> ran = new CopyOnWriteArrayList<>();
    ToolLoop loop =
        new ToolLoop(
            new FakeModel(vertx, FakeScenarios.load()),
            call -> {
              ran.add(call.name());
              return ran.size() == 1
                  ? Future.succeededFuture(new JsonObject())
                  : Future.failedFuture("no room left");
            },
            5,
            ToolLoopListener.NONE);

    ToolLoopResult result =
        Await.result(
            loop.start(
                    vertx,
                    new ModelRequest(
                        FakeModel.MODEL,
                        "system",
                        "draw a blue rectangle labeled A",
                        new JsonArray()))
                .result());

    assertEquals(ToolLoopResult.Stop.DONE, result.stop());
    assertEquals(2, result.steps());
    assertEquals(ran, result.executed().stream().map(executed -> executed.call().name()).toList());
    long failed =
        result.executed().stream().filter(executed -> executed.result().isError()).count();
    String expected =
        "Done: "
            + ran.size()
            + (ran.size() == 1 ? " tool call ran" : " tool calls ran")
            + (failed == 0 ? "." : ", " + failed + " failed (no room left).");
    assertEquals(expected, result.finalText());
    assertEquals(
        List.of(Turn.Assistant.class, Turn.ToolResults.class, Turn.Assistant.class),
        result.turns().stream().map(Object::getClass).toList());
  }
}
