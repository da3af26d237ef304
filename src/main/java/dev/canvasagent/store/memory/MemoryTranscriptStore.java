package dev.canvasagent.store.memory;

import dev.canvasagent.store.TranscriptStore;
import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Transcripts in memory, forgotten on restart. Only a room's newest {@link #KEPT_PER_ROOM} utterances
 * are kept: the prompt reads a window of seconds, and the embedded store must not grow without bound.
 */
final class MemoryTranscriptStore implements TranscriptStore {
  static final int KEPT_PER_ROOM = 10_000;
  private static final Comparator<Utterance> BY_TIME = Comparator.comparingLong(Utterance::tsMillis);

  private final Object lock = new Object();
  private final Map<String, Deque<Utterance>> rooms = new HashMap<>();
  /** The utterance first stored under each {@code (room, idempotency key)}: bounded like the rooms. */
  private final Map<List<String>, Utterance> byKey = new java.util.LinkedHashMap<>();

  @Override
  public Future<Utterance> add(String roomId, Utterance utterance, String idempotencyKey) {
    synchronized (lock) {
      if (idempotencyKey != null) {
        Utterance first = byKey.get(List.of(roomId, idempotencyKey));
        if (first != null) {
          return Future.succeededFuture(first);
        }
        byKey.put(List.of(roomId, idempotencyKey), utterance);
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
      return Future.succeededFuture(List.copyOf(found.subList(Math.max(0, found.size() - limit), found.size())));
    }
  }
}
