package dev.canvasagent.runner;

import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.runner.context.ContextStats;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * What one run's {@code run.finished} line reports beyond its counts, gathered as the run goes. Times
 * are from the run's start. The prompt figures are the runner's own rough ones until the context
 * builder reports its stats through {@link #contextStats}; a provider that retries reports through
 * {@link #providerRetries}. Never holds user content or image data.
 */
final class RunMetrics {
  private final long startedAtNanos = System.nanoTime();
  private long firstModelEventNanos;
  private long firstEnvelopeNanos;
  private long firstAppliedNanos;
  private String firstModelEvent;
  private int streamChunks;
  private int providerRetries;
  private int commitConflicts;
  private long longestConflictMs;
  private int queueDepthAtStart;
  private long docVersion = -1;
  private int boardShapes;
  private long imageBytes;
  private long promptTokenEstimate;
  private JsonObject shapeCounts;
  private JsonObject shapeStateStats;

  void queueDepthAtStart(int depth) {
    queueDepthAtStart = depth;
  }

  /** The board the run started from: its revision (the docVersion) and how many shapes it holds. */
  void board(long revision, int shapes) {
    if (docVersion < 0) {
      docVersion = revision;
    }
    boardShapes = shapes;
  }

  /** The screenshot's decoded size, as its reply states it (0 when the run went text-only). */
  void screenshot(Screenshot capture) {
    imageBytes = capture == null ? 0 : capture.image().bytes();
  }

  /** A rough figure (4 characters a token) until the context builder reports its own. */
  void promptCharacters(long characters) {
    if (shapeCounts == null) {
      promptTokenEstimate = characters / 4 + 1;
    }
  }

  /** The context builder's figures for the prompt it built; they replace the runner's rough ones. */
  void contextStats(ContextStats stats) {
    promptTokenEstimate = stats.promptTokenEstimate();
    shapeCounts =
        new JsonObject()
            .put("board", stats.shapes())
            .put("inView", stats.shapesInView())
            .put("sent", stats.shapesSent())
            .put("peripheralClusters", stats.peripheralClusters())
            .put("selected", stats.selected())
            .put("contextBytes", stats.contextBytes())
            .put("cut", new JsonArray(stats.cut()))
            .put("memoHit", stats.memoHit());
    imageBytes = stats.imageBytes();
    shapeStateStats = stats.shapeStateStats().toJson();
  }

  /**
   * A commit that met a newer revision; {@code refusedForMs}: how long its action has been refused so
   * far, from its first refused commit.
   */
  void commitConflict(long refusedForMs) {
    commitConflicts++;
    longestConflictMs = Math.max(longestConflictMs, refusedForMs);
  }

  void providerRetries(int retries) {
    providerRetries = retries;
  }

  void modelEvent(ModelEvent event) {
    streamChunks++;
    if (firstModelEventNanos == 0) {
      firstModelEventNanos = System.nanoTime();
      firstModelEvent = kind(event);
    }
  }

  void envelopePublished() {
    if (firstEnvelopeNanos == 0) {
      firstEnvelopeNanos = System.nanoTime();
    }
  }

  void applied() {
    if (firstAppliedNanos == 0) {
      firstAppliedNanos = System.nanoTime();
    }
  }

  /** The {@code streaming} status detail: what came first from the model, and when. */
  JsonObject firstEventDetail() {
    JsonObject detail =
        new JsonObject().put("firstEvent", firstModelEvent == null ? "unknown" : firstModelEvent);
    if (firstModelEventNanos != 0) {
      detail.put("afterMs", millisSinceStart(firstModelEventNanos));
    }
    return detail;
  }

  long elapsedMs() {
    return millisSinceStart(System.nanoTime());
  }

  /** Time to the first envelope on the room, or -1 when none was published. */
  long ttfbMs() {
    return firstEnvelopeNanos == 0 ? -1 : millisSinceStart(firstEnvelopeNanos);
  }

  /** Time to the first action committed on the board, or -1 when none was. */
  long firstAppliedMs() {
    return firstAppliedNanos == 0 ? -1 : millisSinceStart(firstAppliedNanos);
  }

  LoggingEventBuilder addTo(LoggingEventBuilder log) {
    LoggingEventBuilder line =
        log.addKeyValue("promptTokenEstimate", promptTokenEstimate)
            .addKeyValue("boardShapes", boardShapes)
            .addKeyValue("imageBytes", imageBytes)
            .addKeyValue("docVersion", docVersion)
            .addKeyValue("streamChunks", streamChunks)
            .addKeyValue("providerRetries", providerRetries)
            .addKeyValue("queueDepthAtStart", queueDepthAtStart)
            .addKeyValue("commitConflicts", commitConflicts)
            .addKeyValue("longestConflictMs", longestConflictMs);
    if (shapeCounts != null) {
      line = line.addKeyValue("shapeCounts", shapeCounts.encode());
    }
    if (shapeStateStats != null) {
      line = line.addKeyValue("shapeStateStats", shapeStateStats.encode());
    }
    if (firstModelEventNanos != 0) {
      line = line.addKeyValue("firstModelEventMs", millisSinceStart(firstModelEventNanos));
    }
    if (firstEnvelopeNanos != 0) {
      line = line.addKeyValue("ttfbMs", ttfbMs());
    }
    if (firstAppliedNanos != 0) {
      line = line.addKeyValue("firstAppliedMs", millisSinceStart(firstAppliedNanos));
    }
    return line;
  }

  private long millisSinceStart(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos - startedAtNanos);
  }

  private static String kind(ModelEvent event) {
    if (event instanceof ModelEvent.TextDelta) {
      return "text";
    }
    if (event instanceof ModelEvent.ToolCallStart
        || event instanceof ModelEvent.ToolCallDelta
        || event instanceof ModelEvent.ToolCallEnd) {
      return "tool_call";
    }
    if (event instanceof ModelEvent.Usage) {
      return "usage";
    }
    if (event instanceof ModelEvent.Stop) {
      return "stop";
    }
    if (event instanceof ModelEvent.Error) {
      return "error";
    }
    return event.getClass().getSimpleName();
  }
}
