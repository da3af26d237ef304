package dev.canvasagent.catalog.dialect;

import java.util.Map;

/**
 * The kit's own names for tldraw's styles. Its fills are not tldraw's: the kit's {@code solid} is
 * tldraw's {@code fill} and its {@code tint} is tldraw's {@code solid}. Its geo kinds have a few names
 * of their own ({@code pill}, {@code parallelogram-right}, {@code fat-arrow-up}, …). Its text sizes are
 * numbers, read as the nearest of tldraw's sizes.
 */
final class KitStyles {
  private static final Map<String, String> FILLS =
      Map.of(
          "none", "none", "semi", "semi", "solid", "fill", "tint", "solid", "pattern", "pattern");

  private static final Map<String, String> GEOS =
      Map.of(
          "pill", "oval",
          "parallelogram-right", "rhombus",
          "parallelogram-left", "rhombus-2",
          "fat-arrow-right", "arrow-right",
          "fat-arrow-left", "arrow-left",
          "fat-arrow-up", "arrow-up",
          "fat-arrow-down", "arrow-down");

  /** tldraw's font sizes for s, m, l and xl. */
  private static final Map<String, Integer> FONT_SIZES =
      Map.of("s", 18, "m", 24, "l", 36, "xl", 44);

  private KitStyles() {}

  /** tldraw's fill for the kit's; a name the kit does not have is left for the sanitizer to judge. */
  static String fill(String kitFill) {
    return FILLS.getOrDefault(kitFill, kitFill);
  }

  /** The geo kind (or shape type) for the kit's {@code _type}. */
  static String geo(String kitType) {
    return GEOS.getOrDefault(kitType, kitType);
  }

  /** The tldraw size nearest to a font size in pixels. */
  static String size(double fontSize) {
    String nearest = "m";
    double best = Double.MAX_VALUE;
    for (var size : FONT_SIZES.entrySet()) {
      double gap = Math.abs(size.getValue() - fontSize);
      if (gap < best || (gap == best && size.getValue() < FONT_SIZES.get(nearest))) {
        best = gap;
        nearest = size.getKey();
      }
    }
    return nearest;
  }
}
