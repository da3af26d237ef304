package dev.canvasagent.scheduler;

import dev.canvasagent.bus.RunRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;

/**
 * One session's runs: those waiting, in order, the one running, and how many follow-ups each user
 * request has been granted (a request's entry goes when its last run has ended).
 */
final class SessionQueue {
  final LinkedList<RunRequest> waiting = new LinkedList<>();
  private final Map<String, Integer> followUpsByRequest = new HashMap<>();
  ActiveRun active;

  boolean running() {
    return active != null;
  }

  int followUpsGranted(String requestRunId) {
    return followUpsByRequest.getOrDefault(requestRunId, 0);
  }

  void grantFollowUp(String requestRunId) {
    followUpsByRequest.merge(requestRunId, 1, Integer::sum);
  }

  /**
   * A finished run's follow-ups go right after the runs already waiting for the same user request (or
   * first), so a request's passes run one after another, before the next thing a person asked.
   */
  void enqueueFollowUps(String requestRunId, List<RunRequest> followUps) {
    if (followUps.isEmpty()) {
      return;
    }
    int insertAt = 0;
    ListIterator<RunRequest> runs = waiting.listIterator();
    while (runs.hasNext()) {
      if (runs.next().requestRunId().equals(requestRunId)) {
        insertAt = runs.nextIndex();
      }
    }
    waiting.addAll(insertAt, new ArrayList<>(followUps));
  }

  /** Forgets a request's follow-up count once nothing of it waits any more. */
  void requestMayHaveEnded(String requestRunId) {
    if (waiting.stream().noneMatch(run -> run.requestRunId().equals(requestRunId))) {
      followUpsByRequest.remove(requestRunId);
    }
  }
}
