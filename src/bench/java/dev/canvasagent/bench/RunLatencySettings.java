package dev.canvasagent.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * What the run-latency benchmark does, from {@code -Dbench.*} system properties.
 *
 * @param sequentialRuns measured runs one at a time
 * @param concurrentRuns measured runs with {@code concurrency} in flight
 * @param concurrency runs kept in flight in the concurrent phase (a closed loop: one ends, the next starts)
 * @param warmupRuns unmeasured runs before each phase, at that phase's concurrency
 * @param firstByteDelayMs how long the stub model waits before the first byte of each answer
 * @param eventGapMs pause between the stub's server-sent events after the first (0: back to back)
 * @param partialIntervalMs the server's {@code CANVAS_AGENT_PARTIAL_INTERVAL_MS}
 * @param runTimeoutMs a run not final after this counts as failed
 */
record RunLatencySettings(
    int sequentialRuns,
    int concurrentRuns,
    int concurrency,
    int warmupRuns,
    int firstByteDelayMs,
    int eventGapMs,
    int partialIntervalMs,
    int runTimeoutMs,
    Path jar,
    String serverHeap,
    List<String> serverJvmOptions,
    Path output) {
  static final String MODEL = "anthropic:bench";

  static RunLatencySettings fromSystemProperties() {
    RunLatencySettings settings =
        new RunLatencySettings(
            BenchProperties.number("bench.run.sequential", 300),
            BenchProperties.number("bench.run.concurrent", 1000),
            BenchProperties.number("bench.run.concurrency", 100),
            BenchProperties.number("bench.run.warmup", 300),
            BenchProperties.number("bench.run.firstByteDelayMs", 50),
            BenchProperties.number("bench.run.eventGapMs", 0),
            BenchProperties.number("bench.run.partialIntervalMs", 100),
            BenchProperties.number("bench.run.timeoutMs", 30_000),
            Path.of(System.getProperty("bench.jar", "target/canvas-agent.jar")),
            System.getProperty("bench.serverHeap", "512m"),
            Arrays.stream(System.getProperty("bench.serverJvmOptions", "").trim().split("\\s+"))
                .filter(option -> !option.isEmpty())
                .toList(),
            Path.of(System.getProperty("bench.run.out", "target/bench/run-latency.json")));
    if (settings.sequentialRuns < 1
        || settings.concurrentRuns < 1
        || settings.concurrency < 1
        || settings.warmupRuns < 0
        || settings.firstByteDelayMs < 0
        || settings.eventGapMs < 0
        || settings.partialIntervalMs < 0
        || settings.runTimeoutMs < 1) {
      throw new IllegalArgumentException("bench.run settings out of range: " + settings);
    }
    return settings;
  }
}
