package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * How a drain went ({@code scheduler.drain}'s and {@code doc.agent.drain}'s answer): the runs that
 * ended by themselves within the grace ({@code finished}), those still going at its end and canceled
 * ({@code canceled}), and those that never started here ({@code notStarted}: the scheduler's waiting
 * runs, ended {@code canceled} or let go to the sessions' next owners on a cluster; the document
 * agent's loops that were checking their document out when the drain began and did not start).
 */
public record Drained(int finished, int canceled, int notStarted) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("finished", finished)
        .put("canceled", canceled)
        .put("notStarted", notStarted);
  }

  public static Drained fromJson(JsonObject json) {
    return new Drained(
        MessageFields.integer(json, "finished", "Drained"),
        MessageFields.integer(json, "canceled", "Drained"),
        MessageFields.integer(json, "notStarted", "Drained"));
  }
}
