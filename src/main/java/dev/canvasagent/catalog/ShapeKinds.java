package dev.canvasagent.catalog;

import dev.canvasagent.board.TldrawStyles;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What kind of tldraw shape a model means: a tldraw type ({@code geo}, {@code note}, …), a geo kind
 * ({@code ellipse}, {@code star}) or a word for one ({@code box}, {@code sticky}, {@code headline}).
 * Anything else — including a half-streamed {@code "r"} — is no kind, and the action is dropped.
 */
public final class ShapeKinds {
  /** A tldraw shape type and, for geo shapes, the geo kind. */
  public record Kind(String type, String geo) {}

  private static final Map<String, Kind> WORDS =
      Map.ofEntries(
          Map.entry("geo", new Kind("geo", "rectangle")),
          Map.entry("shape", new Kind("geo", "rectangle")),
          Map.entry("box", new Kind("geo", "rectangle")),
          Map.entry("rect", new Kind("geo", "rectangle")),
          Map.entry("square", new Kind("geo", "rectangle")),
          Map.entry("block", new Kind("geo", "rectangle")),
          Map.entry("circle", new Kind("geo", "ellipse")),
          Map.entry("note", new Kind("note", null)),
          Map.entry("sticky", new Kind("note", null)),
          Map.entry("sticky-note", new Kind("note", null)),
          Map.entry("post-it", new Kind("note", null)),
          Map.entry("text", new Kind("text", null)),
          Map.entry("headline", new Kind("text", null)),
          Map.entry("heading", new Kind("text", null)),
          Map.entry("title", new Kind("text", null)),
          Map.entry("label", new Kind("text", null)),
          Map.entry("caption", new Kind("text", null)),
          Map.entry("arrow", new Kind("arrow", null)),
          Map.entry("connector", new Kind("arrow", null)),
          Map.entry("line", new Kind("line", null)),
          Map.entry("draw", new Kind("draw", null)),
          Map.entry("pen", new Kind("draw", null)),
          Map.entry("freehand", new Kind("draw", null)),
          Map.entry("scribble", new Kind("draw", null)),
          Map.entry("frame", new Kind("frame", null)),
          Map.entry("section", new Kind("frame", null)),
          Map.entry("container", new Kind("frame", null)));

  private ShapeKinds() {}

  /**
   * The words for kinds, beside tldraw's own types and geo kinds, as {@code {word: {type, geo?}}}: what
   * a client needs to read a model's {@code create_shape} the way the server will ({@code GET
   * /api/catalog}).
   */
  public static JsonObject words() {
    JsonObject words = new JsonObject();
    new TreeMap<>(WORDS)
        .forEach(
            (word, kind) -> {
              JsonObject described = new JsonObject().put("type", kind.type());
              if (kind.geo() != null) {
                described.put("geo", kind.geo());
              }
              words.put(word, described);
            });
    return words;
  }

  public static Optional<Kind> of(String word) {
    if (word == null) {
      return Optional.empty();
    }
    String value = word.strip().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
    if (TldrawStyles.GEOS.contains(value)) {
      return Optional.of(new Kind("geo", value));
    }
    return Optional.ofNullable(WORDS.get(value));
  }
}
