package dev.canvasagent.runner.context;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Built prompt parts kept for a while, so a run on an unchanged room, board, selection and viewport
 * reuses them (two minutes by default, {@code context.promptCacheTtlMs}): an entry lives
 * {@code ttlMs} from when it was stored, and beyond {@code maxEntries} the least recently used
 * goes. Owned by one verticle and used on its event loop only.
 */
final class PromptMemo<K, V> {
  private final long ttlMs;
  private final int maxEntries;
  private final LongSupplier clock;
  private final LinkedHashMap<K, Entry<V>> entries;

  private record Entry<V>(V value, long storedAtMillis) {}

  PromptMemo(long ttlMs, int maxEntries, LongSupplier clock) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.clock = clock;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, Entry<V>> eldest) {
            return size() > PromptMemo.this.maxEntries;
          }
        };
  }

  Optional<V> get(K key) {
    Entry<V> entry = entries.get(key);
    if (entry == null) {
      return Optional.empty();
    }
    if (clock.getAsLong() - entry.storedAtMillis() >= ttlMs) {
      entries.remove(key);
      return Optional.empty();
    }
    return Optional.of(entry.value());
  }

  void put(K key, V value) {
    entries.put(key, new Entry<>(value, clock.getAsLong()));
  }

  int size() {
    return entries.size();
  }
}
