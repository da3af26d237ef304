package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * The scheduler starts a run on the runner ({@code runner.run}): the run, and two facts of its
 * session's queue at that moment that are not part of the run itself: how many runs were waiting
 * (for the run's log line), and how many of them are follow-ups of the same user request (while
 * there are any, the run ends {@code scheduled} rather than {@code done}). On the bus they are two
 * more keys of the run's JSON.
 */
public record RunStart(RunRequest run, int queueDepthAtStart, int followUpsWaiting)
    implements BusMessage {
  @Override
  public JsonObject toJson() {
    return run.toJson()
        .put("queueDepthAtStart", queueDepthAtStart)
        .put("followUpsWaiting", followUpsWaiting);
  }

  public static RunStart fromJson(JsonObject json) {
    return new RunStart(
        RunRequest.fromJson(json),
        json.getInteger("queueDepthAtStart", 0),
        json.getInteger("followUpsWaiting", 0));
  }
}
