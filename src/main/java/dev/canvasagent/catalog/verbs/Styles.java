package dev.canvasagent.catalog.verbs;

import dev.canvasagent.catalog.StyleNormalizer;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** Applies the style props a model asked for to a record's props, only where tldraw has that prop. */
final class Styles {
  static final List<String> PROPS =
      List.of(
          "color",
          "labelColor",
          "fill",
          "dash",
          "size",
          "font",
          "align",
          "verticalAlign",
          "textAlign",
          "geo",
          "arrowheadStart",
          "arrowheadEnd");

  private Styles() {}

  /** Whether {@link #apply} would take any of the requested styles (whether or not the record has it already). */
  static boolean takesAny(JsonObject requested, JsonObject recordProps, boolean brandPalette) {
    return PROPS.stream()
        .anyMatch(
            prop ->
                requested.containsKey(prop)
                    && recordProps.containsKey(prop)
                    && requested.getValue(prop) instanceof String raw
                    && StyleNormalizer.normalize(prop, raw, brandPalette).isPresent());
  }

  /** Copies each requested style the record has and tldraw accepts (after aliases); the rest is left out. */
  static void apply(JsonObject requested, JsonObject recordProps, boolean brandPalette) {
    for (String prop : PROPS) {
      if (requested.containsKey(prop)
          && recordProps.containsKey(prop)
          && requested.getValue(prop) instanceof String raw) {
        StyleNormalizer.normalize(prop, raw, brandPalette)
            .ifPresent(value -> recordProps.put(prop, value));
      }
    }
  }
}
