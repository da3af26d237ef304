package dev.canvasagent.catalog.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.geometry.Vec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generic arrangements (grid, rows, flowchart tiers) and a frame's content (children stacked or
 * in a grid, the frame fitted to them).
 */
class ArrangementsTest {
  @Test
  void rowsGoLeftToRightGapApart() {
    assertEquals(
        List.of(new Vec(0, 0), new Vec(120, 0), new Vec(170, 0)),
        RowLayout.arrange(List.of(new Size(100, 10), new Size(30, 90), new Size(5, 5)), 20));
  }

  @Test
  void theGridIsSquareWithCellsOfTheLargestObject() {
    assertEquals(1, GridLayout.squareColumns(1));
    assertEquals(2, GridLayout.squareColumns(4));
    assertEquals(3, GridLayout.squareColumns(5));
    List<Vec> at =
        GridLayout.arrange(
            List.of(new Size(100, 50), new Size(40, 120), new Size(10, 10), new Size(10, 10)),
            2,
            10);
    assertEquals(List.of(new Vec(0, 0), new Vec(110, 0), new Vec(0, 130), new Vec(110, 130)), at);
  }

  @Test
  void childrenStackUnderTheHeaderInsideThePadding() {
    List<Vec> at =
        FrameContent.stack(List.of(new Size(200, 200), new Size(100, 50), new Size(10, 10)));
    double top = LayoutMetrics.FRAME_HEADER + LayoutMetrics.NOTE_PADDING;
    assertEquals(
        List.of(
            new Vec(30, top), new Vec(30, top + 200 + 20), new Vec(30, top + 200 + 20 + 50 + 20)),
        at);
  }

  @Test
  void aFrameFitsItsChildrenAndKeepsItsSizeWithoutThem() {
    List<Size> children = List.of(new Size(200, 200), new Size(300, 50));
    Size fitted = FrameContent.fit(new Size(900, 900), children, FrameContent.stack(children));
    assertEquals(new Size(30 + 300 + 30, 70 + 200 + 20 + 50 + 30), fitted);
    assertEquals(new Size(320, 240), FrameContent.fit(new Size(320, 240), List.of(), List.of()));
  }

  @Test
  void aSwotQuadrantHoldsItsNotesTwoAcross() {
    List<Vec> at =
        FrameContent.grid(List.of(new Size(200, 200), new Size(200, 200), new Size(200, 200)), 2);
    assertEquals(List.of(new Vec(30, 70), new Vec(250, 70), new Vec(30, 290)), at);
  }

  @Test
  void everyDirectiveHasItsWireName() {
    assertEquals(
        List.of(
            "swot-2x2",
            "columns",
            "journey-stages",
            "grid",
            "rows",
            "flowchart-top-down",
            "flowchart-left-right",
            "freeform"),
        LayoutDirective.wireNames());
    assertEquals(LayoutDirective.SWOT_2X2, LayoutDirective.of("swot-2x2").orElseThrow());
    assertEquals(java.util.Optional.empty(), LayoutDirective.of("SWOT"));
  }
}
