package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;

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
    String wireName = json.getString("state");
    RunState state =
        Arrays.stream(RunState.values())
            .filter(candidate -> candidate.wireName().equals(wireName))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("not a run state: " + wireName));
    JsonObject detail = json.copy();
    detail.remove("state");
    return new RunOutcome(state, detail);
  }
}
