package dev.canvasagent.runner;

import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one {@code run.finished} line of a run: counts, times and sizes (and the other dialects' verb
 * names it used), never the message, chat or image.
 */
final class RunLog {
  // Under the logger operators know the line by (`Run run.finished`), whichever class writes it.
  private static final Logger LOG = LoggerFactory.getLogger(Run.class);
  private static final int MESSAGE_HASH_HEX_CHARS = 12;

  /** What became of the run's actions, counted by the classes that handled them. */
  record Counts(
      int toolCalls,
      int applied,
      int dropped,
      int deduped,
      int partialEnvelopes,
      int followupsQueued,
      int followupsRefused,
      int todoChanges) {}

  private final RunRequest request;
  private final AppConfig config;
  private final RunMetrics metrics;
  private final CanvasMetrics meters;

  /** {@code meters}: the node's meters, where the line's state, code and first times are counted too. */
  RunLog(RunRequest request, AppConfig config, RunMetrics metrics, CanvasMetrics meters) {
    this.request = request;
    this.config = config;
    this.metrics = metrics;
    this.meters = meters;
  }

  void finished(RunState state, JsonObject detail, Counts counts) {
    long ttfbMs = metrics.ttfbMs();
    meters.runEnded(state.wireName(), detail.getString("code"));
    if (ttfbMs >= 0) {
      meters.firstEnvelope(ttfbMs);
    }
    if (metrics.firstAppliedMs() >= 0) {
      meters.firstApplied(metrics.firstAppliedMs());
    }
    var line =
        LOG.atInfo()
            .addKeyValue("roomId", request.roomId())
            .addKeyValue("sessionId", request.sessionId())
            .addKeyValue("runId", request.runId())
            .addKeyValue("model", request.model())
            .addKeyValue("state", state.wireName());
    for (String field : List.of("stopReason", "code")) {
      if (detail.getString(field) != null) {
        line = line.addKeyValue(field, detail.getString(field));
      }
    }
    if (detail.getValue("aliases") instanceof JsonObject aliases) {
      // The other dialects' names the model used, and how often: what to tell its prompt's author.
      line = line.addKeyValue("aliases", aliases.encode());
    }
    line =
        line.addKeyValue("toolCalls", counts.toolCalls())
            .addKeyValue("applied", counts.applied())
            .addKeyValue("dropped", counts.dropped())
            .addKeyValue("deduped", counts.deduped())
            .addKeyValue("partialEnvelopes", counts.partialEnvelopes())
            .addKeyValue(
                "followUpNumber", request.followUp() == null ? 0 : request.followUp().number())
            .addKeyValue("followupsQueued", counts.followupsQueued())
            .addKeyValue("followupsRefused", counts.followupsRefused())
            .addKeyValue("todoChanges", counts.todoChanges())
            .addKeyValue("elapsedMs", metrics.elapsedMs());
    line = metrics.addTo(line);
    if (ttfbMs >= 0) {
      line = line.addKeyValue("ttfbSloMet", ttfbMs <= config.ttfbSloMs());
    }
    if (config.model().debug()) {
      // Debug may tell messages apart, never show them.
      line =
          line.addKeyValue("messageChars", request.message().length())
              .addKeyValue("messageSha256", sha256Prefix(request.message()));
    }
    line.log("run.finished");
  }

  private static String sha256Prefix(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, MESSAGE_HASH_HEX_CHARS);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
