package dev.canvasagent.runner.context;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What a run's context held, for its log line: no user content, only sizes and counts.
 *
 * @param promptTokenEstimate the whole prompt (system prompt, tools, context, message) in bytes / 4
 * @param contextBytes the context text's UTF-8 bytes
 * @param shapes the shapes on the board
 * @param shapesInView those fully inside the viewport
 * @param shapesSent those the model got in {@code shapes}
 * @param peripheralClusters the off-screen clusters the model got
 * @param selected the selected shapes found on the board
 * @param imageBytes the screenshot's bytes, 0 when text-only
 * @param cut the parts their budget (or the total budget) cut, in priority order
 * @param memoHit whether the memoized parts were reused
 */
public record ContextStats(
    int promptTokenEstimate,
    int contextBytes,
    int shapes,
    int shapesInView,
    int shapesSent,
    int peripheralClusters,
    int selected,
    long imageBytes,
    ShapeStateStats shapeStateStats,
    List<String> cut,
    boolean memoHit,
    long docVersion) {

  public ContextStats {
    cut = List.copyOf(cut);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("promptTokenEstimate", promptTokenEstimate)
        .put("contextBytes", contextBytes)
        .put("shapes", shapes)
        .put("shapesInView", shapesInView)
        .put("shapesSent", shapesSent)
        .put("peripheralClusters", peripheralClusters)
        .put("selected", selected)
        .put("imageBytes", imageBytes)
        .put("shapeStateStats", shapeStateStats.toJson())
        .put("cut", new JsonArray(cut))
        .put("memoHit", memoHit)
        .put("docVersion", docVersion);
  }
}
