package dev.canvasagent.model.fake.planner;

import dev.canvasagent.catalog.StyleNormalizer;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Colors in a command: tldraw's names ({@code blue}, {@code light blue}), their aliases ({@code
 * purple}, {@code gray}) and the brand palette ({@code brutalist orange}, {@code charcoal}), turned
 * into tldraw's name so the action does not depend on the theme flag.
 */
final class ColorWords {
  /** First words of two-word colors. */
  private static final Set<String> MODIFIERS =
      Set.of("light", "brutalist", "burnt", "brand", "deep", "off");

  /**
   * A color found at {@code start}, spanning {@code length} words.
   *
   * @param color tldraw's color name
   */
  record Found(String color, int start, int length) {}

  private ColorWords() {}

  static Optional<Found> find(List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      Optional<Found> found = at(words, i);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** A color starting at word {@code i}: two words first ({@code light blue}), then one. */
  static Optional<Found> at(List<String> words, int i) {
    if (MODIFIERS.contains(words.get(i)) && i + 1 < words.size()) {
      Optional<String> pair =
          StyleNormalizer.normalize("color", words.get(i) + "-" + words.get(i + 1), true);
      if (pair.isPresent()) {
        return Optional.of(new Found(pair.get(), i, 2));
      }
    }
    return StyleNormalizer.normalize("color", words.get(i), true)
        .map(color -> new Found(color, i, 1));
  }
}
