package dev.canvasagent.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code ./mvnw -Pbench -DskipTests verify} runs: the benchmarks named in {@code -Dbench.which}
 * (comma-separated: {@code fanout}, {@code fanout-cluster}, {@code run}, {@code parse}, {@code docs}, {@code busy}, {@code scale}, or {@code all}; {@code fanout} by
 * default), one after another, each with a server of its own where it needs one.
 */
public final class Bench {
  private static final List<String> NAMES =
      List.of("fanout", "fanout-cluster", "run", "parse", "docs", "busy", "scale");

  private Bench() {}

  public static void main(String[] args) throws Exception {
    ParentWatch.start();
    List<String> which = which(System.getProperty("bench.which", "fanout"));
    int status = 0;
    for (String name : which) {
      System.out.println("== bench " + name);
      int result =
          switch (name) {
            case "fanout" -> FanOutBench.execute();
            case "fanout-cluster" -> FanOutClusterBench.execute();
            case "run" -> RunLatencyBench.execute();
            case "parse" -> ParseThroughputBench.execute();
            case "docs" -> DocsBench.execute();
            case "busy" -> BusyBoardBench.execute();
            case "scale" -> ScaleBench.execute();
            default -> throw new IllegalStateException(name);
          };
      status = Math.max(status, result);
    }
    System.exit(status);
  }

  static List<String> which(String property) {
    List<String> names = new ArrayList<>();
    for (String part : property.toLowerCase(Locale.ROOT).split(",")) {
      String name = part.trim();
      if (name.isEmpty()) {
        continue;
      }
      if (name.equals("all")) {
        names.addAll(NAMES);
      } else if (NAMES.contains(name)) {
        names.add(name);
      } else {
        throw new IllegalArgumentException(
            "bench.which: '" + name + "' is none of " + String.join(", ", NAMES) + ", all");
      }
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException("bench.which names no benchmark: '" + property + "'");
    }
    return names.stream().distinct().toList();
  }
}
