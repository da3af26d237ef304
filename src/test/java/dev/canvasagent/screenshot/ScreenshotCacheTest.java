package dev.canvasagent.screenshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.Viewport;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The screenshot cache on a clock the test moves: how long it keeps a capture, and how much. */
class ScreenshotCacheTest {
  static final long TTL_MS = 20_000;

  long nowNanos = 1_000;
  ScreenshotCache cache = new ScreenshotCache(TTL_MS, () -> nowNanos);

  void advanceMs(long ms) {
    nowNanos += TimeUnit.MILLISECONDS.toNanos(ms);
  }

  static ScreenshotCache.Key key(String roomId, String docVersion) {
    return new ScreenshotCache.Key(roomId, docVersion, "");
  }

  static Screenshot capture(String dataUrl) {
    Viewport box = new Viewport(0, 0, 10, 10);
    return new Screenshot(
        "request-1",
        "client-1",
        new Screenshot.Image("image/png", dataUrl, 1),
        box,
        box,
        List.of(),
        null,
        false);
  }

  @Test
  void aCaptureIsKeptForItsTtlAndNoLonger() {
    cache.put(key("room-1", "7"), capture("data:image/png;base64,AA=="));

    advanceMs(TTL_MS - 1);
    assertTrue(cache.get(key("room-1", "7")).isPresent());
    advanceMs(1);
    assertEquals(Optional.empty(), cache.get(key("room-1", "7")));
    assertEquals(0, cache.size());
  }

  @Test
  void theKeyIsTheRoomTheRevisionAndTheBounds() {
    cache.put(new ScreenshotCache.Key("room-1", "7", "0.0,0.0,10.0,10.0"), capture("a"));

    assertTrue(cache.get(new ScreenshotCache.Key("room-1", "7", "0.0,0.0,10.0,10.0")).isPresent());
    assertFalse(cache.get(new ScreenshotCache.Key("room-2", "7", "0.0,0.0,10.0,10.0")).isPresent());
    assertFalse(cache.get(new ScreenshotCache.Key("room-1", "8", "0.0,0.0,10.0,10.0")).isPresent());
    assertFalse(cache.get(new ScreenshotCache.Key("room-1", "7", "")).isPresent());
  }

  @Test
  void expiredCapturesAreSweptWithoutBeingAskedFor() {
    cache.put(key("room-1", "1"), capture("a"));
    advanceMs(TTL_MS / 2);
    cache.put(key("room-1", "2"), capture("b"));

    advanceMs(TTL_MS / 2);
    cache.evictExpired();

    assertEquals(1, cache.size());
    assertEquals(1, cache.totalChars());
  }

  @Test
  void atMostMaxEntriesAreKeptOldestOutFirst() {
    for (int revision = 0; revision <= ScreenshotCache.MAX_ENTRIES; revision++) {
      cache.put(key("room-1", Integer.toString(revision)), capture("a"));
    }

    assertEquals(ScreenshotCache.MAX_ENTRIES, cache.size());
    assertFalse(cache.get(key("room-1", "0")).isPresent(), "the oldest went");
    assertTrue(cache.get(key("room-1", "1")).isPresent());
    assertTrue(cache.get(key("room-1", Integer.toString(ScreenshotCache.MAX_ENTRIES))).isPresent());
  }

  @Test
  void theImagesKeptNeverExceedTheCharacterBudget() {
    String large = "x".repeat((int) (ScreenshotCache.MAX_TOTAL_CHARS / 2) + 1);
    cache.put(key("room-1", "1"), capture(large));
    cache.put(key("room-1", "2"), capture(large));

    assertEquals(1, cache.size());
    assertEquals(large.length(), cache.totalChars());
    assertTrue(cache.get(key("room-1", "2")).isPresent(), "the newest stays");
  }

  @Test
  void capturingTheSameKeyAgainReplacesItAndRestartsItsTtl() {
    cache.put(key("room-1", "7"), capture("old"));
    advanceMs(TTL_MS - 1);
    cache.put(key("room-1", "7"), capture("new!"));
    advanceMs(TTL_MS - 1);

    assertEquals(capture("new!"), cache.get(key("room-1", "7")).orElseThrow());
    assertEquals(1, cache.size());
    assertEquals(4, cache.totalChars());
  }

  @Test
  void forgettingARoomDropsOnlyItsCaptures() {
    cache.put(key("room-1", "7"), capture("aa"));
    cache.put(key("room-2", "7"), capture("bbb"));

    cache.forgetRoom("room-1");

    assertFalse(cache.get(key("room-1", "7")).isPresent());
    assertTrue(cache.get(key("room-2", "7")).isPresent());
    assertEquals(3, cache.totalChars());
  }

  @Test
  void aTtlOfZeroKeepsNothing() {
    ScreenshotCache off = new ScreenshotCache(0, () -> nowNanos);

    off.put(key("room-1", "7"), capture("a"));

    assertFalse(off.enabled());
    assertEquals(0, off.size());
    assertFalse(off.get(key("room-1", "7")).isPresent());
  }
}
