package dev.canvasagent.bench;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the scale benchmark does, from {@code -Dbench.scale.*} system properties.
 *
 * @param sizes the boards' sizes in shapes, one room each, smallest first
 * @param stores {@code pg} (a schema of its own on the tests' PostgreSQL) and/or {@code memory}, in order
 * @param samples measured one-shape changes per board
 * @param warmup unmeasured one-shape changes per board before them
 * @param runSamples measured fake-model runs per board
 * @param runWarmup unmeasured runs per board before them
 * @param viewport the runs' {@code viewport} ({@code x, y, w, h}), or {@code null} for none (then the
 *     whole board is in view)
 * @param batch records per change when filling a board (the changes route takes at most 1,000)
 * @param cachedRooms rooms filled for the memory reading
 * @param cachedRoomShapes shapes in each of them
 * @param cacheBytes the server's {@code CANVAS_AGENT_BOARD_CACHE_BYTES}
 * @param runTimeoutMs a run not final after this fails the benchmark
 * @param serverHeap the server's {@code -Xmx} (larger than the cache, so the cache, not the heap, is
 *     what bounds the memory reading)
 */
record ScaleSettings(
    List<Integer> sizes,
    List<String> stores,
    int samples,
    int warmup,
    int runSamples,
    int runWarmup,
    JsonObject viewport,
    int batch,
    int cachedRooms,
    int cachedRoomShapes,
    long cacheBytes,
    int runTimeoutMs,
    Path jar,
    String serverHeap,
    List<String> serverJvmOptions,
    Path output) {
  static final int MAX_BATCH = 1_000;

  static ScaleSettings fromSystemProperties() {
    return new ScaleSettings(
        sizes(text("bench.scale.sizes", "100,1000,10000,50000")),
        stores(text("bench.scale.stores", "pg,memory")),
        atLeast("bench.scale.samples", 40, 1),
        atLeast("bench.scale.warmup", 10, 0),
        atLeast("bench.scale.runSamples", 20, 1),
        atLeast("bench.scale.runWarmup", 2, 0),
        viewport(text("bench.scale.viewport", "0,0,1600,900")),
        batch(atLeast("bench.scale.batch", MAX_BATCH, 1)),
        atLeast("bench.scale.cachedRooms", 10, 0),
        atLeast("bench.scale.cachedRoomShapes", 10_000, 1),
        bytes(text("bench.scale.cacheBytes", Long.toString(256L * 1024 * 1024))),
        atLeast("bench.scale.timeoutMs", 60_000, 1),
        Path.of(System.getProperty("bench.jar", "target/canvas-agent.jar")),
        text("bench.scale.serverHeap", "1g"),
        Arrays.stream(System.getProperty("bench.serverJvmOptions", "").trim().split("\\s+"))
            .filter(option -> !option.isEmpty())
            .toList(),
        Path.of(text("bench.scale.out", "target/bench/scale.json")));
  }

  /** An integer setting, refused with its name below {@code least}. */
  private static int atLeast(String name, int fallback, int least) {
    int value = BenchProperties.number(name, fallback);
    if (value < least) {
      throw new IllegalArgumentException(name + " must be at least " + least + ", not " + value);
    }
    return value;
  }

  private static int batch(int records) {
    if (records > MAX_BATCH) {
      throw new IllegalArgumentException(
          "bench.scale.batch: the changes route takes at most "
              + MAX_BATCH
              + " records, not "
              + records);
    }
    return records;
  }

  /** The property's value, or {@code fallback} when it is unset or blank (the pom passes blanks). */
  private static String text(String name, String fallback) {
    String value = System.getProperty(name);
    return value == null || value.isBlank() ? fallback : value.trim();
  }

  private static List<Integer> sizes(String list) {
    List<Integer> sizes = new ArrayList<>();
    for (String part : list.split(",")) {
      try {
        int size = Integer.parseInt(part.trim());
        if (size < 1) {
          throw new NumberFormatException();
        }
        sizes.add(size);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "bench.scale.sizes: '" + part.trim() + "' is not a positive number of shapes", e);
      }
    }
    return sizes.stream().distinct().sorted().toList();
  }

  private static List<String> stores(String list) {
    List<String> stores = new ArrayList<>();
    for (String part : list.toLowerCase(Locale.ROOT).split(",")) {
      String store = part.trim();
      if (!List.of("pg", "memory").contains(store)) {
        throw new IllegalArgumentException(
            "bench.scale.stores: '" + store + "' is neither pg nor memory");
      }
      stores.add(store);
    }
    return stores.stream().distinct().toList();
  }

  /** {@code x,y,w,h} in page coordinates, or {@code none}. */
  private static JsonObject viewport(String value) {
    if (value.equalsIgnoreCase("none")) {
      return null;
    }
    String[] parts = value.split(",");
    try {
      if (parts.length != 4) {
        throw new NumberFormatException();
      }
      JsonObject viewport = new JsonObject();
      List<String> keys = List.of("x", "y", "w", "h");
      for (int i = 0; i < 4; i++) {
        viewport.put(keys.get(i), Double.parseDouble(parts[i].trim()));
      }
      if (viewport.getDouble("w") <= 0 || viewport.getDouble("h") <= 0) {
        throw new NumberFormatException();
      }
      return viewport;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "bench.scale.viewport must be x,y,w,h (w and h above 0) or none, not '" + value + "'", e);
    }
  }

  private static long bytes(String value) {
    try {
      long bytes = Long.parseLong(value);
      if (bytes < 1) {
        throw new NumberFormatException();
      }
      return bytes;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "bench.scale.cacheBytes must be a positive number of bytes, not '" + value + "'", e);
    }
  }
}
