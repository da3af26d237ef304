package dev.canvasagent.scheduler;

import dev.canvasagent.support.SseClient.SseEvent;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Reading a room's event stream run by run: which runs started, in which order, and how each ended. */
final class RunEvents {
  private RunEvents() {}

  static boolean isStatus(SseEvent event) {
    return event.event().equals("agent:status");
  }

  static String runId(SseEvent event) {
    return event.data().getJsonObject("detail", new JsonObject()).getString("runId");
  }

  static String state(SseEvent event) {
    return event.data().getString("state");
  }

  /** The status {@code state} of run {@code runId} (a queued run's {@code scheduled {position}} excluded). */
  static Predicate<SseEvent> status(String runId, String state) {
    return event ->
        isStatus(event)
            && runId.equals(runId(event))
            && state.equals(state(event))
            && !event.data().getJsonObject("detail").containsKey("position");
  }

  /** The status that ends run {@code runId}: {@code scheduled} (follow-ups to come) or final. */
  static Predicate<SseEvent> end(String runId) {
    return event ->
        isStatus(event)
            && runId.equals(runId(event))
            && List.of("scheduled", "done", "error", "canceled").contains(state(event))
            && !event.data().getJsonObject("detail").containsKey("position");
  }

  /** The runs that started ({@code waiting_context}), in order. */
  static List<String> started(List<SseEvent> events) {
    return events.stream()
        .filter(event -> isStatus(event) && state(event).equals("waiting_context"))
        .map(RunEvents::runId)
        .toList();
  }

  static int indexOf(List<SseEvent> events, Predicate<SseEvent> which) {
    for (int i = 0; i < events.size(); i++) {
      if (which.test(events.get(i))) {
        return i;
      }
    }
    return -1;
  }

  static Optional<JsonObject> detail(List<SseEvent> events, Predicate<SseEvent> which) {
    return events.stream()
        .filter(which)
        .findFirst()
        .map(event -> event.data().getJsonObject("detail"));
  }

  /** An action envelope of run {@code runId} (action ids are {@code <runId>:…}). */
  static Predicate<SseEvent> envelopeOf(String runId) {
    return event ->
        event.event().equals("agent:action")
            && event
                .data()
                .getJsonArray("actions")
                .getJsonObject(0)
                .getString("id")
                .startsWith(runId + ":");
  }
}
