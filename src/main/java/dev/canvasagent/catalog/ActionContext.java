package dev.canvasagent.catalog;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.geometry.Box;

/**
 * What a verb judges an action against: the board as it is now, the session's coordinate frame,
 * whether brand palette aliases are on ({@code NEXT_PUBLIC_CANVAS_AGENT_THEME_ENABLED}), and the
 * requester's view in page space (null when unknown), where work the action does not place goes.
 */
public record ActionContext(Board board, CoordinateFrame frame, boolean brandPalette, Box view) {
  public ActionContext(Board board, CoordinateFrame frame, boolean brandPalette) {
    this(board, frame, brandPalette, null);
  }

  /**
   * Where new work the action does not place goes: the requester's view clear of tldraw's panels,
   * or, without a view, the session's origin 40 in (its first view's top-left).
   */
  public Box placementArea() {
    if (view != null) {
      return PanelInsets.TLDRAW.safeArea(view);
    }
    double x = frame.toPage(null, "x", 40);
    double y = frame.toPage(null, "y", 40);
    return new Box(x, y, x, y);
  }
}
