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

  /** A record and its heartbeat (epoch ms). */
  private record Entry(RunStore.RunRecord run, long heartbeatMillis) {}

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
      runs.put(run.runId(), new Entry(record, now));
      return new RunStore.Accepted(record, true);
    }
  }

  boolean start(RunStore.NewRun run) {
    synchronized (lock) {
      long now = clock.getAsLong();
      Entry existing = runs.get(run.runId());
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
                now));
        return true;
      }
      if (!RunStore.QUEUED.equals(existing.run().state())) {
        return false;
      }
      runs.put(
          run.runId(),
          new Entry(with(existing.run(), RunStore.RUNNING, existing.run().detail(), now), now));
      return true;
    }
  }

  Optional<RunStore.RunRecord> adopt(String runId) {
    synchronized (lock) {
      Entry existing = runs.get(runId);
      if (existing == null || !RunStore.QUEUED.equals(existing.run().state())) {
        return Optional.empty();
      }
      runs.put(runId, new Entry(existing.run(), clock.getAsLong()));
      return Optional.of(existing.run());
    }
  }

  boolean finish(String runId, String state, JsonObject detail) {
    synchronized (lock) {
      Entry existing = runs.get(runId);
      if (existing == null || !existing.run().live()) {
        return false;
      }
      runs.put(
          runId,
          new Entry(
              with(existing.run(), state, detail, clock.getAsLong()), existing.heartbeatMillis()));
      return true;
    }
  }

  void heartbeat(Collection<String> runIds) {
    synchronized (lock) {
      long now = clock.getAsLong();
      for (String runId : runIds) {
        Entry existing = runs.get(runId);
        if (existing != null && existing.run().live()) {
          runs.put(runId, new Entry(existing.run(), now));
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
        if (entry.run().live()
            && entry.heartbeatMillis() < now - staleAfterMs
            && !heldHere.contains(entry.run().runId())) {
          RunStore.RunRecord ended =
              with(entry.run(), "error", detail.copy().put("runId", entry.run().runId()), now);
          runs.put(ended.runId(), new Entry(ended, entry.heartbeatMillis()));
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
