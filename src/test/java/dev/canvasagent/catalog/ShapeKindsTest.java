package dev.canvasagent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.TldrawStyles;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The model's words for shapes become a tldraw type (and geo kind) or nothing. */
class ShapeKindsTest {
  static Optional<ShapeKinds.Kind> kind(String word) {
    return ShapeKinds.of(word);
  }

  static Optional<ShapeKinds.Kind> geo(String geo) {
    return Optional.of(new ShapeKinds.Kind("geo", geo));
  }

  static Optional<ShapeKinds.Kind> type(String type) {
    return Optional.of(new ShapeKinds.Kind(type, null));
  }

  @Test
  void everyGeoKindIsAGeoOfThatKind() {
    for (String geo : TldrawStyles.GEOS) {
      assertEquals(geo(geo), kind(geo), geo);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "note", "arrow", "line", "draw", "frame"})
  void tldrawTypesAreThemselves(String type) {
    assertEquals(type(type), kind(type));
  }

  @Test
  void aGeoWithoutAKindIsARectangle() {
    assertEquals(geo("rectangle"), kind("geo"));
  }

  @ParameterizedTest
  @CsvSource({
    "box,rectangle",
    "rect,rectangle",
    "square,rectangle",
    "block,rectangle",
    "shape,rectangle",
    "circle,ellipse",
    "ellipse,ellipse",
    "star,star",
    "Star,star",
    " BOX ,rectangle",
    "check box,check-box",
    "arrow_up,arrow-up",
    "rhombus 2,rhombus-2"
  })
  void geoWords(String word, String geo) {
    assertEquals(geo(geo), kind(word), word);
  }

  @ParameterizedTest
  @CsvSource({
    "sticky,note",
    "sticky note,note",
    "post-it,note",
    "headline,text",
    "heading,text",
    "title,text",
    "label,text",
    "caption,text",
    "connector,arrow",
    "pen,draw",
    "freehand,draw",
    "scribble,draw",
    "frame,frame",
    "section,frame",
    "container,frame",
    "Sticky_Note,note"
  })
  void wordsForTldrawTypes(String word, String type) {
    assertEquals(type(type), kind(word), word);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "r",
        "re",
        "rec",
        "stick",
        "ell",
        "fr",
        "",
        " ",
        "group",
        "highlight",
        "image",
        "embed",
        "bookmark",
        "shape:box",
        "geo:star"
      })
  void partialOrUnsupportedWordsAreNoKind(String word) {
    assertEquals(Optional.empty(), kind(word), "'" + word + "'");
  }

  @Test
  void nullIsNoKind() {
    assertEquals(Optional.empty(), kind(null));
  }
}
