package dev.canvasagent.runner.context;

import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.geo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.TranscriptStore.Utterance;
import dev.canvasagent.support.TestServer;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Board-derived parts are reused per {room, docVersion, selection, viewport, transcript} and origin, for a while. */
class PromptMemoTest {
  long now = 5_000_000;
  final ContextBuilder builder = ContextBuilder.create(TestServer.config(Map.of()), () -> now);

  static Inputs inputs() {
    return new Inputs()
        .board(board(geo("a", 10, 10, 10, 10), geo("b", 50, 50, 10, 10)))
        .viewport(0, 0, 800, 600)
        .selection("shape:a");
  }

  @Test
  void theSameKeyWithinTheTtlIsAHitWithTheSameContextAndRounding() {
    Inputs first = inputs().origin(0.4, 0);
    BuiltContext miss = builder.build(first.build(), 0);
    now += 119_999;
    BuiltContext hit = builder.build(first.build(), 0);

    assertFalse(miss.stats().memoHit());
    assertTrue(hit.stats().memoHit());
    assertEquals(miss.contextText(), hit.contextText());
    assertEquals(miss.context(), hit.context());
    assertEquals(
        10.0,
        hit.frame().toPage("shape:a", "x", 10),
        1e-9,
        "the rounding remembered on the miss comes back on a hit");
    assertTrue(miss.frame() != hit.frame(), "each run gets its own frame");
  }

  @Test
  void whatIsNotMemoizedIsReadFreshOnAHit() {
    Inputs first = inputs();
    builder.build(first.build(), 0);
    first.message = "move it";
    first.chat = List.of(new ChatMessage("user", "draw a box", 1, null));

    BuiltContext hit = builder.build(first.build(), 0);

    assertTrue(hit.stats().memoHit());
    assertEquals("move it", hit.userMessage());
    assertEquals(1, hit.context().getJsonArray(ModelContext.CHAT).size());
  }

  static Stream<Arguments> keyChanges() {
    return Stream.<Arguments>of(
        Arguments.of("room", (Consumer<Inputs>) inputs -> inputs.roomId = "room-2"),
        Arguments.of(
            "docVersion",
            (Consumer<Inputs>)
                inputs -> inputs.board(new Board("room-1", 2, inputs.board.records()))),
        Arguments.of("selection", (Consumer<Inputs>) inputs -> inputs.selection("shape:b")),
        Arguments.of("viewport", (Consumer<Inputs>) inputs -> inputs.viewport(0, 0, 800, 601)),
        Arguments.of(
            "transcript",
            (Consumer<Inputs>)
                inputs -> inputs.transcript = List.of(new Utterance("ana", "hi", 1))),
        Arguments.of("session origin", (Consumer<Inputs>) inputs -> inputs.origin(1, 0)));
  }

  @ParameterizedTest(name = "another {0} is a miss")
  @MethodSource("keyChanges")
  void anyOtherKeyComponentIsAMiss(String component, Consumer<Inputs> change) {
    builder.build(inputs().build(), 0);
    Inputs changed = inputs();
    change.accept(changed);

    assertFalse(builder.build(changed.build(), 0).stats().memoHit());
    assertTrue(builder.build(changed.build(), 0).stats().memoHit(), "and then a hit itself");
  }

  @Test
  void anEntryExpiresAfterItsTtl() {
    builder.build(inputs().build(), 0);
    now += 120_000;

    assertFalse(builder.build(inputs().build(), 0).stats().memoHit());
  }

  @Test
  void disablingThePromptCacheMeansNoHits() {
    ContextBuilder uncached =
        ContextBuilder.create(
            TestServer.config(Map.of("CANVAS_AGENT_DISABLE_PROMPT_CACHE", "1")), () -> now);
    uncached.build(inputs().build(), 0);

    assertFalse(uncached.build(inputs().build(), 0).stats().memoHit());
  }

  @Test
  void theMemoIsBoundedAndDropsTheLeastRecentlyUsed() {
    PromptMemo<String, Integer> memo = new PromptMemo<>(1_000, 2, () -> now);
    memo.put("a", 1);
    memo.put("b", 2);
    memo.get("a");
    memo.put("c", 3);

    assertEquals(2, memo.size());
    assertTrue(memo.get("a").isPresent());
    assertFalse(memo.get("b").isPresent(), "the least recently used went");
    assertTrue(memo.get("c").isPresent());
  }
}
