package dev.canvasagent.store.memory;

import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.TranscriptStore;
import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Transcripts in memory, forgotten on restart. Only a room's newest {@link #KEPT_PER_ROOM} utterances
 * are kept: the prompt reads a window of seconds, and the embedded store must not grow without bound.
 */
final class MemoryTranscriptStore implements TranscriptStore {
  static final int KEPT_PER_ROOM = 10_000;
  private static final Comparator<Utterance> BY_TIME =
      Comparator.comparingLong(Utterance::tsMillis);

  private final Object lock = new Object();
  private final Map<String, Deque<Utterance>> rooms = new HashMap<>();

  /** The utterance first stored under each {@code (room, idempotency id)}, and its request: bounded like the rooms. */
  private final Map<List<String>, First> byKey = new java.util.LinkedHashMap<>();

  private record First(Utterance utterance, String requestFingerprint) {}

  @Override
  public Future<Utterance> add(String roomId, Utterance utterance, Keyed keyed) {
    synchronized (lock) {
      if (keyed != null) {
        First first = byKey.get(List.of(roomId, keyed.id()));
        if (first != null) {
          return Objects.equals(first.requestFingerprint(), keyed.requestFingerprint())
              ? Future.succeededFuture(first.utterance())
              : Future.failedFuture(IdempotencyKeys.reused());
        }
        byKey.put(List.of(roomId, keyed.id()), new First(utterance, keyed.requestFingerprint()));
        if (byKey.size() > KEPT_PER_ROOM) {
          byKey.remove(byKey.keySet().iterator().next());
        }
      }
      Deque<Utterance> room = rooms.computeIfAbsent(roomId, id -> new ArrayDeque<>());
      room.addLast(utterance);
      if (room.size() > KEPT_PER_ROOM) {
        room.removeFirst();
      }
      return Future.succeededFuture(utterance);
    }
  }

  @Override
  public Future<List<Utterance>> since(String roomId, long sinceMillis, int limit) {
    synchronized (lock) {
      List<Utterance> found = new ArrayList<>();
      for (Utterance utterance : rooms.getOrDefault(roomId, new ArrayDeque<>())) {
        if (utterance.tsMillis() >= sinceMillis) {
          found.add(utterance);
        }
      }
      // Stable: utterances with the same ts stay in the order they were added.
      found.sort(BY_TIME);
      return Future.succeededFuture(
          List.copyOf(found.subList(Math.max(0, found.size() - limit), found.size())));
    }
  }
}
