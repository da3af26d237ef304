package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;

/**
 * Builds complete tldraw shape records: every required top-level field and prop, with tldraw's own
 * defaults, so a record is valid before any style is applied to it.
 */
public final class ShapeRecords {
  public static final String PAGE_ID = "page:page";

  private ShapeRecords() {}

  public static JsonObject shape(
      String id, String type, double x, double y, String index, JsonObject props) {
    return new JsonObject()
        .put("id", id)
        .put("typeName", "shape")
        .put("type", type)
        .put("x", x)
        .put("y", y)
        .put("rotation", 0.0)
        .put("index", index)
        .put("parentId", PAGE_ID)
        .put("isLocked", false)
        .put("opacity", 1.0)
        .put("props", props)
        .put("meta", new JsonObject());
  }

  public static JsonObject geoProps(String geo, double w, double h, String label) {
    return new JsonObject()
        .put("geo", geo)
        .put("dash", "draw")
        .put("url", "")
        .put("w", w)
        .put("h", h)
        .put("growY", 0.0)
        .put("scale", 1.0)
        .put("flipX", false)
        .put("flipY", false)
        .put("labelColor", "black")
        .put("color", "black")
        .put("fill", "none")
        .put("size", "m")
        .put("font", "draw")
        .put("align", "middle")
        .put("verticalAlign", "middle")
        .put("richText", RichText.of(label));
  }

  public static JsonObject textProps(String text, double w) {
    return new JsonObject()
        .put("color", "black")
        .put("size", "m")
        .put("font", "draw")
        .put("textAlign", "start")
        .put("w", w)
        .put("richText", RichText.of(text))
        .put("scale", 1.0)
        .put("autoSize", true);
  }

  public static JsonObject noteProps(String text) {
    return new JsonObject()
        .put("color", "black")
        .put("labelColor", "black")
        .put("size", "m")
        .put("font", "draw")
        .put("fontSizeAdjustment", 1.0)
        .put("align", "middle")
        .put("verticalAlign", "middle")
        .put("growY", 0.0)
        .put("url", "")
        .put("richText", RichText.of(text))
        .put("scale", 1.0)
        .putNull("textLastEditedBy");
  }

  public static JsonObject arrowProps(double endX, double endY, String label) {
    return new JsonObject()
        .put("kind", "arc")
        .put("labelColor", "black")
        .put("color", "black")
        .put("fill", "none")
        .put("dash", "draw")
        .put("size", "m")
        .put("arrowheadStart", "none")
        .put("arrowheadEnd", "arrow")
        .put("font", "draw")
        .put("start", new JsonObject().put("x", 0.0).put("y", 0.0))
        .put("end", new JsonObject().put("x", endX).put("y", endY))
        .put("bend", 0.0)
        .put("richText", RichText.of(label))
        .put("labelPosition", 0.5)
        .put("scale", 1.0)
        .put("elbowMidPoint", 0.5);
  }

  /** Line props; {@code points} is tldraw's map of handle id to {@code {id, index, x, y}}. */
  public static JsonObject lineProps(JsonObject points) {
    return new JsonObject()
        .put("color", "black")
        .put("dash", "draw")
        .put("size", "m")
        .put("spline", "line")
        .put("points", points)
        .put("scale", 1.0);
  }

  /** Draw props; {@code segments} are {@code {type, path}} with {@link DrawPath} paths. */
  public static JsonObject drawProps(io.vertx.core.json.JsonArray segments, boolean closed) {
    return new JsonObject()
        .put("color", "black")
        .put("fill", "none")
        .put("dash", "draw")
        .put("size", "m")
        .put("segments", segments)
        .put("isComplete", true)
        .put("isClosed", closed)
        .put("isPen", false)
        .put("scale", 1.0)
        .put("scaleX", 1.0)
        .put("scaleY", 1.0);
  }

  public static JsonObject frameProps(double w, double h, String name) {
    return new JsonObject().put("w", w).put("h", h).put("name", name).put("color", "black");
  }

  public static JsonObject groupProps() {
    return new JsonObject();
  }
}
