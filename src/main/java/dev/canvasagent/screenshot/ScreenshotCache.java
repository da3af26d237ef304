package dev.canvasagent.screenshot;

import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.ScreenshotRequest;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Recent captures by {@code {roomId, docVersion, bounds}}: a run that asks again for the same revision
 * and region within the TTL gets the image already taken, without a round trip to the host. Bounded
 * by {@link #MAX_ENTRIES} images and {@link #MAX_TOTAL_CHARS} characters of data URL, oldest out
 * first; expired entries go on every access and on {@link #evictExpired()}. A TTL of 0 keeps nothing.
 */
final class ScreenshotCache {
  static final int MAX_ENTRIES = 64;
  static final long MAX_TOTAL_CHARS = 32L * 1024 * 1024;

  /** What a capture is reused for: the same room, revision and bounds ({@code ""} for none). */
  record Key(String roomId, String docVersion, String bounds) {
    /** What {@code request} may be answered with, if anything: nothing without a {@code docVersion}. */
    static Optional<Key> of(ScreenshotRequest request) {
      if (request.docVersion() == null) {
        return Optional.empty();
      }
      var bounds = request.bounds();
      String boundsKey =
          bounds == null
              ? ""
              : String.join(
                  ",",
                  Double.toString(bounds.x()),
                  Double.toString(bounds.y()),
                  Double.toString(bounds.w()),
                  Double.toString(bounds.h()));
      return Optional.of(new Key(request.roomId(), request.docVersion(), boundsKey));
    }
  }

  private record Entry(Screenshot capture, long expiresAtNanos, long chars) {}

  private final long ttlNanos;
  private final LongSupplier nanoClock;

  /** In insertion order, which with one TTL for all is also expiry order. */
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>();

  private long totalChars;

  ScreenshotCache(long ttlMs, LongSupplier nanoClock) {
    this.ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMs);
    this.nanoClock = nanoClock;
  }

  boolean enabled() {
    return ttlNanos > 0;
  }

  Optional<Screenshot> get(Key key) {
    evictExpired();
    Entry entry = entries.get(key);
    return entry == null ? Optional.empty() : Optional.of(entry.capture());
  }

  void put(Key key, Screenshot capture) {
    if (!enabled()) {
      return;
    }
    evictExpired();
    remove(key);
    long chars = capture.image().dataUrl().length();
    if (chars > MAX_TOTAL_CHARS) {
      return;
    }
    while (entries.size() >= MAX_ENTRIES || totalChars + chars > MAX_TOTAL_CHARS) {
      remove(entries.keySet().iterator().next());
    }
    entries.put(key, new Entry(capture, nanoClock.getAsLong() + ttlNanos, chars));
    totalChars += chars;
  }

  /** Drops what was taken in a room, e.g. when its last host leaves. */
  void forgetRoom(String roomId) {
    entries
        .entrySet()
        .removeIf(
            entry -> {
              if (!entry.getKey().roomId().equals(roomId)) {
                return false;
              }
              totalChars -= entry.getValue().chars();
              return true;
            });
  }

  void evictExpired() {
    long now = nanoClock.getAsLong();
    Iterator<Map.Entry<Key, Entry>> oldestFirst = entries.entrySet().iterator();
    while (oldestFirst.hasNext()) {
      Entry entry = oldestFirst.next().getValue();
      if (entry.expiresAtNanos() - now > 0) {
        return;
      }
      totalChars -= entry.chars();
      oldestFirst.remove();
    }
  }

  int size() {
    return entries.size();
  }

  long totalChars() {
    return totalChars;
  }

  private void remove(Key key) {
    Entry removed = entries.remove(key);
    if (removed != null) {
      totalChars -= removed.chars();
    }
  }
}
