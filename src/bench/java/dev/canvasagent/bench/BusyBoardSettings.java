package dev.canvasagent.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the busy-board benchmark does, from {@code -Dbench.busy.*} system properties.
 *
 * @param runs measured agent runs
 * @param warmupRuns unmeasured runs first, at the same concurrency, with the people already writing
 * @param concurrency agent runs in flight (a closed loop: one ends, the next starts)
 * @param writers people editing the board, each moving a shape of their own
 * @param changesPerSecond the people's changes a second, between them
 * @param store {@code pg} (a schema of its own on the tests' PostgreSQL) or {@code memory}
 * @param runTimeoutMs a run not final after this counts as not complete
 */
record BusyBoardSettings(
    int runs,
    int warmupRuns,
    int concurrency,
    int writers,
    int changesPerSecond,
    String store,
    int runTimeoutMs,
    Path jar,
    String serverHeap,
    List<String> serverJvmOptions,
    Path output) {

  static BusyBoardSettings fromSystemProperties() {
    BusyBoardSettings settings =
        new BusyBoardSettings(
            BenchProperties.number("bench.busy.runs", 200),
            BenchProperties.number("bench.busy.warmup", 10),
            BenchProperties.number("bench.busy.concurrency", 2),
            BenchProperties.number("bench.busy.writers", 4),
            BenchProperties.number("bench.busy.rate", 100),
            store(System.getProperty("bench.busy.store")),
            BenchProperties.number("bench.busy.timeoutMs", 60_000),
            Path.of(System.getProperty("bench.jar", "target/canvas-agent.jar")),
            System.getProperty("bench.serverHeap", "512m"),
            Arrays.stream(System.getProperty("bench.serverJvmOptions", "").trim().split("\\s+"))
                .filter(option -> !option.isEmpty())
                .toList(),
            Path.of(System.getProperty("bench.busy.out", "target/bench/busy.json")));
    if (settings.runs < 1
        || settings.warmupRuns < 0
        || settings.concurrency < 1
        || settings.writers < 0
        || settings.changesPerSecond < 1
        || !List.of("pg", "memory").contains(settings.store)
        || settings.runTimeoutMs < 1) {
      throw new IllegalArgumentException("bench.busy settings out of range: " + settings);
    }
    return settings;
  }

  /** {@code pg} unless the property names another store (the pom passes an empty one by default). */
  private static String store(String property) {
    return property == null || property.isBlank() ? "pg" : property.trim().toLowerCase(Locale.ROOT);
  }
}
