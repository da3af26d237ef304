package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer;
import dev.canvasagent.model.fake.FakeAnswer.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * "connect A to B", "link A with B", "draw an arrow from A to B": an arrow bound to both shapes;
 * "connect them": arrows from each shape to the next, in paint order.
 */
final class ConnectPlan {
  static final Set<String> VERBS = Set.of("connect", "link", "join");
  private static final Set<String> SEPARATORS = Set.of("to", "with", "and");

  private ConnectPlan() {}

  static FakeAnswer plan(Command command, CanvasView view) {
    List<String> words = command.rest();
    for (int i = 1; i < words.size() - 1; i++) {
      if (SEPARATORS.contains(words.get(i))) {
        return connect(words.subList(0, i), words.subList(i + 1, words.size()), view);
      }
    }
    Targets.Resolved targets =
        Targets.resolve(words.isEmpty() ? List.of("them") : words, view, "connect");
    if (!targets.found()) {
      return FakeAnswer.say(targets.problem());
    }
    List<SeenShape> shapes = targets.shapes();
    if (shapes.size() < 2) {
      return FakeAnswer.say("Connecting takes two shapes: connect A to B.");
    }
    List<ToolCall> arrows = new ArrayList<>();
    for (int i = 0; i + 1 < shapes.size(); i++) {
      arrows.add(Calls.arrow(shapes.get(i), shapes.get(i + 1)));
    }
    return FakeAnswer.act("Connecting " + shapes.size() + " shapes in a chain.", arrows);
  }

  static FakeAnswer connect(List<String> from, List<String> to, CanvasView view) {
    Targets.Resolved start = Targets.resolve(from, view, "connect");
    if (!start.found()) {
      return FakeAnswer.say(start.problem());
    }
    Targets.Resolved end = Targets.resolve(to, view, "connect");
    if (!end.found()) {
      return FakeAnswer.say(end.problem());
    }
    SeenShape a = start.shapes().get(start.shapes().size() - 1);
    SeenShape b = end.shapes().get(end.shapes().size() - 1);
    if (a.id().equals(b.id())) {
      return FakeAnswer.say("That is one shape twice: connect two different shapes.");
    }
    return FakeAnswer.act(
        "Connecting " + Phrases.name(a) + " to " + Phrases.name(b) + ".",
        List.of(Calls.arrow(a, b)));
  }
}
