package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer;
import java.util.List;
import java.util.Set;

/** "delete it", "remove them", "delete A and B"; "delete everything", "clear" and "clear the board" clear it. */
final class DeletePlan {
  static final Set<String> VERBS = Set.of("delete", "remove", "erase", "clear", "wipe");

  private DeletePlan() {}

  static FakeAnswer plan(Command command, CanvasView view) {
    boolean clearing = command.verb().equals("clear") || command.verb().equals("wipe");
    if (clearing || Targets.meansEverything(command.rest())) {
      return FakeAnswer.act("Clearing the board.", List.of(Calls.clear()));
    }
    Targets.Resolved targets = Targets.resolve(command.rest(), view, "delete");
    if (!targets.found()) {
      return FakeAnswer.say(targets.problem());
    }
    return FakeAnswer.act(
        "Deleting " + Phrases.count(targets.shapes()) + ".",
        List.of(Calls.delete(targets.shapes())));
  }
}
