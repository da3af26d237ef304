package dev.canvasagent.scheduler;

import dev.canvasagent.bus.FollowUp;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.Viewport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * One session's runs: those waiting, in order, the one running, and what each user request has had of
 * follow-ups (a request's entry goes when nothing of it runs or waits any more). While the first
 * waiting run is being checked or claimed in the store, the session counts as running; when its claim found
 * another run of the session running elsewhere, {@code retryTimer} claims it again later.
 */
final class SessionQueue {
  final LinkedList<RunRequest> waiting = new LinkedList<>();
  private final Map<String, RequestFollowUps> requests = new HashMap<>();
  ActiveRun active;

  /**
   * The first waiting run is being checked against the runs of the session that wait on other nodes
   * (before its claim): it has not started, so runs taken over meanwhile still go ahead of it.
   */
  boolean checking;

  boolean claiming;
  long retryTimer = -1;

  /**
   * A person's message that came while the first waiting run was being claimed: it preempts that run
   * as soon as it has started, as it would have had the run been running already.
   */
  RunRequest preemptsOnStart;

  boolean running() {
    return active != null || claiming || checking;
  }

  /** Nothing runs, waits, or is being claimed: the session can be forgotten here. */
  boolean idle() {
    return active == null && !claiming && !checking && waiting.isEmpty();
  }

  /**
   * Runs taken over from a node that no longer holds them, in their session's order: older than
   * anything queued here since (they were accepted before this node owned the session), they go first,
   * in that order; a run already here is not queued twice.
   */
  void takeUp(List<RunRequest> runs) {
    List<RunRequest> fresh =
        runs.stream()
            .filter(run -> waiting.stream().noneMatch(queued -> queued.runId().equals(run.runId())))
            .filter(run -> active == null || !active.run.runId().equals(run.runId()))
            .toList();
    for (RunRequest run : fresh) {
      if (run.followUp() == null) {
        requests.putIfAbsent(run.runId(), new RequestFollowUps(run.message()));
      } else {
        request(run.requestRunId()).grantedAtLeast(run.followUp().number());
      }
    }
    // Behind the run being claimed, if any: it was first.
    waiting.addAll(claiming && !waiting.isEmpty() ? 1 : 0, fresh);
  }

  /** The running run, if a person's new message would preempt it: not when it is already being canceled. */
  ActiveRun preemptable() {
    return active != null && !active.canceling() ? active : null;
  }

  /**
   * How many runs would wait ahead of a person's new message: the follow-ups waiting are not counted
   * when that message preempts the running run, since they go with it.
   */
  long waitingOnceAPersonArrives() {
    boolean preempts = preemptable() != null;
    return waiting.stream().filter(run -> !preempts || run.followUp() == null).count();
  }

  /** A person's run joins the end of the queue; its request starts with no follow-ups. */
  void enqueuePersonRun(RunRequest run) {
    requests.put(run.runId(), new RequestFollowUps(run.message()));
    waiting.add(run);
  }

  RequestFollowUps request(String requestRunId) {
    return requests.computeIfAbsent(requestRunId, id -> new RequestFollowUps(""));
  }

  int followUpsGranted(String requestRunId) {
    return request(requestRunId).granted();
  }

  /**
   * A follow-up of the active run's user request, counted against the request's {@code limit} at once
   * (so two asked at the same time cannot both take the last place); empty when the request already
   * had {@code limit}. It joins the follow-ups the run asked for only once it is stored; {@link
   * #releaseFollowUp} gives its place back if it cannot be.
   */
  Optional<RunRequest> reserveFollowUp(
      ActiveRun asking, String reason, String message, Viewport viewport, int limit) {
    RunRequest run = asking.run;
    RequestFollowUps request = request(run.requestRunId());
    if (request.granted() >= limit) {
      return Optional.empty();
    }
    request.grant();
    RunRequest next =
        new RunRequest(
            UUID.randomUUID().toString(),
            run.sessionId(),
            run.roomId(),
            message,
            run.model(),
            viewport != null ? viewport : run.viewport(),
            run.selection(),
            new FollowUp(run.requestRunId(), run.runId(), request.granted(), reason));
    return Optional.of(next);
  }

  /** A reserved follow-up that could not be stored: its place under the cap is given back. */
  void releaseFollowUp(RunRequest followUp) {
    request(followUp.requestRunId()).release();
  }

  /** Whether runs of the user request wait in the queue. */
  boolean hasWaiting(String requestRunId) {
    return waiting.stream().anyMatch(run -> run.requestRunId().equals(requestRunId));
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

  /** Takes the waiting runs that {@code which} selects out of the queue, in their order. */
  List<RunRequest> dropWaiting(Predicate<RunRequest> which) {
    List<RunRequest> dropped = new ArrayList<>();
    Iterator<RunRequest> runs = waiting.iterator();
    while (runs.hasNext()) {
      RunRequest run = runs.next();
      if (which.test(run)) {
        runs.remove();
        dropped.add(run);
      }
    }
    dropped.forEach(run -> requestMayHaveEnded(run.requestRunId()));
    return dropped;
  }

  /** Forgets a request's follow-ups once nothing of it runs or waits any more. */
  void requestMayHaveEnded(String requestRunId) {
    boolean running = active != null && active.run.requestRunId().equals(requestRunId);
    if (!running && !hasWaiting(requestRunId)) {
      requests.remove(requestRunId);
    }
  }
}
