package dev.canvasagent.store.memory;

import dev.canvasagent.store.RunStore;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Run records in memory, forgotten on restart (so nothing is ever found interrupted after one). The
 * session checks (does it exist, mark it active) belong to {@link MemoryStore}, which calls in here.
 */
final class MemoryRunStore {
  private final Object lock = new Object();
  private final Map<String, Entry> runs = new LinkedHashMap<>();
  private final LongSupplier clock;

  /** The order in which runs were accepted, as canvas_agent_runs.accepted_seq. */
  private long acceptedSeq;

  /**
   * A record and its heartbeat (epoch ms); the request it was queued with (null once it is not
   * queued, or when none was stored), the node holding it, and its place in acceptance order.
   */
  private record Entry(
      RunStore.RunRecord run,
      long heartbeatMillis,
      JsonObject request,
      String nodeId,
      long acceptedSeq) {
    Entry withRun(RunStore.RunRecord changed) {
      return new Entry(
          changed, heartbeatMillis, changed.live() ? request : null, nodeId, acceptedSeq);
    }

    Entry withHeartbeat(long millis) {
      return new Entry(run, millis, request, nodeId, acceptedSeq);
    }
  }

  MemoryRunStore(LongSupplier clock) {
    this.clock = clock;
  }

  RunStore.Accepted accept(RunStore.NewRun run) {
    synchronized (lock) {
      Entry existing = runs.get(run.runId());
      if (existing != null) {
        return new RunStore.Accepted(existing.run(), false);
      }
      long now = clock.getAsLong();
      RunStore.RunRecord record =
          new RunStore.RunRecord(
              run.runId(),
              run.sessionId(),
              run.roomId(),
              RunStore.QUEUED,
              new JsonObject(),
              run.messageChars(),
              now,
              now,
              run.requestFingerprint(),
              run.followUp());
      runs.put(
          run.runId(),
          new Entry(
              record,
              now,
              run.request() == null ? null : run.request().copy(),
              null,
              ++acceptedSeq));
      return new RunStore.Accepted(record, true);
    }
  }

  /** As canvas_agent_runs' claim: at most one running run per session. */
  RunStore.Claim claim(RunStore.NewRun run, String nodeId) {
    synchronized (lock) {
      long now = clock.getAsLong();
      Entry existing = runs.get(run.runId());
      if (existing != null && !RunStore.QUEUED.equals(existing.run().state())) {
        return RunStore.Claim.GONE;
      }
      boolean busy =
          runs.values().stream()
              .anyMatch(
                  entry ->
                      entry.run().sessionId().equals(run.sessionId())
                          && RunStore.RUNNING.equals(entry.run().state()));
      if (busy) {
        return RunStore.Claim.BUSY;
      }
      if (existing == null) {
        runs.put(
            run.runId(),
            new Entry(
                new RunStore.RunRecord(
                    run.runId(),
                    run.sessionId(),
                    run.roomId(),
                    RunStore.RUNNING,
                    new JsonObject(),
                    run.messageChars(),
                    now,
                    now,
                    run.requestFingerprint(),
                    run.followUp()),
                now,
                null,
                nodeId,
                ++acceptedSeq));
        return RunStore.Claim.STARTED;
      }
      runs.put(
          run.runId(),
          new Entry(
              with(existing.run(), RunStore.RUNNING, existing.run().detail(), now),
              now,
              null,
              nodeId,
              existing.acceptedSeq()));
      return RunStore.Claim.STARTED;
    }
  }

  List<RunStore.Orphan> orphans(long staleAfterMs, Collection<String> heldHere) {
    synchronized (lock) {
      long now = clock.getAsLong();
      List<Entry> orphaned =
          runs.values().stream()
              .filter(entry -> RunStore.QUEUED.equals(entry.run().state()))
              .filter(entry -> entry.request() != null)
              .filter(entry -> entry.heartbeatMillis() < now - staleAfterMs)
              .filter(entry -> !heldHere.contains(entry.run().runId()))
              .sorted(
                  Comparator.comparing((Entry entry) -> entry.run().sessionId())
                      .thenComparingLong(this::requestSeq)
                      .thenComparingInt(MemoryRunStore::followUpNumber)
                      .thenComparingLong(Entry::acceptedSeq))
              .toList();
      return orphaned.stream()
          .map(
              entry -> {
                JsonObject followUp = entry.run().followUp();
                Entry asker =
                    followUp == null ? null : runs.get(followUp.getString("askedByRunId"));
                return new RunStore.Orphan(
                    entry.run(), entry.request(), asker == null ? null : asker.run().state());
              })
          .toList();
    }
  }

  /** As canvas_agent_runs' runs before another in its session's order (see RunStore#queuedBefore). */
  List<String> queuedBefore(String sessionId, String runId) {
    synchronized (lock) {
      Comparator<Entry> sessionOrder =
          Comparator.comparingLong(this::requestSeq)
              .thenComparingInt(MemoryRunStore::followUpNumber)
              .thenComparingLong(Entry::acceptedSeq);
      Entry run = runs.get(runId);
      return runs.values().stream()
          .filter(entry -> entry.run().sessionId().equals(sessionId))
          .filter(entry -> RunStore.QUEUED.equals(entry.run().state()))
          .filter(entry -> entry.request() != null)
          .filter(entry -> !entry.run().runId().equals(runId))
          .filter(entry -> run == null || sessionOrder.compare(entry, run) < 0)
          .sorted(sessionOrder)
          .map(entry -> entry.run().runId())
          .toList();
    }
  }

  /** The acceptance order of the request the run belongs to (its own, for a person's run). */
  private long requestSeq(Entry entry) {
    JsonObject followUp = entry.run().followUp();
    Entry request = followUp == null ? null : runs.get(followUp.getString("requestRunId"));
    return request == null ? entry.acceptedSeq() : request.acceptedSeq();
  }

  private static int followUpNumber(Entry entry) {
    JsonObject followUp = entry.run().followUp();
    return followUp == null ? 0 : followUp.getInteger("number", 0);
  }

  List<String> takeOver(Collection<String> runIds, long staleAfterMs, String nodeId) {
    synchronized (lock) {
      long now = clock.getAsLong();
      List<String> taken = new ArrayList<>();
      for (String runId : runIds) {
        Entry existing = runs.get(runId);
        if (existing != null
            && RunStore.QUEUED.equals(existing.run().state())
            && existing.heartbeatMillis() < now - staleAfterMs) {
          runs.put(
              runId,
              new Entry(existing.run(), now, existing.request(), nodeId, existing.acceptedSeq()));
          taken.add(runId);
        }
      }
      return taken;
    }
  }

  void release(Collection<String> runIds) {
    synchronized (lock) {
      for (String runId : runIds) {
        Entry existing = runs.get(runId);
        if (existing != null && RunStore.QUEUED.equals(existing.run().state())) {
          runs.put(runId, existing.withHeartbeat(Long.MIN_VALUE));
        }
      }
    }
  }

  Optional<RunStore.Running> running(String sessionId) {
    synchronized (lock) {
      return runs.values().stream()
          .filter(
              entry ->
                  entry.run().sessionId().equals(sessionId)
                      && RunStore.RUNNING.equals(entry.run().state()))
          .findFirst()
          .map(entry -> new RunStore.Running(entry.run().runId(), entry.nodeId()));
    }
  }

  Optional<RunStore.RunRecord> adopt(String runId) {
    synchronized (lock) {
      Entry existing = runs.get(runId);
      if (existing == null || !RunStore.QUEUED.equals(existing.run().state())) {
        return Optional.empty();
      }
      runs.put(runId, existing.withHeartbeat(clock.getAsLong()));
      return Optional.of(existing.run());
    }
  }

  boolean finish(String runId, String state, JsonObject detail) {
    synchronized (lock) {
      Entry existing = runs.get(runId);
      if (existing == null || !existing.run().live()) {
        return false;
      }
      runs.put(runId, existing.withRun(with(existing.run(), state, detail, clock.getAsLong())));
      return true;
    }
  }

  void heartbeat(Collection<String> runIds) {
    synchronized (lock) {
      long now = clock.getAsLong();
      for (String runId : runIds) {
        Entry existing = runs.get(runId);
        if (existing != null && existing.run().live()) {
          runs.put(runId, existing.withHeartbeat(now));
        }
      }
    }
  }

  List<RunStore.RunRecord> sweepInterrupted(
      long staleAfterMs, JsonObject detail, Collection<String> heldHere) {
    synchronized (lock) {
      long now = clock.getAsLong();
      List<RunStore.RunRecord> swept = new ArrayList<>();
      for (Entry entry : List.copyOf(runs.values())) {
        boolean takeable = RunStore.QUEUED.equals(entry.run().state()) && entry.request() != null;
        if (entry.run().live()
            && !takeable
            && entry.heartbeatMillis() < now - staleAfterMs
            && !heldHere.contains(entry.run().runId())) {
          RunStore.RunRecord ended =
              with(entry.run(), "error", detail.copy().put("runId", entry.run().runId()), now);
          runs.put(ended.runId(), entry.withRun(ended));
          swept.add(ended);
        }
      }
      return swept;
    }
  }

  Optional<RunStore.RunRecord> find(String runId) {
    synchronized (lock) {
      return Optional.ofNullable(runs.get(runId)).map(Entry::run);
    }
  }

  List<RunStore.RunRecord> recent(String sessionId, int limit) {
    synchronized (lock) {
      List<RunStore.RunRecord> found = new ArrayList<>();
      runs.values()
          .forEach(
              entry -> {
                if (entry.run().sessionId().equals(sessionId)) {
                  found.add(entry.run());
                }
              });
      // Insertion order breaks ties of the same millisecond: the later accepted is the newer.
      List<RunStore.RunRecord> newestFirst = new ArrayList<>(found);
      java.util.Collections.reverse(newestFirst);
      newestFirst.sort(Comparator.comparingLong(RunStore.RunRecord::createdAtMillis).reversed());
      return List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
    }
  }

  boolean hasLiveRun(String sessionId) {
    synchronized (lock) {
      return runs.values().stream()
          .anyMatch(entry -> entry.run().sessionId().equals(sessionId) && entry.run().live());
    }
  }

  void forget(String sessionId) {
    synchronized (lock) {
      runs.values().removeIf(entry -> entry.run().sessionId().equals(sessionId));
    }
  }

  private static RunStore.RunRecord with(
      RunStore.RunRecord run, String state, JsonObject detail, long now) {
    return new RunStore.RunRecord(
        run.runId(),
        run.sessionId(),
        run.roomId(),
        state,
        detail,
        run.messageChars(),
        run.createdAtMillis(),
        now,
        run.requestFingerprint(),
        run.followUp());
  }
}
