package dev.canvasagent.scheduler;

import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.store.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes over the queued runs that no node holds any more, for the sessions this node owns: those of a
 * node that died (its heartbeat stopped {@code durability.interruptedAfterMs} ago, when the sweeper
 * also ends its running run INTERRUPTED) and those a node let go (it stopped cleanly, or no longer owns
 * their session). It looks every {@code durability.heartbeatMs} and whenever the cluster's members
 * change. Each run is taken over conditionally in the store (only while still queued and stale), so of
 * two nodes that both believe they own a session, one gets each run; which of them runs it is decided
 * by its claim ({@link RunJournal#started}), so nothing runs twice.
 *
 * <p>A follow-up runs only if the run that asked for it finished ({@code done} or {@code scheduled}), as
 * on the node that granted it; one whose asking run ended otherwise is ended {@code error} INTERRUPTED,
 * and one whose asking run is still live waits for it to end (or be swept) before it is judged.
 */
final class QueueTakeover {
  private static final Logger LOG = LoggerFactory.getLogger(QueueTakeover.class);
  private static final Set<String> FINISHED = Set.of("done", "scheduled");

  private final Vertx vertx;
  private final RunStore runs;
  private final RunJournal journal;
  private final ClusterView cluster;
  private final long intervalMs;
  private final long staleAfterMs;
  private final BiConsumer<String, List<RunRequest>> takeUp;
  private final Supplier<Boolean> stopping;

  private long timer = -1;
  private boolean looking;
  private boolean lookAgain;
  private long takenOver;

  /**
   * {@code takeUp} queues a session's runs taken over here, in their order; nothing is taken over once
   * {@code stopping} says so.
   */
  QueueTakeover(
      Vertx vertx,
      RunStore runs,
      RunJournal journal,
      ClusterView cluster,
      long intervalMs,
      long staleAfterMs,
      BiConsumer<String, List<RunRequest>> takeUp,
      Supplier<Boolean> stopping) {
    this.vertx = vertx;
    this.runs = runs;
    this.journal = journal;
    this.cluster = cluster;
    this.intervalMs = intervalMs;
    this.staleAfterMs = staleAfterMs;
    this.takeUp = takeUp;
    this.stopping = stopping;
  }

  void start() {
    timer = vertx.setPeriodic(intervalMs, id -> look());
    cluster.onMembersChanged(members -> look());
    look();
  }

  /** One look now (or right after the one under way): failures are logged, the next look retries. */
  void look() {
    if (looking) {
      lookAgain = true;
      return;
    }
    if (stopping.get()) {
      return;
    }
    looking = true;
    lookNow()
        .onFailure(
            error ->
                LOG.atWarn()
                    .addKeyValue("error", String.valueOf(error.getMessage()))
                    .log("queue.takeover_failed"))
        .onComplete(
            done -> {
              looking = false;
              if (lookAgain) {
                lookAgain = false;
                look();
              }
            });
  }

  private Future<Void> lookNow() {
    return runs.orphans(staleAfterMs, journal.heldHere())
        .compose(
            orphans -> {
              List<RunStore.Orphan> ours = new ArrayList<>();
              for (RunStore.Orphan orphan : orphans) {
                String asker = orphan.askedByState();
                boolean askerLive = asker != null && RunStore.LIVE.contains(asker);
                if (cluster.owns(orphan.run().sessionId()) && !askerLive) {
                  ours.add(orphan);
                }
              }
              if (ours.isEmpty()) {
                return Future.succeededFuture();
              }
              return journal
                  .takeOver(
                      ours.stream().map(orphan -> orphan.run().runId()).toList(), staleAfterMs)
                  .map(
                      taken -> {
                        queue(ours.stream().filter(o -> taken.contains(o.run().runId())).toList());
                        return null;
                      });
            });
  }

  /** Queues the runs taken over, by session in their order; ends the follow-ups that must not run. */
  private void queue(List<RunStore.Orphan> taken) {
    if (stopping.get()) {
      // Taken while this node began to stop: let them go again, to the next owner.
      journal.release(taken.stream().map(orphan -> RunRequest.fromJson(orphan.request())).toList());
      return;
    }
    Map<String, List<RunRequest>> bySession = new LinkedHashMap<>();
    for (RunStore.Orphan orphan : taken) {
      RunRequest run = RunRequest.fromJson(orphan.request());
      String asker = orphan.askedByState();
      if (run.followUp() != null && asker != null && !FINISHED.contains(asker)) {
        endUnfinished(run, asker);
        continue;
      }
      bySession.computeIfAbsent(run.sessionId(), id -> new ArrayList<>()).add(run);
    }
    bySession.forEach(
        (sessionId, sessionRuns) -> {
          takenOver += sessionRuns.size();
          LOG.atInfo()
              .addKeyValue("sessionId", sessionId)
              .addKeyValue("runs", sessionRuns.size())
              .addKeyValue("nodeId", cluster.nodeId())
              .log("queue.taken_over");
          takeUp.accept(sessionId, sessionRuns);
        });
  }

  /** A follow-up whose asking run did not finish: it ends as that run did not, INTERRUPTED. */
  private void endUnfinished(RunRequest run, String askerState) {
    JsonObject detail =
        new JsonObject()
            .put("runId", run.runId())
            .put("code", FailureCode.INTERRUPTED.name())
            .put(
                "reason",
                "the run that asked for it ended "
                    + askerState
                    + " on a node that stopped, so it will not run")
            .put("retryable", FailureCode.INTERRUPTED.retryable())
            .put("followUp", run.followUp().toJson());
    LOG.atInfo()
        .addKeyValue("sessionId", run.sessionId())
        .addKeyValue("runId", run.runId())
        .addKeyValue("askedBy", askerState)
        .log("followup.not_taken_over");
    journal
        .ended(run, RunState.ERROR, detail)
        .onComplete(
            written ->
                new AgentStatus(run.sessionId(), RunState.ERROR, detail)
                    .publish(vertx.eventBus(), run.roomId()));
  }

  long takenOver() {
    return takenOver;
  }

  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }
}
