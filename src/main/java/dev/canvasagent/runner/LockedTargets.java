package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.LockedRefusal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The actions of a run the sanitizer refused because they would change shapes a person locked
 * ({@link LockedRefusal}), listed in the run's final status ({@code locked}). The model hears of them
 * as of every refused action ({@link RefusalNotes}).
 */
final class LockedTargets {
  private final JsonArray dropped = new JsonArray();

  /** Takes a refusal, when it was for locked shapes. */
  void take(AgentAction action, String reason) {
    if (!LockedRefusal.isLocked(reason)) {
      return;
    }
    dropped.add(
        new JsonObject()
            .put("actionId", action.id())
            .put("name", action.name())
            .put("reason", reason));
  }

  /** Adds the dropped actions to the run's final status, when there are any. */
  void addTo(JsonObject summary) {
    if (!dropped.isEmpty()) {
      summary.put("locked", dropped.copy());
    }
  }
}
