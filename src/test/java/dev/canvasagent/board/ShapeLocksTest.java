package dev.canvasagent.board;

import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.TestShapes;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which shapes a person's lock holds: the locked shape and everything inside it, at any depth. */
class ShapeLocksTest {
  static JsonObject locked(JsonObject record) {
    return record.put("isLocked", true);
  }

  @Test
  void aLockedShapeAndEverythingInsideALockedFrameOrGroupIsHeld() {
    ShapeLocks locks =
        new ShapeLocks(
            TestShapes.board(
                geo("free", 0, 0, 10, 10),
                locked(geo("lk", 0, 0, 10, 10)),
                locked(frame("lf", 0, 0, 100, 100)),
                in("lf", group("g", 0, 0)),
                in("g", geo("deep", 0, 0, 10, 10)),
                frame("open", 0, 0, 100, 100),
                in("open", locked(geo("pinned", 0, 0, 10, 10))),
                in("open", geo("loose", 0, 0, 10, 10))));

    assertEquals(Optional.of("shape:lk"), locks.lockOn("shape:lk"));
    assertEquals(Optional.of("shape:lf"), locks.lockOn("shape:g"));
    assertEquals(Optional.of("shape:lf"), locks.lockOn("shape:deep"), "at any depth");
    assertEquals(Optional.of("shape:pinned"), locks.lockOn("shape:pinned"));
    assertFalse(locks.holds("shape:free"));
    assertFalse(locks.holds("shape:open"), "a lock holds what is inside it, not its parent");
    assertFalse(locks.holds("shape:loose"), "nor its siblings");
    assertFalse(locks.holds("shape:ghost"), "an id that is no shape on the board");
    assertFalse(locks.holds("page:page"));
  }

  @Test
  void onlyTrueLocks() {
    ShapeLocks locks =
        new ShapeLocks(
            TestShapes.board(
                geo("unlocked", 0, 0, 10, 10).put("isLocked", false),
                geo("odd", 0, 0, 10, 10).put("isLocked", "true")));
    assertFalse(locks.holds("shape:unlocked"));
    assertFalse(locks.holds("shape:odd"), "only the boolean true locks, as tldraw's schema has it");
  }

  @Test
  void parentsInACycleOrNestedAbsurdlyDeepEndTheWalk() {
    ShapeLocks cycle =
        new ShapeLocks(TestShapes.board(in("b", group("a", 0, 0)), in("a", group("b", 0, 0))));
    assertFalse(cycle.holds("shape:a"));

    List<JsonObject> chain = new ArrayList<>();
    chain.add(locked(group("g0", 0, 0)));
    for (int depth = 1; depth <= ShapeLocks.MAX_DEPTH + 5; depth++) {
      chain.add(in("g" + (depth - 1), group("g" + depth, 0, 0)));
    }
    ShapeLocks deep = new ShapeLocks(TestShapes.board(chain));
    assertTrue(deep.holds("shape:g" + ShapeLocks.MAX_DEPTH));
    assertFalse(
        deep.holds("shape:g" + (ShapeLocks.MAX_DEPTH + 5)),
        "past the depth bound the walk gives up");
  }
}
