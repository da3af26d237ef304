package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.LockedRefusal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * The actions of a run the sanitizer refused because they would change shapes a person locked
 * ({@link LockedRefusal}): said, as a system line of the session's chat, to the model's next turn, so it
 * stops trying, and listed in the run's final status ({@code locked}).
 */
final class LockedTargets {
  private final JsonArray dropped = new JsonArray();

  /** Takes a refusal; the chat line telling the model, when the refusal was for locked shapes. */
  Optional<String> take(AgentAction action, String reason) {
    if (!LockedRefusal.isLocked(reason)) {
      return Optional.empty();
    }
    dropped.add(
        new JsonObject()
            .put("actionId", action.id())
            .put("name", action.name())
            .put("reason", reason));
    return Optional.of(action.name() + " was dropped, " + reason + ".");
  }

  /** Adds the dropped actions to the run's final status, when there are any. */
  void addTo(JsonObject summary) {
    if (!dropped.isEmpty()) {
      summary.put("locked", dropped.copy());
    }
  }
}
