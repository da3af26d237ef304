package dev.canvasagent.support;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.DrawPath;
import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Complete tldraw shape records for tests, built by the same {@link ShapeRecords} the server uses. */
public final class TestShapes {
  private TestShapes() {}

  public static Board board(JsonObject... records) {
    return board(List.of(records));
  }

  public static Board board(List<JsonObject> records) {
    Map<String, JsonObject> byId = new LinkedHashMap<>();
    records.forEach(record -> byId.put(record.getString("id"), record));
    return new Board("room-1", 1, byId);
  }

  public static JsonObject geo(String id, double x, double y, double w, double h) {
    return ShapeRecords.shape(
        "shape:" + id, "geo", x, y, "a1", ShapeRecords.geoProps("rectangle", w, h, ""));
  }

  public static JsonObject frame(String id, double x, double y, double w, double h) {
    return ShapeRecords.shape(
        "shape:" + id, "frame", x, y, "a1", ShapeRecords.frameProps(w, h, ""));
  }

  public static JsonObject note(String id, double x, double y) {
    return ShapeRecords.shape("shape:" + id, "note", x, y, "a1", ShapeRecords.noteProps("note"));
  }

  public static JsonObject text(String id, double x, double y, double w, String text) {
    return ShapeRecords.shape("shape:" + id, "text", x, y, "a1", ShapeRecords.textProps(text, w));
  }

  public static JsonObject arrow(String id, double x, double y, double endX, double endY) {
    return ShapeRecords.shape(
        "shape:" + id, "arrow", x, y, "a1", ShapeRecords.arrowProps(endX, endY, ""));
  }

  /** A line through the given x, y pairs. */
  public static JsonObject line(String id, double x, double y, double... coordinates) {
    JsonObject points = new JsonObject();
    for (int i = 0; i < coordinates.length; i += 2) {
      String pointId = "p" + i / 2;
      points.put(
          pointId,
          new JsonObject()
              .put("id", pointId)
              .put("index", "a" + i / 2)
              .put("x", coordinates[i])
              .put("y", coordinates[i + 1]));
    }
    return ShapeRecords.shape("shape:" + id, "line", x, y, "a1", ShapeRecords.lineProps(points));
  }

  /** A freehand stroke through the given x, y pairs. */
  public static JsonObject draw(String id, double x, double y, double... coordinates) {
    List<DrawPath.Point> points = new java.util.ArrayList<>();
    for (int i = 0; i < coordinates.length; i += 2) {
      points.add(new DrawPath.Point(coordinates[i], coordinates[i + 1], DrawPath.DEFAULT_PRESSURE));
    }
    JsonArray segments =
        new JsonArray()
            .add(new JsonObject().put("type", "free").put("path", DrawPath.encode(points)));
    return ShapeRecords.shape(
        "shape:" + id, "draw", x, y, "a1", ShapeRecords.drawProps(segments, false));
  }

  public static JsonObject group(String id, double x, double y) {
    return ShapeRecords.shape("shape:" + id, "group", x, y, "a1", ShapeRecords.groupProps());
  }

  /** The record with another parent (a bare id becomes {@code shape:<id>}). */
  public static JsonObject in(String parent, JsonObject record) {
    return record.put("parentId", parent.contains(":") ? parent : "shape:" + parent);
  }

  public static JsonObject at(String index, JsonObject record) {
    return record.put("index", index);
  }

  public static JsonObject rotated(double radians, JsonObject record) {
    return record.put("rotation", radians);
  }

  /** The binding of an arrow's {@code start} or {@code end} to a shape (record ids), as tldraw stores it. */
  public static JsonObject bound(
      String bindingId, String arrowId, String terminal, String targetId) {
    JsonObject anchor = new JsonObject().put("x", 0.5).put("y", 0.5);
    JsonObject props =
        new JsonObject()
            .put("terminal", terminal)
            .put("normalizedAnchor", anchor)
            .put("isExact", false)
            .put("isPrecise", false)
            .put("snap", "none");
    return new JsonObject()
        .put("id", "binding:" + bindingId)
        .put("typeName", "binding")
        .put("type", "arrow")
        .put("fromId", arrowId)
        .put("toId", targetId)
        .put("props", props)
        .put("meta", new JsonObject());
  }
}
