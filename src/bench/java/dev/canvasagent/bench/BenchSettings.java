package dev.canvasagent.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * What one benchmark run does, from {@code -Dbench.*} system properties (the {@code bench} Maven profile
 * passes them on; {@code -Dbench.clients=100} on the Maven command line overrides the default).
 *
 * @param clients SSE clients subscribed to the one room
 * @param rate changes per second the sender aims at
 * @param seconds measured seconds
 * @param warmupSeconds seconds sent before the measured ones, not measured
 * @param inflight POSTs the sender keeps in flight at most (1 = strictly one after another)
 * @param shapes distinct shape ids the changes cycle through (the board's size); 0 = a new shape each time
 * @param floorLoops event loops (server verticles) of the raw floor the fan-out is compared with
 * @param jar the server's fat jar
 * @param serverHeap the server's {@code -Xmx}
 * @param serverJvmOptions more options for the server's JVM, space-separated (e.g. to record a flight recording)
 * @param output where the JSON report goes
 */
record BenchSettings(
    int clients,
    int rate,
    int seconds,
    int warmupSeconds,
    int inflight,
    int shapes,
    int floorLoops,
    Path jar,
    String serverHeap,
    List<String> serverJvmOptions,
    Path output) {
  static final String ROOM = "bench";

  static BenchSettings fromSystemProperties() {
    BenchSettings settings =
        new BenchSettings(
            number("bench.clients", 500),
            number("bench.rate", 1000),
            number("bench.seconds", 20),
            number("bench.warmup", 10),
            number("bench.inflight", 8),
            number("bench.shapes", 100),
            number("bench.floorLoops", 1),
            Path.of(System.getProperty("bench.jar", "target/canvas-agent.jar")),
            System.getProperty("bench.serverHeap", "512m"),
            Arrays.stream(System.getProperty("bench.serverJvmOptions", "").trim().split("\\s+"))
                .filter(option -> !option.isEmpty())
                .toList(),
            Path.of(System.getProperty("bench.out", "target/bench/fanout.json")));
    if (settings.clients < 1
        || settings.rate < 1
        || settings.seconds < 1
        || settings.warmupSeconds < 0
        || settings.inflight < 1
        || settings.shapes < 0
        || settings.floorLoops < 1) {
      throw new IllegalArgumentException("bench settings out of range: " + settings);
    }
    return settings;
  }

  private static int number(String name, int fallback) {
    return BenchProperties.number(name, fallback);
  }
}
