package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/**
 * {@code heap}: how the server's process gives memory back. The boards it holds are bounded by
 * {@code boardCache}; these make the process's resident memory follow what is held rather than what
 * was once needed (applied by {@code HeapFootprint} at startup, to G1 flags not set on the command
 * line).
 */
final class HeapSettings {
  static final Setting RETURN_IDLE_MS =
      Setting.of(
          "heap.returnIdleMs",
          "CANVAS_AGENT_HEAP_RETURN_IDLE_MS",
          whole(0, 86_400_000),
          30_000,
          "When no collection has run for this long, the JVM collects and returns the heap it does not need to the operating system (G1's periodic collection, `-XX:G1PeriodicGCInterval`); 0 turns it off (0–86400000). An explicit `-XX:G1PeriodicGCInterval` wins.");
  static final Setting MAX_FREE_PERCENT =
      Setting.of(
          "heap.maxFreePercent",
          "CANVAS_AGENT_HEAP_MAX_FREE_PERCENT",
          whole(10, 70),
          20,
          "After a collection the heap is shrunk until at most this share of it is free (`-XX:MaxHeapFreeRatio`; the minimum free share is half of it), 10–70. The JVM's own default, 70, keeps up to three times the live heap. Explicit `-XX:MaxHeapFreeRatio` / `-XX:MinHeapFreeRatio` win.");

  static final List<Setting> ALL = List.of(RETURN_IDLE_MS, MAX_FREE_PERCENT);

  private HeapSettings() {}

  static AppConfig.Heap read(ConfigValues values) {
    return new AppConfig.Heap(values.whole(RETURN_IDLE_MS), values.whole(MAX_FREE_PERCENT));
  }
}
