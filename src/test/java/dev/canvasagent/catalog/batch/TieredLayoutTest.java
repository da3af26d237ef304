package dev.canvasagent.catalog.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.batch.TieredLayout.Edge;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flowchart tiers: roots first, each node one tier past its deepest source, cycles cut, tiers
 * centred.
 */
class TieredLayoutTest {
  @Test
  void rootsAreTierZeroAndEachNodeIsOnePastItsDeepestSource() {
    // 0 → 1 → 2 → 3 and 0 → 3: 3 sits under 2, not under 0.
    int[] tiers =
        TieredLayout.assign(
            4, List.of(new Edge(0, 1), new Edge(1, 2), new Edge(2, 3), new Edge(0, 3)));
    assertArrayEquals(new int[] {0, 1, 2, 3}, tiers);
  }

  @Test
  void unconnectedNodesAreAllRoots() {
    assertArrayEquals(new int[] {0, 0, 0}, TieredLayout.assign(3, List.of()));
  }

  @Test
  void aCycleIsCutDeterministically() {
    List<Edge> cycle = List.of(new Edge(0, 1), new Edge(1, 2), new Edge(2, 0));
    assertArrayEquals(new int[] {0, 1, 2}, TieredLayout.assign(3, cycle));
    assertArrayEquals(
        TieredLayout.assign(3, cycle), TieredLayout.assign(3, cycle), "the same answer every time");
  }

  @Test
  void aCycleBelowARootHangsUnderTheRoot() {
    // 0 → 1 ⇄ 2: 1 is entered first, the edge back from 2 is the one cut.
    assertArrayEquals(
        new int[] {0, 1, 2},
        TieredLayout.assign(3, List.of(new Edge(0, 1), new Edge(1, 2), new Edge(2, 1))));
  }

  @Test
  void selfEdgesAndEdgesToUnknownNodesAreIgnored() {
    assertArrayEquals(
        new int[] {0, 1},
        TieredLayout.assign(
            2, List.of(new Edge(0, 0), new Edge(0, 1), new Edge(-1, 1), new Edge(1, 7))));
  }

  @Test
  void aLongChainNeedsNoDeepRecursion() {
    int nodes = 10_000;
    List<Edge> chain = new ArrayList<>();
    for (int i = 1; i < nodes; i++) {
      chain.add(new Edge(i - 1, i));
    }
    assertEquals(nodes - 1, TieredLayout.assign(nodes, chain)[nodes - 1]);
  }

  @Test
  void topDownTiersAreRowsCentredOnTheWidest() {
    List<Size> sizes = List.of(new Size(100, 50), new Size(100, 50), new Size(100, 80));
    List<Vec> at =
        TieredLayout.arrange(sizes, new int[] {0, 1, 1}, TieredLayout.Direction.TOP_DOWN, 20, 30);
    assertEquals(new Vec(60, 0), at.get(0), "centred over a tier 220 wide");
    assertEquals(new Vec(0, 80), at.get(1), "tier 1 starts under tier 0 (50) plus 30");
    assertEquals(new Vec(120, 80), at.get(2));
  }

  @Test
  void leftRightTiersAreColumnsCentredOnTheTallest() {
    List<Size> sizes = List.of(new Size(100, 50), new Size(100, 50), new Size(80, 50));
    List<Vec> at =
        TieredLayout.arrange(sizes, new int[] {0, 1, 1}, TieredLayout.Direction.LEFT_RIGHT, 20, 30);
    assertEquals(new Vec(0, 35), at.get(0));
    assertEquals(new Vec(130, 0), at.get(1));
    assertEquals(new Vec(130, 70), at.get(2));
  }
}
