package dev.canvasagent.catalog.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Vec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a group goes: near the viewport, clear of what is on the page. */
class FreeSpotTest {
  static final Vec ANCHOR = new Vec(100, 100);
  static final Size GROUP = new Size(300, 200);

  @Test
  void anEmptyPageTakesTheGroupAtTheAnchor() {
    assertEquals(ANCHOR, FreeSpot.near(ANCHOR, GROUP, List.of(), 40));
  }

  @Test
  void shapesFarAwayDoNotMoveIt() {
    assertEquals(
        ANCHOR,
        FreeSpot.near(
            ANCHOR, GROUP, List.of(Box.of(5000, 5000, 10, 10), Box.of(-900, -900, 100, 100)), 40));
  }

  @Test
  void aShapeAtTheAnchorPushesTheGroupToTheNearestClearSpot() {
    Vec spot = FreeSpot.near(ANCHOR, GROUP, List.of(Box.of(80, 80, 200, 100)), 40);
    assertEquals(new Vec(100, 220), spot, "below it is nearer than right of it");
    assertTrue(FreeSpot.isFree(spot, GROUP, List.of(Box.of(80, 80, 200, 100)), 40));
  }

  @Test
  void aCrowdedPageStillHasASpotRightOfEverything() {
    List<Box> crowd = new ArrayList<>();
    for (int x = 0; x < 200; x++) {
      crowd.add(Box.of(x * 50, 0, 50, 100_000));
    }
    Vec spot = FreeSpot.near(ANCHOR, GROUP, crowd, 40);
    assertTrue(FreeSpot.isFree(spot, GROUP, crowd, 40), spot.toString());
    assertEquals(10_000 + 40, spot.x(), 1e-9);
  }
}
