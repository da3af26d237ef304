package dev.canvasagent.board;

import java.util.Set;

/** The style enums tldraw 5's schema accepts (see the project's notes on tldraw records). */
public final class TldrawStyles {
  private TldrawStyles() {}

  public static final Set<String> COLORS =
      Set.of(
          "black",
          "grey",
          "light-violet",
          "violet",
          "blue",
          "light-blue",
          "yellow",
          "orange",
          "green",
          "light-green",
          "light-red",
          "red",
          "white");
  public static final Set<String> FILLS =
      Set.of("none", "semi", "solid", "pattern", "fill", "lined-fill");
  public static final Set<String> DASHES = Set.of("draw", "solid", "dashed", "dotted", "none");
  public static final Set<String> SIZES = Set.of("s", "m", "l", "xl");
  public static final Set<String> FONTS = Set.of("draw", "sans", "serif", "mono");
  public static final Set<String> ALIGNS =
      Set.of("start", "middle", "end", "start-legacy", "end-legacy", "middle-legacy");
  public static final Set<String> VERTICAL_ALIGNS = Set.of("start", "middle", "end");
  public static final Set<String> TEXT_ALIGNS = Set.of("start", "middle", "end");
  public static final Set<String> GEOS =
      Set.of(
          "cloud",
          "rectangle",
          "ellipse",
          "triangle",
          "diamond",
          "pentagon",
          "hexagon",
          "octagon",
          "star",
          "rhombus",
          "rhombus-2",
          "oval",
          "trapezoid",
          "arrow-right",
          "arrow-left",
          "arrow-up",
          "arrow-down",
          "x-box",
          "check-box",
          "heart");
  public static final Set<String> ARROW_KINDS = Set.of("arc", "elbow");
  public static final Set<String> ARROWHEADS =
      Set.of("arrow", "triangle", "square", "dot", "pipe", "diamond", "inverted", "bar", "none");
  public static final Set<String> SPLINES = Set.of("line", "cubic");
}
