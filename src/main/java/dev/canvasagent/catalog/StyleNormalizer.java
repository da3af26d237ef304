package dev.canvasagent.catalog;

import dev.canvasagent.board.TldrawStyles;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns what a model says about style into tldraw's values: tldraw's own names pass, color aliases
 * map to tldraw's (purple is violet, pink is light-red) and brand names to the closest tldraw color
 * (brutalist-orange is orange, charcoal is black). A value that is not, or not yet, a known name —
 * a half-streamed {@code "r"} or {@code "yel"}, a typo — is empty, so the prop keeps its default
 * rather than breaking the record. Brand names map only while the brand palette is on.
 */
public final class StyleNormalizer {
  private static final Map<String, String> BRAND_COLORS =
      Map.ofEntries(
          Map.entry("brutalist-orange", "orange"),
          Map.entry("burnt-orange", "orange"),
          Map.entry("brand-orange", "orange"),
          Map.entry("deep-orange", "red"),
          Map.entry("charcoal", "black"),
          Map.entry("ink", "black"),
          Map.entry("concrete", "grey"),
          Map.entry("paper", "white"),
          Map.entry("off-white", "white"));
  private static final Map<String, String> COLOR_ALIASES =
      Map.ofEntries(
          Map.entry("purple", "violet"),
          Map.entry("pink", "light-red"),
          Map.entry("gray", "grey"),
          Map.entry("light-gray", "grey"),
          Map.entry("light-grey", "grey"),
          Map.entry("lavender", "light-violet"),
          Map.entry("lilac", "light-violet"),
          Map.entry("magenta", "violet"),
          Map.entry("cyan", "light-blue"),
          Map.entry("teal", "light-blue"),
          Map.entry("sky", "light-blue"),
          Map.entry("navy", "blue"),
          Map.entry("lime", "light-green"),
          Map.entry("mint", "light-green"),
          Map.entry("gold", "yellow"),
          Map.entry("amber", "yellow"),
          Map.entry("crimson", "red"),
          Map.entry("scarlet", "red"),
          Map.entry("salmon", "light-red"),
          Map.entry("rose", "light-red"),
          Map.entry("brown", "orange"));
  private static final Map<String, String> FILLS =
      Map.of(
          "filled",
          "solid",
          "opaque",
          "solid",
          "transparent",
          "none",
          "empty",
          "none",
          "hollow",
          "none",
          "semi-transparent",
          "semi",
          "translucent",
          "semi",
          "hatch",
          "pattern",
          "hatched",
          "pattern",
          "lined",
          "lined-fill");
  private static final Map<String, String> DASHES =
      Map.of(
          "dash",
          "dashed",
          "dot",
          "dotted",
          "sketch",
          "draw",
          "hand-drawn",
          "draw",
          "plain",
          "solid");
  private static final Map<String, String> SIZES =
      Map.of(
          "small",
          "s",
          "medium",
          "m",
          "large",
          "l",
          "xlarge",
          "xl",
          "extra-large",
          "xl",
          "huge",
          "xl");
  private static final Map<String, String> FONTS =
      Map.of(
          "sans-serif",
          "sans",
          "handwritten",
          "draw",
          "hand",
          "draw",
          "monospace",
          "mono",
          "code",
          "mono");
  private static final Map<String, String> ALIGNS =
      Map.of("left", "start", "center", "middle", "centre", "middle", "right", "end");
  private static final Map<String, String> VERTICAL_ALIGNS =
      Map.of("top", "start", "center", "middle", "centre", "middle", "bottom", "end");
  private static final Map<String, String> GEOS =
      Map.of(
          "box",
          "rectangle",
          "rect",
          "rectangle",
          "square",
          "rectangle",
          "circle",
          "ellipse",
          "checkbox",
          "check-box",
          "x",
          "x-box",
          "arrow",
          "arrow-right",
          "oval",
          "oval",
          "rhombus",
          "rhombus");

  private StyleNormalizer() {}

  /**
   * The color words the server reads as one of tldraw's colors ({@code purple} is violet; with the
   * brand palette on, {@code charcoal} is black …), keyed as normalized: lower case, words joined by
   * {@code -}.
   */
  public static JsonObject describeColorAliases(boolean brandPalette) {
    JsonObject json = new JsonObject();
    new TreeMap<>(colorAliases(brandPalette)).forEach(json::put);
    return json;
  }

  /** The tldraw value of a style prop ({@code color}, {@code labelColor}, {@code fill}, …), if it has one. */
  public static Optional<String> normalize(String prop, String raw, boolean brandPalette) {
    if (raw == null) {
      return Optional.empty();
    }
    String value = raw.strip().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
    return switch (prop) {
      case "color", "labelColor" -> pick(value, TldrawStyles.COLORS, colorAliases(brandPalette));
      case "fill" -> pick(value, TldrawStyles.FILLS, FILLS);
      case "dash" -> pick(value, TldrawStyles.DASHES, DASHES);
      case "size" -> pick(value, TldrawStyles.SIZES, SIZES);
      case "font" -> pick(value, TldrawStyles.FONTS, FONTS);
      case "align" -> pick(value, TldrawStyles.ALIGNS, ALIGNS);
      case "verticalAlign" -> pick(value, TldrawStyles.VERTICAL_ALIGNS, VERTICAL_ALIGNS);
      case "textAlign" -> pick(value, TldrawStyles.TEXT_ALIGNS, ALIGNS);
      case "geo" -> pick(value, TldrawStyles.GEOS, GEOS);
      case "arrowheadStart", "arrowheadEnd" ->
          pick(value, TldrawStyles.ARROWHEADS, Map.of("circle", "dot", "line", "bar"));
      default -> Optional.empty();
    };
  }

  private static Map<String, String> colorAliases(boolean brandPalette) {
    if (!brandPalette) {
      return COLOR_ALIASES;
    }
    Map<String, String> all = new java.util.HashMap<>(COLOR_ALIASES);
    all.putAll(BRAND_COLORS);
    return all;
  }

  private static Optional<String> pick(
      String value, Set<String> allowed, Map<String, String> aliases) {
    if (allowed.contains(value)) {
      return Optional.of(value);
    }
    return Optional.ofNullable(aliases.get(value));
  }
}
