package dev.canvasagent.bench;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;

/** The machine a report was measured on: cores, CPU, Java, OS and how busy it was. */
final class BenchMachine {
  private BenchMachine() {}

  /** A report's opening: the benchmark's name, the date and the machine ({@link #describe}). */
  static JsonObject reportStart(String benchmark, String sharedBy, String loadAverageBefore) {
    return new JsonObject()
        .put("benchmark", benchmark)
        .put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString())
        .put("machine", describe(sharedBy, loadAverageBefore));
  }

  /** {@code sharedBy}: the processes of the benchmark that share the machine's cores. */
  static JsonObject describe(String sharedBy, String loadAverageBefore) {
    return new JsonObject()
        .put("cores", Runtime.getRuntime().availableProcessors())
        .put("cpu", cpuModel())
        .put("memoryTotal", memoryTotal())
        .put("sharedBy", sharedBy + " (and whatever else runs on the machine)")
        .put(
            "java",
            System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"))
        .put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"))
        .put("loadAverageBefore", loadAverageBefore)
        .put("loadAverageAfter", ProcCpu.loadAverage());
  }

  /** The CPU's model name, as {@code lscpu} shows it (from {@code /proc/cpuinfo}). */
  static String cpuModel() {
    return procLine("/proc/cpuinfo", "model name");
  }

  /** The machine's memory, as {@code /proc/meminfo}'s {@code MemTotal} gives it ("24542232 kB"). */
  private static String memoryTotal() {
    return procLine("/proc/meminfo", "MemTotal");
  }

  private static String procLine(String file, String key) {
    try {
      return Files.readAllLines(Path.of(file)).stream()
          .filter(line -> line.startsWith(key))
          .map(line -> line.substring(line.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
