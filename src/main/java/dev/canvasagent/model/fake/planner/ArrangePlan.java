package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * "align them [left|right|top|bottom|center|middle]", "align them vertically" (a column) or
 * "horizontally" (a row); "distribute them [horizontally|vertically]", "space them out". The shapes
 * default to "them": the selection, else every shape in view.
 */
final class ArrangePlan {
  static final Set<String> ALIGN_VERBS = Set.of("align", "line");
  static final Set<String> DISTRIBUTE_VERBS = Set.of("distribute", "space", "spread");
  private static final Map<String, String> EDGES =
      Map.ofEntries(
          Map.entry("left", "left"),
          Map.entry("lefts", "left"),
          Map.entry("right", "right"),
          Map.entry("rights", "right"),
          Map.entry("top", "top"),
          Map.entry("tops", "top"),
          Map.entry("bottom", "bottom"),
          Map.entry("bottoms", "bottom"),
          Map.entry("center", "center-horizontal"),
          Map.entry("centre", "center-horizontal"),
          Map.entry("centers", "center-horizontal"),
          Map.entry("centres", "center-horizontal"),
          Map.entry("middle", "center-vertical"),
          Map.entry("middles", "center-vertical"));
  private static final Set<String> HORIZONTAL =
      Set.of("horizontally", "horizontal", "row", "across");
  private static final Set<String> VERTICAL = Set.of("vertically", "vertical", "column");
  private static final Set<String> NOT_A_TARGET =
      Set.of(
          "to", "the", "their", "edges", "edge", "sides", "side", "by", "along", "in", "with", "up",
          "out", "evenly", "equally", "on", "at", "row", "column");

  private ArrangePlan() {}

  static FakeAnswer align(Command command, CanvasView view) {
    String alignment = "left";
    boolean centered = false;
    List<String> phrase = new ArrayList<>();
    for (String word : command.rest()) {
      if (EDGES.containsKey(word)) {
        alignment = EDGES.get(word);
        centered = alignment.startsWith("center");
      } else if (HORIZONTAL.contains(word)) {
        // tldraw's "center horizontal" lines centres up on a vertical line; "align them
        // horizontally" alone makes a row.
        alignment = centered ? "center-horizontal" : "center-vertical";
      } else if (VERTICAL.contains(word)) {
        alignment = centered ? "center-vertical" : "center-horizontal";
      } else {
        phrase.add(word);
      }
    }
    phrase = Targets.phrase(phrase, NOT_A_TARGET);
    Targets.Resolved targets =
        Targets.resolve(phrase.isEmpty() ? List.of("them") : phrase, view, "align");
    if (!targets.found()) {
      return FakeAnswer.say(targets.problem());
    }
    if (targets.shapes().size() < 2) {
      return FakeAnswer.say(
          "Aligning takes at least two shapes; I see " + targets.shapes().size() + ".");
    }
    return FakeAnswer.act(
        "Aligning " + Phrases.count(targets.shapes()) + " (" + alignment + ").",
        List.of(Calls.align(targets.shapes(), alignment)));
  }

  static FakeAnswer distribute(Command command, CanvasView view) {
    String direction = null;
    List<String> phrase = new ArrayList<>();
    for (String word : command.rest()) {
      if (HORIZONTAL.contains(word)) {
        direction = "horizontal";
      } else if (VERTICAL.contains(word) || word.equals("down")) {
        direction = "vertical";
      } else {
        phrase.add(word);
      }
    }
    phrase = Targets.phrase(phrase, NOT_A_TARGET);
    Targets.Resolved targets =
        Targets.resolve(phrase.isEmpty() ? List.of("them") : phrase, view, "distribute");
    if (!targets.found()) {
      return FakeAnswer.say(targets.problem());
    }
    if (targets.shapes().size() < 3) {
      return FakeAnswer.say(
          "Distributing takes at least three shapes; I see " + targets.shapes().size() + ".");
    }
    if (direction == null) {
      direction =
          spread(targets.shapes(), true) >= spread(targets.shapes(), false)
              ? "horizontal"
              : "vertical";
    }
    return FakeAnswer.act(
        "Distributing " + Phrases.count(targets.shapes()) + " " + direction + "ly.",
        List.of(Calls.distribute(targets.shapes(), direction)));
  }

  /** How far apart the shapes' centres lie along one axis. */
  private static double spread(List<SeenShape> shapes, boolean horizontal) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (SeenShape shape : shapes) {
      double center = horizontal ? shape.x() + shape.w() / 2 : shape.y() + shape.h() / 2;
      min = Math.min(min, center);
      max = Math.max(max, center);
    }
    return max - min;
  }
}
