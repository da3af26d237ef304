package dev.canvasagent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.TldrawStyles;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a model says about style becomes a tldraw value or nothing: tldraw's own values pass
 * through, aliases map, brand names map only with the brand palette on, and partial or unknown
 * words are empty so the prop keeps its default.
 */
class StyleNormalizerTest {
  /** Every style prop the normalizer knows, with the tldraw enum it must land in. */
  static final Map<String, Set<String>> ENUMS =
      Map.ofEntries(
          Map.entry("color", TldrawStyles.COLORS),
          Map.entry("labelColor", TldrawStyles.COLORS),
          Map.entry("fill", TldrawStyles.FILLS),
          Map.entry("dash", TldrawStyles.DASHES),
          Map.entry("size", TldrawStyles.SIZES),
          Map.entry("font", TldrawStyles.FONTS),
          Map.entry("align", TldrawStyles.ALIGNS),
          Map.entry("verticalAlign", TldrawStyles.VERTICAL_ALIGNS),
          Map.entry("textAlign", TldrawStyles.TEXT_ALIGNS),
          Map.entry("geo", TldrawStyles.GEOS),
          Map.entry("arrowheadStart", TldrawStyles.ARROWHEADS),
          Map.entry("arrowheadEnd", TldrawStyles.ARROWHEADS));

  static Optional<String> brand(String prop, String raw) {
    return StyleNormalizer.normalize(prop, raw, true);
  }

  static Optional<String> plain(String prop, String raw) {
    return StyleNormalizer.normalize(prop, raw, false);
  }

  @Test
  void theEnumsAreTldrawFivesOwn() {
    assertEquals(
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
            "white"),
        TldrawStyles.COLORS);
    assertEquals(
        Set.of("none", "semi", "solid", "pattern", "fill", "lined-fill"), TldrawStyles.FILLS);
    assertEquals(Set.of("draw", "solid", "dashed", "dotted", "none"), TldrawStyles.DASHES);
    assertEquals(Set.of("s", "m", "l", "xl"), TldrawStyles.SIZES);
    assertEquals(Set.of("draw", "sans", "serif", "mono"), TldrawStyles.FONTS);
    assertEquals(
        Set.of("start", "middle", "end", "start-legacy", "end-legacy", "middle-legacy"),
        TldrawStyles.ALIGNS);
    assertEquals(Set.of("start", "middle", "end"), TldrawStyles.VERTICAL_ALIGNS);
    assertEquals(Set.of("start", "middle", "end"), TldrawStyles.TEXT_ALIGNS);
    assertEquals(
        Set.of("arrow", "triangle", "square", "dot", "pipe", "diamond", "inverted", "bar", "none"),
        TldrawStyles.ARROWHEADS);
    assertEquals(20, TldrawStyles.GEOS.size());
  }

  @Test
  void everyTldrawValuePassesThroughWithOrWithoutTheBrandPalette() {
    ENUMS.forEach(
        (prop, values) -> {
          for (String value : values) {
            assertEquals(Optional.of(value), brand(prop, value), prop + "=" + value);
            assertEquals(Optional.of(value), plain(prop, value), prop + "=" + value);
          }
        });
  }

  @Test
  void caseAndSurroundingBlanksDoNotMatter() {
    assertEquals(Optional.of("light-blue"), plain("color", "  Light Blue "));
    assertEquals(Optional.of("light-blue"), plain("color", "LIGHT_BLUE"));
    assertEquals(Optional.of("xl"), plain("size", "XL"));
    assertEquals(Optional.of("lined-fill"), plain("fill", "Lined Fill"));
  }

  @ParameterizedTest
  @CsvSource({
    "purple,violet",
    "pink,light-red",
    "gray,grey",
    "Gray,grey",
    "light gray,grey",
    "lavender,light-violet",
    "cyan,light-blue",
    "navy,blue",
    "lime,light-green",
    "gold,yellow",
    "crimson,red",
    "brown,orange"
  })
  void colorAliasesMapWithOrWithoutTheBrandPalette(String alias, String tldraw) {
    for (String prop : List.of("color", "labelColor")) {
      assertEquals(Optional.of(tldraw), brand(prop, alias), prop + "=" + alias);
      assertEquals(Optional.of(tldraw), plain(prop, alias), prop + "=" + alias);
    }
  }

  @ParameterizedTest
  @CsvSource({
    "brutalist orange,orange",
    "brutalist-orange,orange",
    "burnt orange,orange",
    "Burnt_Orange,orange",
    "BURNT-ORANGE,orange",
    "deep orange,red",
    "charcoal,black",
    "ink,black",
    "Ink,black",
    "concrete,grey",
    "paper,white",
    "off white,white"
  })
  void brandNamesMapOnlyWithTheBrandPalette(String name, String tldraw) {
    for (String prop : List.of("color", "labelColor")) {
      assertEquals(Optional.of(tldraw), brand(prop, name), prop + "=" + name);
      assertEquals(
          Optional.empty(), plain(prop, name), prop + "=" + name + " without the brand palette");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "r", "re", "yel", "ora", "bl", "blu", "viol", "light-", "", " ", "-", "redd", "#ff0000"
      })
  void partialOrUnknownWordsAreEmptyForEveryProp(String partial) {
    for (String prop : ENUMS.keySet()) {
      assertEquals(Optional.empty(), brand(prop, partial), prop + "='" + partial + "'");
      assertEquals(Optional.empty(), plain(prop, partial), prop + "='" + partial + "'");
    }
  }

  @Test
  void nullAndUnknownPropsAreEmpty() {
    assertEquals(Optional.empty(), brand("color", null));
    assertEquals(Optional.empty(), brand("opacity", "red"));
    assertEquals(Optional.empty(), brand("text", "red"));
  }

  @Test
  void aValueOfOnePropIsNotAcceptedForAnother() {
    assertEquals(Optional.empty(), brand("color", "solid"));
    assertEquals(Optional.empty(), brand("fill", "red"));
    assertEquals(Optional.empty(), brand("size", "mono"));
    assertEquals(Optional.empty(), brand("font", "xl"));
    assertEquals(Optional.empty(), brand("verticalAlign", "start-legacy"));
    assertEquals(Optional.empty(), brand("textAlign", "middle-legacy"));
  }

  @ParameterizedTest
  @CsvSource({
    "filled,solid",
    "opaque,solid",
    "transparent,none",
    "empty,none",
    "hollow,none",
    "semi-transparent,semi",
    "semi transparent,semi",
    "translucent,semi",
    "hatch,pattern",
    "hatched,pattern",
    "lined,lined-fill"
  })
  void fillAliases(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("fill", alias));
  }

  @ParameterizedTest
  @CsvSource({
    "dash,dashed",
    "dot,dotted",
    "sketch,draw",
    "hand-drawn,draw",
    "hand drawn,draw",
    "plain,solid"
  })
  void dashAliases(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("dash", alias));
  }

  @ParameterizedTest
  @CsvSource({
    "small,s",
    "medium,m",
    "large,l",
    "xlarge,xl",
    "extra large,xl",
    "Extra-Large,xl",
    "huge,xl"
  })
  void sizeAliases(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("size", alias));
  }

  @ParameterizedTest
  @CsvSource({
    "sans-serif,sans",
    "sans serif,sans",
    "handwritten,draw",
    "hand,draw",
    "monospace,mono",
    "code,mono"
  })
  void fontAliases(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("font", alias));
  }

  @ParameterizedTest
  @CsvSource({"left,start", "center,middle", "centre,middle", "right,end", "Center,middle"})
  void horizontalAlignAliasesForGeoNoteAndText(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("align", alias));
    assertEquals(Optional.of(tldraw), plain("textAlign", alias));
  }

  @ParameterizedTest
  @CsvSource({"top,start", "center,middle", "centre,middle", "bottom,end"})
  void verticalAlignAliases(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("verticalAlign", alias));
  }

  @Test
  void horizontalAndVerticalWordsDoNotCross() {
    assertEquals(Optional.empty(), plain("align", "top"));
    assertEquals(Optional.empty(), plain("verticalAlign", "left"));
  }

  @ParameterizedTest
  @CsvSource({
    "box,rectangle",
    "square,rectangle",
    "circle,ellipse",
    "checkbox,check-box",
    "x,x-box",
    "arrow,arrow-right",
    "check box,check-box",
    "Arrow_Left,arrow-left"
  })
  void geoAliases(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("geo", alias));
  }

  @ParameterizedTest
  @CsvSource({"circle,dot", "line,bar", "Triangle,triangle"})
  void arrowheadAliases(String alias, String tldraw) {
    assertEquals(Optional.of(tldraw), plain("arrowheadStart", alias));
    assertEquals(Optional.of(tldraw), plain("arrowheadEnd", alias));
  }

  @Test
  void everyAliasLandsInItsPropsEnum() {
    List<String> words =
        List.of(
            "purple",
            "pink",
            "gray",
            "brutalist orange",
            "deep orange",
            "charcoal",
            "ink",
            "filled",
            "dash",
            "small",
            "monospace",
            "left",
            "top",
            "circle",
            "line",
            "x",
            "hatch",
            "huge",
            "paper",
            "concrete");
    ENUMS.forEach(
        (prop, values) -> {
          for (String word : words) {
            brand(prop, word)
                .ifPresent(
                    value ->
                        assertEquals(
                            true, values.contains(value), prop + "=" + word + " gave " + value));
          }
        });
  }
}
