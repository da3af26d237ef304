package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The follow-ups the scheduler's rules added to a run about to end ({@code scheduler.run_ending}'s
 * answer); empty when none.
 */
public record GrantedFollowUps(List<GrantedFollowUp> followUps) implements BusMessage {
  public GrantedFollowUps {
    followUps = List.copyOf(followUps);
  }

  @Override
  public JsonObject toJson() {
    JsonArray granted = new JsonArray();
    followUps.forEach(followUp -> granted.add(followUp.toJson()));
    return new JsonObject().put("followUps", granted);
  }

  public static GrantedFollowUps fromJson(JsonObject json) {
    return new GrantedFollowUps(
        json.getJsonArray("followUps", new JsonArray()).stream()
            .map(followUp -> GrantedFollowUp.fromJson((JsonObject) followUp))
            .toList());
  }
}
