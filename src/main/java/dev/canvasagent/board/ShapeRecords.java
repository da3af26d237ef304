package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;

/**
 * Builds complete tldraw shape records: every required top-level field and prop, with tldraw's own
 * defaults, so a record is valid before any style is applied to it.
 */
public final class ShapeRecords {
  public static final String PAGE_ID = "page:page";

  private ShapeRecords() {}

  public static JsonObject shape(String id, String type, double x, double y, String index, JsonObject props) {
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
        .put("fontSizeAdjustment", 0.0)
        .put("align", "middle")
        .put("verticalAlign", "middle")
        .put("growY", 0.0)
        .put("url", "")
        .put("richText", RichText.of(text))
        .put("scale", 1.0)
        .putNull("textLastEditedBy");
  }
}
