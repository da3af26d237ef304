package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * "make it bigger|smaller", "make them twice as big", "grow it", "shrink them" (scaled about their
 * centre); "color it red", "paint them light blue", "make it red", "turn A orange".
 */
final class RestylePlan {
  static final Set<String> RESIZE_VERBS = Set.of("resize", "scale", "grow", "enlarge", "shrink");
  static final Set<String> COLOR_VERBS =
      Set.of("color", "colour", "paint", "recolor", "recolour", "turn");
  static final double GROW = 1.5;
  static final double SHRINK = 2.0 / 3.0;
  private static final Map<String, Double> FACTORS =
      Map.ofEntries(
          Map.entry("bigger", GROW),
          Map.entry("larger", GROW),
          Map.entry("big", GROW),
          Map.entry("large", GROW),
          Map.entry("up", GROW),
          Map.entry("smaller", SHRINK),
          Map.entry("small", SHRINK),
          Map.entry("tinier", SHRINK),
          Map.entry("down", SHRINK),
          Map.entry("twice", 2.0),
          Map.entry("double", 2.0),
          Map.entry("half", 0.5),
          Map.entry("halve", 0.5));
  private static final Set<String> NOT_A_TARGET =
      Set.of("to", "the", "bit", "little", "lot", "as", "in", "size", "much", "by", "x");

  private RestylePlan() {}

  /** Whether "make …" restyles (it names a size or a color for something there) rather than creates. */
  static boolean restyles(Command command) {
    List<String> rest = command.rest();
    if (rest.isEmpty()) {
      return false;
    }
    String first = rest.get(0);
    if (first.equals("a") || first.equals("an")) {
      // "make a red box" creates; "make A green" (A a label) changes.
      return rest.stream().noneMatch(word -> ShapeWords.of(word).isPresent());
    }
    boolean creates =
        Numbers.count(first).isPresent()
            || ShapeWords.of(first).isPresent()
            || ColorWords.at(rest, 0).isPresent()
            || first.equals("some")
            || first.equals("new");
    return !creates;
  }

  static Optional<FakeAnswer> plan(Command command, CanvasView view) {
    List<String> words = command.rest();
    String verb = command.verb();
    boolean resizing = RESIZE_VERBS.contains(verb);
    Double factor =
        switch (verb) {
          case "grow", "enlarge" -> GROW;
          case "shrink" -> SHRINK;
          default -> null;
        };
    // The shapes are named first ("make it bigger", "color them red"); what follows says how.
    for (int i = 0; i < words.size(); i++) {
      Double named = FACTORS.get(words.get(i));
      if (named == null && resizing && i > 0) {
        named = scaleNumber(words.get(i));
      }
      if (named != null) {
        return Optional.of(resize(words.subList(0, i), named, view));
      }
      Optional<ColorWords.Found> color = resizing ? Optional.empty() : ColorWords.at(words, i);
      if (color.isPresent() && (i > 0 || words.size() == color.get().length())) {
        return Optional.of(recolor(words.subList(0, i), color.get().color(), view));
      }
    }
    if (COLOR_VERBS.contains(verb)) {
      return Optional.of(
          FakeAnswer.say(
              "Which color? I know tldraw's: black, grey, light-violet, violet, blue, light-blue, "
                  + "yellow, orange, green, light-green, light-red, red, white (and aliases such as purple, pink, brutalist orange)."));
    }
    return factor == null ? Optional.empty() : Optional.of(resize(words, factor, view));
  }

  /** "2", "2x", "x2" after a resize verb: a factor from 0.1 to 10. */
  private static Double scaleNumber(String word) {
    java.util.OptionalDouble number = Numbers.number(word.replaceAll("^x|x$", ""));
    return number.isPresent() && number.getAsDouble() >= 0.1 && number.getAsDouble() <= 10
        ? number.getAsDouble()
        : null;
  }

  private static FakeAnswer recolor(List<String> phrase, String color, CanvasView view) {
    Targets.Resolved targets = Targets.resolve(phrase(phrase), view, "color");
    if (!targets.found()) {
      return FakeAnswer.say(targets.problem());
    }
    return FakeAnswer.act(
        "Coloring " + Phrases.count(targets.shapes()) + " " + color.replace('-', ' ') + ".",
        targets.shapes().stream().map(shape -> Calls.recolor(shape, color)).toList());
  }

  private static FakeAnswer resize(List<String> phrase, double factor, CanvasView view) {
    Targets.Resolved targets = Targets.resolve(phrase(phrase), view, "resize");
    if (!targets.found()) {
      return FakeAnswer.say(targets.problem());
    }
    List<SeenShape> shapes = targets.shapes();
    JsonObject origin = new JsonObject();
    if (shapes.stream().allMatch(SeenShape::placed)) {
      double minX = shapes.stream().mapToDouble(SeenShape::x).min().orElseThrow();
      double minY = shapes.stream().mapToDouble(SeenShape::y).min().orElseThrow();
      double maxX = shapes.stream().mapToDouble(SeenShape::maxX).max().orElseThrow();
      double maxY = shapes.stream().mapToDouble(SeenShape::maxY).max().orElseThrow();
      origin
          .put("originX", Calls.whole((minX + maxX) / 2))
          .put("originY", Calls.whole((minY + maxY) / 2));
    }
    double rounded = Math.round(factor * 1000) / 1000.0;
    return FakeAnswer.act(
        (factor > 1 ? "Enlarging " : "Shrinking ") + Phrases.count(shapes) + " ×" + rounded + ".",
        List.of(Calls.resize(shapes, rounded, origin)));
  }

  private static List<String> phrase(List<String> words) {
    return Targets.phrase(words, NOT_A_TARGET);
  }
}
