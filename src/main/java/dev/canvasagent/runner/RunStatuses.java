package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * A run's {@code agent:status}: every detail names the run, and the early states say what they are
 * about (the follow-up being run, the model called, the model's first event) so a client needs no
 * other message to show them.
 */
final class RunStatuses {
  private final EventBus bus;
  private final RunRequest request;
  private final RunMetrics metrics;

  RunStatuses(EventBus bus, RunRequest request, RunMetrics metrics) {
    this.bus = bus;
    this.request = request;
    this.metrics = metrics;
  }

  void publish(RunState state, JsonObject detail) {
    JsonObject full = detail == null ? new JsonObject() : detail;
    if (!full.containsKey("runId")) {
      full.put("runId", request.runId());
    }
    switch (state) {
      case WAITING_CONTEXT -> {
        if (request.followUp() != null) {
          full.put("followUp", request.followUp().toJson());
        }
      }
      case CALLING_MODEL -> full.put("model", request.model());
      case STREAMING -> full.mergeIn(metrics.firstEventDetail());
      default -> {}
    }
    new AgentStatus(request.sessionId(), state, full).publish(bus, request.roomId());
  }
}
