package dev.canvasagent.lifecycle;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A session's runs as a restarted server tells them, once none is queued or running any more. */
final class SettledRuns {
  private SettledRuns() {}

  /** The session's stored runs by id, once none is queued or running any more. */
  static Map<String, JsonObject> of(Vertx vertx, WebClient http, String sessionId) {
    return byId(resume(vertx, http, sessionId));
  }

  /** The session's resume payload ({@code GET /api/sessions/{id}}) once no run is queued or running. */
  static JsonObject resume(Vertx vertx, WebClient http, String sessionId) {
    JsonObject[] resumed = new JsonObject[1];
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                http.get("/api/sessions/" + sessionId)
                    .send()
                    .map(
                        response -> {
                          resumed[0] = response.bodyAsJsonObject();
                          return resumed[0].getJsonArray("runs").stream()
                              .map(JsonObject.class::cast)
                              .noneMatch(
                                  run ->
                                      List.of("queued", "running")
                                          .contains(run.getString("state")));
                        })));
    return resumed[0];
  }

  /** The runs of a resume payload, by id. */
  static Map<String, JsonObject> byId(JsonObject resumed) {
    Map<String, JsonObject> runs = new HashMap<>();
    resumed
        .getJsonArray("runs")
        .forEach(run -> runs.put(((JsonObject) run).getString("runId"), (JsonObject) run));
    return runs;
  }
}
