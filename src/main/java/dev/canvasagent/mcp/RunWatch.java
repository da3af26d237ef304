package dev.canvasagent.mcp;

import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunAccepted;
import dev.canvasagent.bus.RunState;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Follows one user request's runs in a room to their end, as the room's browsers see them: its
 * {@code agent:status}, {@code agent:chat} and {@code agent:action}. The scheduler answers a submit at
 * once and offers no way to await a run's end over the bus, and the room's topics are where that end is
 * told anyway: so this listens to them ({@link RoomTopicListener}), for as long as the call lasts.
 *
 * <p>The request is its run and the follow-ups it is granted (named in a {@code scheduled} status's
 * {@code followupsQueued}, or by a status's {@code followUp.requestRunId}); it ends at the first final
 * status ({@code done}, {@code error}, {@code canceled}) of one of them. Chat and envelopes carry no run
 * id: they are the request's while one of its runs is the session's running one. The watch opens before
 * the submit, so that nothing of a run that starts at once is missed: what comes before the run's id is
 * known is held, then read.
 */
final class RunWatch {
  /** How the request ended: the final state and its detail, its chat, and the envelopes applied. */
  record End(RunState state, JsonObject detail, JsonArray chat, int applied) {}

  private record Event(RoomTopic topic, JsonObject body) {}

  private final ToolProgress progress;
  private Runnable stopListening = () -> {};
  private final List<Event> held = new ArrayList<>();
  private final Set<String> runs = new HashSet<>();
  private final JsonArray chat = new JsonArray();
  private final Promise<End> ended = Promise.promise();
  private String sessionId;
  private String running;
  private int applied;
  private int steps;

  private RunWatch(ToolProgress progress) {
    this.progress = progress;
  }

  /** A watch of {@code roomId}, once its consumers are registered (on every node of a cluster). */
  static Future<RunWatch> open(RoomTopicListener topics, String roomId, ToolProgress progress) {
    RunWatch watch = new RunWatch(progress);
    RoomTopicListener.Listening listening =
        topics.listen(
            roomId,
            List.of(RoomTopic.AGENT_STATUS, RoomTopic.AGENT_CHAT, RoomTopic.AGENT_ACTION),
            watch::seen);
    watch.stopListening = listening.close();
    return listening.ready().map(watch).onFailure(error -> watch.close());
  }

  /** Follows the request the scheduler accepted; what was held meanwhile is read first. */
  void follow(RunAccepted accepted) {
    sessionId = accepted.sessionId();
    runs.add(accepted.runId());
    List<Event> before = List.copyOf(held);
    held.clear();
    before.forEach(event -> seen(event.topic(), event.body()));
  }

  /** Completes at the request's end; the watch has then stopped listening. */
  Future<End> ended() {
    return ended.future();
  }

  /** Stops listening (idempotent); a watch that has not ended never will. */
  void close() {
    stopListening.run();
    stopListening = () -> {};
    held.clear();
  }

  private void seen(RoomTopic topic, JsonObject body) {
    if (ended.future().isComplete() || body == null) {
      return;
    }
    if (sessionId == null) {
      held.add(new Event(topic, body));
      return;
    }
    if (!sessionId.equals(body.getString("sessionId"))) {
      return;
    }
    switch (topic) {
      case AGENT_STATUS -> status(body);
      case AGENT_CHAT -> {
        // A delta has no message: only whole messages are told.
        if (ours(running) && body.containsKey("message")) {
          chat.add(body.getJsonObject("message"));
        }
      }
      case AGENT_ACTION -> {
        if (ours(running) && !body.getBoolean("partial", false)) {
          applied++;
          report("applied " + actionNames(body.getJsonArray("actions", new JsonArray())));
        }
      }
      default -> {}
    }
  }

  private void status(JsonObject body) {
    JsonObject detail = body.getJsonObject("detail", new JsonObject());
    String runId = detail.getString("runId");
    JsonObject followUp = detail.getJsonObject("followUp");
    if (followUp != null && runs.contains(followUp.getString("requestRunId"))) {
      runs.add(runId);
    }
    RunState state = stateOf(body.getString("state"));
    if (state == null || runId == null) {
      return;
    }
    // A queued run's "scheduled" says where it waits; every other status is of the running run.
    boolean queued = state == RunState.SCHEDULED && detail.containsKey("position");
    if (!queued) {
      running = state.isFinal() || state == RunState.SCHEDULED ? null : runId;
    }
    if (!ours(runId)) {
      return;
    }
    detail.getJsonArray("followupsQueued", new JsonArray()).stream()
        .filter(JsonObject.class::isInstance)
        .map(queuedFollowUp -> ((JsonObject) queuedFollowUp).getString("runId"))
        .filter(Objects::nonNull)
        .forEach(runs::add);
    report(
        queued
            ? "queued, position " + detail.getValue("position")
            : state.wireName() + (runs.size() > 1 ? " (run " + runs.size() + ")" : ""));
    if (state.isFinal()) {
      close();
      ended.complete(new End(state, detail, chat.copy(), applied));
    }
  }

  private boolean ours(String runId) {
    return runId != null && runs.contains(runId);
  }

  private void report(String message) {
    steps++;
    progress.report(steps, null, message + " (" + applied + " applied)");
  }

  private static String actionNames(JsonArray actions) {
    String names =
        actions.stream()
            .filter(JsonObject.class::isInstance)
            .map(action -> ((JsonObject) action).getString("name", "?"))
            .collect(Collectors.joining(", "));
    return names.isEmpty() ? "an envelope" : names;
  }

  private static RunState stateOf(String wireName) {
    try {
      return wireName == null ? null : RunState.fromWire(wireName);
    } catch (IllegalArgumentException unknown) {
      return null;
    }
  }
}
