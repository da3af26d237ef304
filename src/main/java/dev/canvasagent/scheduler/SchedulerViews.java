package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.EndedRun;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomRuns;
import dev.canvasagent.bus.RunActivity;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.SessionActivity;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.RunStore.RunRecord;
import dev.canvasagent.store.Store;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the admin views read of the scheduler ({@code scheduler.room.runs}, {@code
 * scheduler.session.activity}): the queues and running runs it holds, and a session's last ended run
 * from the store. Reads only; a session another node owns is asked of that node.
 */
final class SchedulerViews {
  /** How many recent runs are read to find the last one that has ended: the newest may be live. */
  static final int RECENT_RUNS = 10;

  /** How long the owner of a session has to answer for it. */
  static final long OWNER_TIMEOUT_MS = 2_000;

  private final EventBus bus;
  private final Store store;
  private final ClusterView cluster;
  private final Map<String, SessionQueue> queues;

  SchedulerViews(EventBus bus, Store store, ClusterView cluster, Map<String, SessionQueue> queues) {
    this.bus = bus;
    this.store = store;
    this.cluster = cluster;
    this.queues = queues;
  }

  /** The room's runs running here, and its runs waiting here. */
  Future<RoomRuns> roomRuns(RoomRef room) {
    List<RunActivity> running = new ArrayList<>();
    int queued = 0;
    for (SessionQueue queue : queues.values()) {
      if (queue.active != null && queue.active.run.roomId().equals(room.roomId())) {
        running.add(queue.active.activity());
      }
      for (RunRequest waiting : queue.waiting) {
        if (waiting.roomId().equals(room.roomId())) {
          queued++;
        }
      }
    }
    return Future.succeededFuture(new RoomRuns(room.roomId(), running, queued));
  }

  /** {@code scheduler.session.activity}: answered here when this node owns the session, else by its owner. */
  Future<SessionActivity> sessionActivity(SessionRef ref) {
    String owner = cluster.ownerOf(ref.sessionId());
    if (owner.equals(cluster.nodeId())) {
      return ownedSessionActivity(ref);
    }
    return Address.schedulerNodeSessionActivity(owner)
        .ask(bus, ref, new DeliveryOptions().setSendTimeout(OWNER_TIMEOUT_MS))
        .recover(error -> Future.failedFuture(Failure.of(error)));
  }

  /** A session this node owns: its queue and running run here, its last ended run from the store. */
  Future<SessionActivity> ownedSessionActivity(SessionRef ref) {
    String sessionId = ref.sessionId();
    return SessionLookup.existing(store.sessions(), sessionId, null)
        .compose(
            session ->
                lastEnded(sessionId)
                    .map(
                        last -> {
                          SessionQueue queue = queues.get(sessionId);
                          List<String> queued =
                              queue == null
                                  ? List.of()
                                  : queue.waiting.stream().map(RunRequest::runId).toList();
                          RunActivity running =
                              queue == null || queue.active == null
                                  ? null
                                  : queue.active.activity();
                          return new SessionActivity(
                              sessionId,
                              session.roomId(),
                              cluster.nodeId(),
                              queued,
                              running,
                              last.orElse(null));
                        }));
  }

  private Future<Optional<EndedRun>> lastEnded(String sessionId) {
    return store
        .runs()
        .recent(sessionId, RECENT_RUNS)
        .recover(error -> Failure.storeFailed("read the session's runs", error))
        .map(
            runs ->
                runs.stream()
                    .filter(run -> !RunStore.LIVE.contains(run.state()))
                    .findFirst()
                    .map(SchedulerViews::ended));
  }

  private static EndedRun ended(RunRecord run) {
    return new EndedRun(
        run.runId(),
        run.state(),
        run.detail().getString("code"),
        run.createdAtMillis(),
        run.updatedAtMillis());
  }
}
