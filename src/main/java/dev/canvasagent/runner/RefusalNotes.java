package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentAction;
import java.util.Optional;

/**
 * The actions of a run that were refused as invalid (a verb that is none of ours, params its schema
 * refuses, shapes a person locked, another dialect's action our verbs cannot express), told to the
 * model's next turn as system lines of the session's chat: the reason names what to do instead (the
 * closest verbs, the schema path, the locked shapes), and a model that never hears it repeats the
 * mistake. At most {@link #MAX_TOLD} a run, each reason at most {@link #MAX_REASON_CHARS}.
 */
final class RefusalNotes {
  static final int MAX_TOLD = 10;
  static final int MAX_REASON_CHARS = 300;

  private int refused;

  /** The chat line for one refused action, while there is room for one. */
  Optional<String> take(AgentAction action, String reason) {
    refused++;
    if (refused > MAX_TOLD + 1) {
      return Optional.empty();
    }
    if (refused == MAX_TOLD + 1) {
      return Optional.of("More actions were dropped; the ones above show why.");
    }
    String told =
        reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) + "…" : reason;
    return Optional.of(action.name() + " was dropped, " + told + ".");
  }
}
