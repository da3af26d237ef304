package dev.canvasagent.support;

import io.vertx.core.json.JsonObject;

/** A person's request as the status stream shows it: its own run, then any follow-ups of it. */
public final class Requests {
  private Requests() {}

  /**
   * Whether a status detail belongs to the request {@code runId} started: that run's, or a follow-up's
   * of it (the agent's {@code add_detail}, the scheduler's rules for few actions or open todos). The
   * request has ended at the first {@code done}, {@code error} or {@code canceled} among them.
   */
  public static boolean ofRequest(JsonObject detail, String runId) {
    if (detail == null) {
      return false;
    }
    JsonObject followUp = detail.getJsonObject("followUp");
    return runId.equals(detail.getString("runId"))
        || followUp != null && runId.equals(followUp.getString("requestRunId"));
  }
}
