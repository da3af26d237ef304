package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code debug/fake}'s planner for plain commands: deterministic rules, no model. It takes a message
 * whose first word is one of its verbs (draw, move, delete, align, …) and answers with the catalog's
 * actions, reading the board from the request's structured context ({@code ModelContext}): "it" is
 * the one selected shape, else the topmost shape in view; "them" the selection, else every shape in
 * view; new shapes go in free space inside the viewport. A command it cannot follow gets a text
 * answer saying what it understands, and no action. Any other message is not its business (empty).
 */
public final class CommandPlanner {
  private static final Set<String> HELP = Set.of("help", "/help", "?");

  private final List<String> scenarioHelp;

  /** @param scenarioHelp one line per scripted scenario, for the help text */
  public CommandPlanner(List<String> scenarioHelp) {
    this.scenarioHelp = List.copyOf(scenarioHelp);
  }

  public Optional<FakeAnswer> plan(String message, JsonObject context) {
    Command command = Command.parse(message);
    String verb = command.verb();
    if (HELP.contains(verb) || command.text().equalsIgnoreCase("what can you do")) {
      return Optional.of(FakeAnswer.say(PlannerHelp.text(scenarioHelp)));
    }
    if (!understands(verb)) {
      return Optional.empty();
    }
    CanvasView view = CanvasView.of(context);
    Optional<FakeAnswer> answer = answer(command, view);
    return Optional.of(
        answer.orElseGet(
            () ->
                FakeAnswer.say(
                    "I didn't understand “"
                        + command.text()
                        + "”. "
                        + PlannerHelp.text(scenarioHelp))));
  }

  private static boolean understands(String verb) {
    return CreatePlan.VERBS.contains(verb)
        || MovePlan.VERBS.contains(verb)
        || DeletePlan.VERBS.contains(verb)
        || ArrangePlan.ALIGN_VERBS.contains(verb)
        || ArrangePlan.DISTRIBUTE_VERBS.contains(verb)
        || RestylePlan.RESIZE_VERBS.contains(verb)
        || RestylePlan.COLOR_VERBS.contains(verb)
        || ConnectPlan.VERBS.contains(verb);
  }

  private static Optional<FakeAnswer> answer(Command command, CanvasView view) {
    String verb = command.verb();
    if (verb.equals("make") && RestylePlan.restyles(command)) {
      return RestylePlan.plan(command, view);
    }
    if (CreatePlan.VERBS.contains(verb)) {
      return CreatePlan.plan(command, view);
    }
    if (MovePlan.VERBS.contains(verb)) {
      return MovePlan.plan(command, view);
    }
    if (DeletePlan.VERBS.contains(verb)) {
      return Optional.of(DeletePlan.plan(command, view));
    }
    if (ArrangePlan.ALIGN_VERBS.contains(verb)) {
      return Optional.of(ArrangePlan.align(command, view));
    }
    if (ArrangePlan.DISTRIBUTE_VERBS.contains(verb)) {
      return Optional.of(ArrangePlan.distribute(command, view));
    }
    if (ConnectPlan.VERBS.contains(verb)) {
      return Optional.of(ConnectPlan.plan(command, view));
    }
    return RestylePlan.plan(command, view);
  }
}
