package dev.canvasagent.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Map;

/**
 * The scale benchmark's figures read together: each board's p50s against the smallest board's, the
 * issue's goal (the 10,000-shape p50 at most 1.5 times the 100-shape one, on PostgreSQL), and the
 * one-screen table.
 */
final class ScaleReport {
  static final int GOAL_SMALL = 100;
  static final int GOAL_LARGE = 10_000;
  static final double GOAL_RATIO = 1.5;
  private static final Map<String, String> STORE_NAMES =
      Map.of("pg", "PostgreSQL", "memory", "memory store");

  private ScaleReport() {}

  /**
   * Puts on each board its change and {@code ttfbMs} p50s as multiples of the smallest board's, and on
   * each store the 10,000-to-100 figures when both sizes were measured.
   */
  static void addRatios(JsonObject report) {
    JsonObject stores = report.getJsonObject("stores");
    for (String store : stores.fieldNames()) {
      JsonObject figures = stores.getJsonObject(store);
      JsonArray boards = figures.getJsonArray("boards");
      JsonObject smallest = boards.getJsonObject(0);
      JsonObject small = null;
      JsonObject large = null;
      for (int i = 0; i < boards.size(); i++) {
        JsonObject board = boards.getJsonObject(i);
        putFinite(board, "changeP50Ratio", ratio(board, smallest, "changeMs"));
        putFinite(board, "ttfbP50Ratio", ratio(board, smallest, "ttfbMs"));
        small = board.getInteger("shapes") == GOAL_SMALL ? board : small;
        large = board.getInteger("shapes") == GOAL_LARGE ? board : large;
      }
      if (small != null && large != null) {
        double changes = ratio(large, small, "changeMs");
        double ttfb = ratio(large, small, "ttfbMs");
        JsonObject goal =
            new JsonObject()
                .put("what", "10,000-shape p50 / 100-shape p50, at most " + GOAL_RATIO)
                .put("met", changes <= GOAL_RATIO && ttfb <= GOAL_RATIO);
        putFinite(goal, "changes", changes);
        putFinite(goal, "ttfb", ttfb);
        figures.put("goal", goal);
      }
    }
  }

  /** JSON has no NaN: a ratio without both figures is left out. */
  private static void putFinite(JsonObject json, String key, double value) {
    if (Double.isFinite(value)) {
      json.put(key, value);
    }
  }

  private static double ratio(JsonObject board, JsonObject base, String figure) {
    Double p50 = board.getJsonObject(figure).getDouble("p50");
    Double baseP50 = base.getJsonObject(figure).getDouble("p50");
    return p50 == null || baseP50 == null || baseP50 == 0
        ? Double.NaN
        : Percentiles.round(p50 / baseP50);
  }

  static String summary(JsonObject report) {
    StringBuilder out = new StringBuilder();
    JsonObject settings = report.getJsonObject("settings");
    JsonObject stores = report.getJsonObject("stores");
    line(
        out,
        "scale: a one-shape change (%d a board) and a %s run's ttfbMs (%d a board), by board size",
        settings.getInteger("changeSamples"),
        settings.getString("model"),
        settings.getInteger("runSamples"));
    StringBuilder header = new StringBuilder(format("%8s", "shapes"));
    StringBuilder columns = new StringBuilder(format("%8s", ""));
    for (String store : stores.fieldNames()) {
      header.append(format(" | %-44s", STORE_NAMES.get(store)));
      columns.append(format(" | %-25s %-18s", "change p50/p90/p99 ms", "ttfb p50/p90 ms"));
    }
    out.append(header).append('\n').append(columns).append('\n');
    JsonArray sizes = settings.getJsonArray("sizes");
    for (int i = 0; i < sizes.size(); i++) {
      StringBuilder row = new StringBuilder(format("%,8d", sizes.getInteger(i)));
      for (String store : stores.fieldNames()) {
        JsonObject board = stores.getJsonObject(store).getJsonArray("boards").getJsonObject(i);
        JsonObject change = board.getJsonObject("changeMs");
        JsonObject ttfb = board.getJsonObject("ttfbMs");
        row.append(
            format(
                " | %5.1f/%5.1f/%5.1f %5.1f× %5.0f/%5.0f %5.1f×",
                change.getDouble("p50", Double.NaN),
                change.getDouble("p90", Double.NaN),
                change.getDouble("p99", Double.NaN),
                board.getDouble("changeP50Ratio", Double.NaN),
                ttfb.getDouble("p50", Double.NaN),
                ttfb.getDouble("p90", Double.NaN),
                board.getDouble("ttfbP50Ratio", Double.NaN)));
        if (board.getInteger("runsFailed") > 0) {
          row.append(" (").append(board.getInteger("runsFailed")).append(" runs failed)");
        }
      }
      out.append(row).append('\n');
    }
    line(out, "(×: p50 as a multiple of the %,d-shape board's)", sizes.getInteger(0));
    for (String store : stores.fieldNames()) {
      JsonObject figures = stores.getJsonObject(store);
      JsonObject goal = figures.getJsonObject("goal");
      if (goal != null) {
        line(
            out,
            "%s, %,d vs %,d shapes (p50): changes %.2f×, ttfb %.2f× (goal ≤ %.1f×%s)",
            STORE_NAMES.get(store),
            GOAL_LARGE,
            GOAL_SMALL,
            goal.getDouble("changes", Double.NaN),
            goal.getDouble("ttfb", Double.NaN),
            GOAL_RATIO,
            store.equals("pg") ? (goal.getBoolean("met") ? ": met" : ": NOT met") : "");
      }
      JsonObject cached = figures.getJsonObject("cached");
      if (cached.containsKey("rssKib")) {
        line(
            out,
            "%s, %d rooms × %,d shapes: RSS %d MiB (%d at start, HWM %d), heap used %d MiB;"
                + " left idle: RSS %d MiB (+%d over start), heap used %d MiB;"
                + " after a full GC %d MiB live, RSS %d MiB; cache setting %d MiB",
            STORE_NAMES.get(store),
            cached.getInteger("rooms"),
            cached.getInteger("shapesEach"),
            mib(cached.getLong("rssKib")),
            mib(cached.getLong("rssIdleKib")),
            mib(cached.getLong("vmHwmKib")),
            mib(cached.getLong("heapUsedKib")),
            mib(cached.getLong("rssAfterIdleReturnKib")),
            mib(cached.getLong("rssAfterIdleReturnKib") - cached.getLong("rssIdleKib")),
            mib(cached.getLong("heapUsedAfterIdleReturnKib")),
            mib(cached.getLong("heapLiveAfterFullGcKib")),
            mib(cached.getLong("rssAfterFullGcKib")),
            cached.getLong("cacheBytes") / (1024 * 1024));
        JsonObject boardCache = cached.getJsonObject("patchEngine").getJsonObject("boardCache");
        if (boardCache != null) {
          line(out, "  the patch engine's boardCache: %s", boardCache.encode());
        }
      }
    }
    JsonObject machine = report.getJsonObject("machine");
    line(
        out,
        "machine: %d cores (%s), %s; load average %s before, %s after; %d s",
        machine.getInteger("cores"),
        machine.getString("cpu"),
        machine.getString("java"),
        machine.getString("loadAverageBefore"),
        machine.getString("loadAverageAfter"),
        report.getLong("seconds"));
    return out.toString();
  }

  private static long mib(long kib) {
    return kib < 0 ? -1 : Math.round(kib / 1024.0);
  }

  private static void line(StringBuilder out, String format, Object... values) {
    out.append(format(format, values)).append('\n');
  }

  private static String format(String format, Object... values) {
    return String.format(Locale.ROOT, format, values);
  }
}
