package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What canceling a session's work did ({@code scheduler.cancel}'s answer): the run that was running
 * and the state it ended in (null when none was), and the ids of the waiting runs dropped.
 */
public record SessionCanceled(String sessionId, CanceledRun canceled, List<String> dropped)
    implements BusMessage {
  /** The run that was running when the cancel came, and its final state. */
  public record CanceledRun(String runId, RunState state) {
    JsonObject toJson() {
      return new JsonObject().put("runId", runId).put("state", state.wireName());
    }

    static CanceledRun fromJson(JsonObject json) {
      return json == null
          ? null
          : new CanceledRun(json.getString("runId"), RunState.fromWire(json.getString("state")));
    }
  }

  public SessionCanceled {
    dropped = List.copyOf(dropped);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("sessionId", sessionId);
    if (canceled == null) {
      json.putNull("canceled");
    } else {
      json.put("canceled", canceled.toJson());
    }
    return json.put("dropped", new JsonArray(dropped));
  }

  public static SessionCanceled fromJson(JsonObject json) {
    return new SessionCanceled(
        json.getString("sessionId"),
        CanceledRun.fromJson(json.getJsonObject("canceled")),
        json.getJsonArray("dropped", new JsonArray()).stream().map(String.class::cast).toList());
  }
}
