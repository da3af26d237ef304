package dev.canvasagent.model.fake.planner;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The shape nouns the planner knows, singular or plural, and what each one creates. */
final class ShapeWords {
  /** How a kind of shape is created. */
  enum Category {
    GEO,
    NOTE,
    TEXT,
    ARROW,
    LINE,
    FRAME
  }

  /**
   * A shape noun's meaning.
   *
   * @param name what the planner calls it in its answer
   * @param type the {@code create_shape} type (a geo kind for geo shapes)
   * @param tldrawType the tldraw record type it makes
   * @param w its default width (for placement; geo shapes and frames are created this size)
   * @param h its default height
   */
  record Noun(String name, String type, String tldrawType, Category category, double w, double h) {}

  private static final Noun RECTANGLE = geo("rectangle", "rectangle", 200, 120);
  private static final Noun SQUARE = geo("square", "rectangle", 150, 150);
  private static final Noun ELLIPSE = geo("ellipse", "ellipse", 200, 120);
  private static final Noun CIRCLE = geo("circle", "ellipse", 150, 150);
  private static final Noun NOTE =
      new Noun("sticky note", "sticky", "note", Category.NOTE, 200, 200);
  private static final Noun TEXT = new Noun("text", "text", "text", Category.TEXT, 0, 40);
  private static final Noun ARROW = new Noun("arrow", "arrow", "arrow", Category.ARROW, 200, 40);
  private static final Noun LINE = new Noun("line", "line", "line", Category.LINE, 200, 40);
  private static final Noun FRAME = new Noun("frame", "frame", "frame", Category.FRAME, 320, 240);

  private static final Map<String, Noun> NOUNS =
      Map.ofEntries(
          Map.entry("rectangle", RECTANGLE),
          Map.entry("rect", RECTANGLE),
          Map.entry("box", RECTANGLE),
          Map.entry("block", RECTANGLE),
          Map.entry("shape", RECTANGLE),
          Map.entry("square", SQUARE),
          Map.entry("ellipse", ELLIPSE),
          Map.entry("circle", CIRCLE),
          Map.entry("oval", geo("oval", "oval", 200, 120)),
          Map.entry("triangle", geo("triangle", "triangle", 150, 150)),
          Map.entry("diamond", geo("diamond", "diamond", 150, 150)),
          Map.entry("rhombus", geo("rhombus", "rhombus", 200, 120)),
          Map.entry("star", geo("star", "star", 150, 150)),
          Map.entry("pentagon", geo("pentagon", "pentagon", 150, 150)),
          Map.entry("hexagon", geo("hexagon", "hexagon", 150, 150)),
          Map.entry("octagon", geo("octagon", "octagon", 150, 150)),
          Map.entry("trapezoid", geo("trapezoid", "trapezoid", 200, 120)),
          Map.entry("cloud", geo("cloud", "cloud", 200, 120)),
          Map.entry("heart", geo("heart", "heart", 150, 150)),
          Map.entry("sticky", NOTE),
          Map.entry("stickie", NOTE),
          Map.entry("note", NOTE),
          Map.entry("post-it", NOTE),
          Map.entry("text", TEXT),
          Map.entry("label", TEXT),
          Map.entry("caption", TEXT),
          Map.entry("heading", TEXT),
          Map.entry("headline", TEXT),
          Map.entry("title", TEXT),
          Map.entry("arrow", ARROW),
          Map.entry("connector", ARROW),
          Map.entry("line", LINE),
          Map.entry("frame", FRAME),
          Map.entry("section", FRAME));

  private ShapeWords() {}

  static Noun rectangle() {
    return RECTANGLE;
  }

  static Noun text() {
    return TEXT;
  }

  /** The noun a word names, singular or plural ({@code box}, {@code boxes}, {@code stickies}). */
  static Optional<Noun> of(String word) {
    return forms(word).stream().map(NOUNS::get).filter(java.util.Objects::nonNull).findFirst();
  }

  /** Whether the word is a plural of a known noun. */
  static boolean isPlural(String word) {
    return !NOUNS.containsKey(word) && of(word).isPresent();
  }

  /** Whether a shape of the context is of this kind (its type is the tldraw type or, for geo shapes, the geo kind). */
  static boolean matches(Noun noun, SeenShape shape) {
    return shape.type().equals(noun.tldrawType()) || shape.type().equals(noun.type());
  }

  private static List<String> forms(String word) {
    String w = word.replace("\"", "");
    List<String> forms = new java.util.ArrayList<>(List.of(w));
    if (w.endsWith("ies")) {
      forms.add(w.substring(0, w.length() - 3) + "y");
      forms.add(w.substring(0, w.length() - 1));
    }
    if (w.endsWith("es")) {
      forms.add(w.substring(0, w.length() - 2));
    }
    if (w.endsWith("s")) {
      forms.add(w.substring(0, w.length() - 1));
    }
    return forms;
  }

  private static Noun geo(String name, String geo, double w, double h) {
    return new Noun(name, geo, "geo", Category.GEO, w, h);
  }
}
