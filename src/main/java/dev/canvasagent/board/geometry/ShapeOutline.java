package dev.canvasagent.board.geometry;

import dev.canvasagent.board.DrawPath;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * The points that bound a shape in its own space (before its x, y and rotation), per tldraw type: the
 * corners of its box, or the points it is drawn through. Groups have none of their own; they are
 * measured through their children. Stroke width is not included.
 */
public final class ShapeOutline {
  /** tldraw's note is 200 × 200 before its scale. */
  static final double NOTE_SIZE = 200;

  /**
   * Text height is an estimate: the server cannot lay text out, so a text shape is taken to be one line
   * per paragraph (or hard break) of its label, each line this tall at scale 1. Wrapping is not counted.
   */
  static final Map<String, Double> TEXT_LINE_HEIGHTS =
      Map.of("s", 24.0, "m", 32.0, "l", 44.0, "xl", 60.0);

  /** Rich-text nodes beyond this many are not looked at when counting lines. */
  private static final int MAX_RICH_TEXT_NODES = 10_000;

  private ShapeOutline() {}

  public static List<Vec> of(JsonObject shape) {
    JsonObject props = RecordNumbers.object(shape, "props");
    return switch (RecordNumbers.string(shape, "type", "")) {
      case "geo" ->
          corners(
              RecordNumbers.positive(props, "w", 1),
              RecordNumbers.positive(props, "h", 1)
                  + Math.max(0, RecordNumbers.finite(props, "growY", 0)));
      case "frame" ->
          corners(RecordNumbers.positive(props, "w", 1), RecordNumbers.positive(props, "h", 1));
      case "note" -> note(props);
      case "text" -> text(props);
      case "arrow" ->
          List.of(
              point(RecordNumbers.object(props, "start")),
              point(RecordNumbers.object(props, "end")));
      case "line" -> line(props);
      case "draw", "highlight" -> draw(props);
      case "group" -> List.of();
      default -> other(props);
    };
  }

  private static List<Vec> note(JsonObject props) {
    double scale = RecordNumbers.positive(props, "scale", 1);
    double growY = Math.max(0, RecordNumbers.finite(props, "growY", 0));
    return corners(NOTE_SIZE * scale, (NOTE_SIZE + growY) * scale);
  }

  private static List<Vec> text(JsonObject props) {
    double scale = RecordNumbers.positive(props, "scale", 1);
    double lineHeight =
        TEXT_LINE_HEIGHTS.getOrDefault(
            RecordNumbers.string(props, "size", "m"), TEXT_LINE_HEIGHTS.get("m"));
    return corners(
        RecordNumbers.positive(props, "w", 1) * scale,
        lineCount(props.getValue("richText")) * lineHeight * scale);
  }

  /** Paragraphs, headings and hard breaks of a TipTap document, at least one. */
  static int lineCount(Object richText) {
    int lines = 0;
    int visited = 0;
    Deque<Object> pending = new ArrayDeque<>();
    pending.push(richText);
    while (!pending.isEmpty() && visited++ < MAX_RICH_TEXT_NODES) {
      if (!(pending.pop() instanceof JsonObject node)) {
        continue;
      }
      String type = RecordNumbers.string(node, "type", "");
      if (type.equals("paragraph") || type.equals("heading") || type.equals("hardBreak")) {
        lines++;
      }
      if (node.getValue("content") instanceof JsonArray content) {
        content.forEach(pending::push);
      }
    }
    return Math.max(1, lines);
  }

  private static List<Vec> line(JsonObject props) {
    List<Vec> points = new ArrayList<>();
    RecordNumbers.object(props, "points")
        .forEach(
            entry -> {
              if (entry.getValue() instanceof JsonObject point) {
                points.add(point(point));
              }
            });
    return points.isEmpty() ? List.of(Vec.ZERO) : points;
  }

  private static List<Vec> draw(JsonObject props) {
    double scaleX = RecordNumbers.finite(props, "scaleX", 1);
    double scaleY = RecordNumbers.finite(props, "scaleY", 1);
    List<Vec> points = new ArrayList<>();
    if (props.getValue("segments") instanceof JsonArray segments) {
      for (Object segment : segments) {
        if (segment instanceof JsonObject json && json.getValue("path") instanceof String path) {
          decoded(path)
              .forEach(point -> points.add(new Vec(point.x() * scaleX, point.y() * scaleY)));
        }
      }
    }
    return points.isEmpty() ? List.of(Vec.ZERO) : points;
  }

  /** A path that is not tldraw's encoding adds no points rather than failing the whole measurement. */
  private static List<DrawPath.Point> decoded(String path) {
    try {
      return DrawPath.decode(path);
    } catch (IllegalArgumentException | java.nio.BufferUnderflowException notAPath) {
      return List.of();
    }
  }

  /** Shapes of types the layout verbs do not know (image, embed, ...) mostly carry w and h. */
  private static List<Vec> other(JsonObject props) {
    if (props.getValue("w") instanceof Number && props.getValue("h") instanceof Number) {
      return corners(RecordNumbers.positive(props, "w", 1), RecordNumbers.positive(props, "h", 1));
    }
    return List.of(Vec.ZERO);
  }

  private static Vec point(JsonObject xy) {
    return new Vec(RecordNumbers.finite(xy, "x", 0), RecordNumbers.finite(xy, "y", 0));
  }

  private static List<Vec> corners(double width, double height) {
    return List.of(new Vec(0, 0), new Vec(width, 0), new Vec(width, height), new Vec(0, height));
  }
}
