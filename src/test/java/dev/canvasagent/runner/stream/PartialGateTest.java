package dev.canvasagent.runner.stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PartialGateTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final PartialGate gate = new PartialGate(100, now::get);

  @Test
  void atMostOnePerIntervalPerActionAndOnlyWhenChanged() {
    assertTrue(gate.offer("a", new JsonObject().put("x", 1)));
    assertTrue(gate.offer("b", new JsonObject().put("x", 1)), "each action has its own interval");
    now.addAndGet(50);
    assertFalse(gate.due("a"));
    assertFalse(gate.offer("a", new JsonObject().put("x", 2)));
    now.addAndGet(50);
    assertTrue(gate.due("a"));
    assertFalse(gate.offer("a", new JsonObject().put("x", 1)), "unchanged");
    assertTrue(gate.offer("a", new JsonObject().put("x", 2)));
  }

  @Test
  void nothingOnceClosedNothingEmptyAndNothingAtAllWithIntervalZero() {
    assertFalse(gate.offer("a", new JsonObject()), "an empty snapshot shows nothing");
    gate.close("a");
    assertFalse(gate.isOpen("a"));
    now.addAndGet(1_000);
    assertFalse(gate.due("a"));
    assertFalse(gate.offer("a", new JsonObject().put("x", 1)));
    PartialGate off = new PartialGate(0, now::get);
    assertFalse(off.due("a"));
    assertFalse(off.offer("a", new JsonObject().put("x", 1)));
  }
}
