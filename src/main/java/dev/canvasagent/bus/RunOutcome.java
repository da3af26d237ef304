package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * How a run ended, as the runner answers {@code runner.run} and {@code runner.cancel}: its final state
 * and the detail of its final {@code agent:status} ({@code runId}, {@code applied}, {@code code}, …),
 * and whether the runner could write that final state to the run's record. When it could not (the
 * store was down), the scheduler keeps writing it until the store answers, so the record ends as the
 * clients were told. On the bus the state and {@code recorded} are two more keys of the detail.
 */
public record RunOutcome(RunState state, JsonObject detail, boolean recorded)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return detail.copy().put("state", state.wireName()).put("recorded", recorded);
  }

  public static RunOutcome fromJson(JsonObject json) {
    RunState state = RunState.fromWire(json.getString("state"));
    boolean recorded = json.getBoolean("recorded", true);
    JsonObject detail = json.copy();
    detail.remove("state");
    detail.remove("recorded");
    return new RunOutcome(state, detail, recorded);
  }
}
