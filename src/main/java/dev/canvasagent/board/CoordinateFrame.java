package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/**
 * The simple world the model sees: coordinates relative to the session's origin, rounded to
 * integers. Rounding a shape's value remembers what was rounded away, keyed by shape and property,
 * so that the same value coming back is restored exactly and repeated updates do not drift. The one
 * place this mapping lives.
 */
public final class CoordinateFrame {
  private final double originX;
  private final double originY;
  private final Map<String, Double> roundingDiffs;

  public CoordinateFrame(double originX, double originY, Map<String, Double> roundingDiffs) {
    this.originX = originX;
    this.originY = originY;
    this.roundingDiffs = new HashMap<>(roundingDiffs);
  }

  public static CoordinateFrame atOrigin() {
    return new CoordinateFrame(0, 0, Map.of());
  }

  public double originX() {
    return originX;
  }

  public double originY() {
    return originY;
  }

  /** A page value as the model sees it (offset, rounded), remembering the rounding for {@code shapeId}. */
  public long toModel(String shapeId, String property, double pageValue) {
    double offset = pageValue - origin(property);
    long rounded = Math.round(offset);
    double diff = offset - rounded;
    if (shapeId != null && diff != 0) {
      roundingDiffs.put(key(shapeId, property), diff);
    } else if (shapeId != null) {
      roundingDiffs.remove(key(shapeId, property));
    }
    return rounded;
  }

  /** A model's value as a page value: the offset removed and, for a known shape, the rounding restored. */
  public double toPage(String shapeId, String property, double modelValue) {
    double diff = shapeId == null ? 0 : roundingDiffs.getOrDefault(key(shapeId, property), 0.0);
    return modelValue + diff + origin(property);
  }

  /** A model's value for a property that is not a position (a width, a gap): rounding restored, no offset. */
  public double toPageLength(String shapeId, String property, double modelValue) {
    double diff = shapeId == null ? 0 : roundingDiffs.getOrDefault(key(shapeId, property), 0.0);
    return modelValue + diff;
  }

  private double origin(String property) {
    return switch (property) {
      case "x" -> originX;
      case "y" -> originY;
      default -> 0;
    };
  }

  private static String key(String shapeId, String property) {
    return shapeId + "_" + property;
  }

  public JsonObject toJson() {
    JsonObject rounding = new JsonObject();
    roundingDiffs.forEach(rounding::put);
    return new JsonObject()
        .put("originX", originX)
        .put("originY", originY)
        .put("rounding", rounding);
  }

  public static CoordinateFrame fromJson(JsonObject json) {
    if (json == null) {
      return atOrigin();
    }
    Map<String, Double> rounding = new HashMap<>();
    json.getJsonObject("rounding", new JsonObject())
        .forEach(entry -> rounding.put(entry.getKey(), ((Number) entry.getValue()).doubleValue()));
    return new CoordinateFrame(
        json.getDouble("originX", 0.0), json.getDouble("originY", 0.0), rounding);
  }
}
