package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * How a run ended, as the runner answers {@code runner.run} and {@code runner.cancel}: its final state
 * and the detail of its final {@code agent:status} ({@code runId}, {@code applied}, {@code code}, …).
 * On the bus the state is one more key of the detail.
 */
public record RunOutcome(RunState state, JsonObject detail) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return detail.copy().put("state", state.wireName());
  }

  public static RunOutcome fromJson(JsonObject json) {
    RunState state = RunState.fromWire(json.getString("state"));
    JsonObject detail = json.copy();
    detail.remove("state");
    return new RunOutcome(state, detail);
  }
}
