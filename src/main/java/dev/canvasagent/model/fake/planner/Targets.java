package dev.canvasagent.model.fake.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which shapes a phrase of a command means: "it" (the one selected shape, else the topmost in view),
 * "them" (the selection, else every shape in view), "everything", a shape's label or id ({@code A},
 * {@code the box labeled A}), several of those joined by "and", or a kind ({@code the circle}: the
 * topmost of that kind).
 */
final class Targets {
  private static final Set<String> FILLER = Set.of("the", "to", "of", "on", "please");
  private static final Set<String> ARTICLES = Set.of("a", "an");
  private static final Set<String> IT =
      Set.of("it", "this", "that", "selection", "selected", "shape", "one");
  private static final Set<String> THEM = Set.of("them", "these", "those", "they");
  private static final Set<String> EVERYTHING =
      Set.of("everything", "all", "board", "canvas", "every", "shapes");
  private static final Set<String> LABEL_MARKERS =
      Set.of("labeled", "labelled", "called", "named", "saying");

  /** The shapes meant, or why there are none. */
  record Resolved(List<SeenShape> shapes, String problem) {
    static Resolved of(List<SeenShape> shapes) {
      return new Resolved(List.copyOf(shapes), null);
    }

    static Resolved none(String problem) {
      return new Resolved(List.of(), problem);
    }

    boolean found() {
      return problem == null;
    }
  }

  private Targets() {}

  /** Whether the phrase means every shape on the board ("everything", "all of it", "the board"). */
  static boolean meansEverything(List<String> phrase) {
    List<String> words = meaningful(phrase);
    return words.stream().anyMatch(EVERYTHING::contains)
        && words.stream().allMatch(word -> EVERYTHING.contains(word) || word.equals("it"));
  }

  /**
   * The shapes a phrase names; {@code doing} completes "I can't see a shape to …" when there are none.
   * An empty phrase means "it".
   */
  static Resolved resolve(List<String> phrase, CanvasView view, String doing) {
    List<String> words = meaningful(phrase);
    if (words.isEmpty() || words.stream().allMatch(IT::contains)) {
      return view.it()
          .map(shape -> Resolved.of(List.of(shape)))
          .orElseGet(() -> Resolved.none(nothingToSee(doing)));
    }
    if (words.stream().allMatch(word -> THEM.contains(word) || EVERYTHING.contains(word))) {
      List<SeenShape> shapes =
          words.stream().anyMatch(THEM::contains) ? view.them() : view.shapes();
      return shapes.isEmpty() ? Resolved.none(nothingToSee(doing)) : Resolved.of(shapes);
    }
    Optional<SeenShape> whole = named(words, view);
    if (whole.isPresent()) {
      return Resolved.of(List.of(whole.get()));
    }
    List<SeenShape> found = new ArrayList<>();
    for (List<String> part : split(words)) {
      Optional<SeenShape> shape = named(part, view);
      if (shape.isEmpty()) {
        return Resolved.none(
            view.shapes().isEmpty() && view.them().isEmpty()
                ? nothingToSee(doing)
                : "I can't find a shape called “" + String.join(" ", part) + "” on the board.");
      }
      found.add(shape.get());
    }
    return Resolved.of(found);
  }

  private static String nothingToSee(String doing) {
    return "I can't see a shape to " + doing + ": select one, or draw one first.";
  }

  /** One shape by label or id (the topmost of several), or by kind. */
  private static Optional<SeenShape> named(List<String> words, CanvasView view) {
    if (words.isEmpty()) {
      return Optional.empty();
    }
    List<String> label = words;
    int marker = indexOfMarker(words);
    if (marker >= 0) {
      label = words.subList(marker + 1, words.size());
    } else if (words.size() > 1 && ShapeWords.of(words.get(0)).isPresent()) {
      label = words.subList(1, words.size());
    }
    String wanted = String.join(" ", label);
    List<SeenShape> candidates = new ArrayList<>(view.shapes());
    view.them().stream().filter(shape -> !candidates.contains(shape)).forEach(candidates::add);
    for (int i = candidates.size() - 1; i >= 0; i--) {
      SeenShape shape = candidates.get(i);
      if (shape.text().strip().toLowerCase(Locale.ROOT).equals(wanted)
          || shape.id().toLowerCase(Locale.ROOT).equals(wanted)
          || ("shape:" + shape.id()).toLowerCase(Locale.ROOT).equals(wanted)) {
        return Optional.of(shape);
      }
    }
    if (words.size() == 1) {
      Optional<ShapeWords.Noun> noun = ShapeWords.of(words.get(0));
      if (noun.isPresent()) {
        for (int i = view.shapes().size() - 1; i >= 0; i--) {
          if (ShapeWords.matches(noun.get(), view.shapes().get(i))) {
            return Optional.of(view.shapes().get(i));
          }
        }
      }
    }
    return Optional.empty();
  }

  private static int indexOfMarker(List<String> words) {
    for (int i = 0; i < words.size() - 1; i++) {
      if (LABEL_MARKERS.contains(words.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private static List<List<String>> split(List<String> words) {
    List<List<String>> parts = new ArrayList<>();
    List<String> current = new ArrayList<>();
    for (String word : words) {
      if (word.equals("and") || word.equals("&")) {
        if (!current.isEmpty()) {
          parts.add(current);
        }
        current = new ArrayList<>();
      } else {
        current.add(word);
      }
    }
    if (!current.isEmpty()) {
      parts.add(current);
    }
    return parts;
  }

  /**
   * A command's words without those that are not about which shapes ({@code noise}); "a" goes too
   * when it begins such words ("a bit") and stays otherwise (it may be a label).
   */
  static List<String> phrase(List<String> words, Set<String> noise) {
    List<String> phrase = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String word = words.get(i);
      boolean article =
          ARTICLES.contains(word) && i + 1 < words.size() && noise.contains(words.get(i + 1));
      if (!article && !noise.contains(word)) {
        phrase.add(word);
      }
    }
    return phrase;
  }

  /** The words that name something: quotes dropped, filler left out, "a" only before a shape noun (elsewhere it may be a label). */
  private static List<String> meaningful(List<String> phrase) {
    List<String> words =
        phrase.stream()
            .map(word -> word.replaceAll("[\"“”‘’']", ""))
            .filter(word -> !word.isEmpty() && !FILLER.contains(word))
            .toList();
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      boolean article =
          ARTICLES.contains(words.get(i))
              && i + 1 < words.size()
              && ShapeWords.of(words.get(i + 1)).isPresent();
      if (!article) {
        kept.add(words.get(i));
      }
    }
    return kept;
  }
}
