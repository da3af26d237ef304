package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/** "move it right", "move them up by 40", "nudge A left a bit", "move it down and right". */
final class MovePlan {
  static final Set<String> VERBS = Set.of("move", "shift", "nudge", "push", "slide", "drag");
  static final double DEFAULT_DISTANCE = 100;
  static final double SMALL_DISTANCE = 40;
  static final double LARGE_DISTANCE = 300;
  private static final Map<String, int[]> DIRECTIONS =
      Map.of(
          "right",
          new int[] {1, 0},
          "left",
          new int[] {-1, 0},
          "up",
          new int[] {0, -1},
          "down",
          new int[] {0, 1});
  private static final Set<String> NOT_A_TARGET =
      Set.of("by", "to", "bit", "little", "slightly", "far", "lot", "and", "the");

  private MovePlan() {}

  static Optional<FakeAnswer> plan(Command command, CanvasView view) {
    List<String> words = command.rest();
    int firstDirection = -1;
    int dx = 0;
    int dy = 0;
    for (int i = 0; i < words.size(); i++) {
      int[] direction = DIRECTIONS.get(words.get(i).replaceAll("wards?$", ""));
      if (direction != null) {
        firstDirection = firstDirection < 0 ? i : firstDirection;
        dx += direction[0];
        dy += direction[1];
      }
    }
    if (firstDirection < 0) {
      return Optional.empty();
    }
    double distance = distance(words);
    List<String> phrase =
        Targets.phrase(words.subList(0, firstDirection), NOT_A_TARGET).stream()
            .filter(word -> Numbers.number(word).isEmpty() && !Numbers.isUnit(word))
            .toList();
    Targets.Resolved targets = Targets.resolve(phrase, view, "move");
    if (!targets.found()) {
      return Optional.of(FakeAnswer.say(targets.problem()));
    }
    if (dx == 0 && dy == 0) {
      return Optional.of(FakeAnswer.say("Those directions cancel out: nothing to move."));
    }
    String where =
        (dx == 0 ? "" : dx > 0 ? " right" : " left") + (dy == 0 ? "" : dy > 0 ? " down" : " up");
    return Optional.of(
        FakeAnswer.act(
            "Moving "
                + Phrases.count(targets.shapes())
                + where
                + " by "
                + Calls.whole(distance)
                + ".",
            List.of(Calls.move(targets.shapes(), dx * distance, dy * distance))));
  }

  /** "by 40", "40px", "a bit", "far"; otherwise the default step. */
  private static double distance(List<String> words) {
    for (String word : words) {
      OptionalDouble number = Numbers.number(word);
      if (number.isPresent() && number.getAsDouble() > 0) {
        return Math.min(number.getAsDouble(), 100_000);
      }
    }
    if (words.contains("bit") || words.contains("little") || words.contains("slightly")) {
      return SMALL_DISTANCE;
    }
    if (words.contains("far") || words.contains("lot")) {
      return LARGE_DISTANCE;
    }
    return DEFAULT_DISTANCE;
  }
}
