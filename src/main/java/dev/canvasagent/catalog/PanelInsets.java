package dev.canvasagent.catalog;

import dev.canvasagent.board.geometry.Box;

/**
 * The parts of a person's view that tldraw's own panels cover, in screen pixels at zoom 1: its menus
 * top-left, its style panel top-right, its toolbar at the bottom. New work the server places itself
 * goes in what is left (the safe area), so it is not drawn under a panel. The values are tldraw 5's
 * default UI with a margin; docs/boards.md lists them.
 */
public record PanelInsets(double top, double right, double bottom, double left) {
  /**
   * tldraw 5's default UI: the main and page menus about 40 tall, the style panel about 150 wide
   * (top-right), the toolbar about 56 tall (bottom), each with its 8 margin and 8 more of ours.
   */
  public static final PanelInsets TLDRAW = new PanelInsets(56, 176, 72, 16);

  /**
   * The part of {@code view} clear of the panels. A view too small to lose the insets on an axis keeps
   * that axis whole: covering part of something beats not drawing it at all.
   */
  public Box safeArea(Box view) {
    boolean wideEnough = view.width() > left + right;
    boolean tallEnough = view.height() > top + bottom;
    return new Box(
        wideEnough ? view.minX() + left : view.minX(),
        tallEnough ? view.minY() + top : view.minY(),
        wideEnough ? view.maxX() - right : view.maxX(),
        tallEnough ? view.maxY() - bottom : view.maxY());
  }
}
