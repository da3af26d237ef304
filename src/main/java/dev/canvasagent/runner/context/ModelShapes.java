package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RichText;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.RecordNumbers;
import dev.canvasagent.board.geometry.ShapeTree;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Shapes as the model sees them: ids without {@code shape:}, geo shapes by their geo kind, page
 * bounds offset to the session origin and rounded through the run's {@link CoordinateFrame}, which
 * remembers the rounding so the sanitizer can restore it.
 */
final class ModelShapes {
  /** The string style props a simplified record carries, when the shape has them. */
  private static final List<String> STYLE_PROPS =
      List.of(
          "color",
          "labelColor",
          "fill",
          "dash",
          "size",
          "font",
          "align",
          "verticalAlign",
          "textAlign",
          "kind",
          "arrowheadStart",
          "arrowheadEnd",
          "spline");

  private ModelShapes() {}

  /**
   * {@code {id, type, x, y, w, h, text}}: the blurry view, position and size of the page bounds; and
   * {@code locked: true} for a shape a person's lock holds, which no action may change.
   */
  static JsonObject blurry(BoardView.Shape shape, BoardView view, CoordinateFrame frame) {
    Box bounds = shape.bounds();
    String id = shape.recordId();
    // x and y are what move's x, y mean (the bounds' top-left), so their rounding is remembered; w
    // and h are the record's own size only when the shape is not rotated.
    String sizeOwner = RecordNumbers.finite(shape.record(), "rotation", 0) == 0 ? id : null;
    JsonObject blurry =
        new JsonObject()
            .put("id", ShapeIds.modelId(id))
            .put("type", type(shape.record()))
            .put("x", frame.toModel(id, "x", bounds.minX()))
            .put("y", frame.toModel(id, "y", bounds.minY()))
            .put("w", frame.toModel(sizeOwner, "w", bounds.width()))
            .put("h", frame.toModel(sizeOwner, "h", bounds.height()))
            .put("text", text(shape.record()));
    if (view.locked(id)) {
      blurry.put("locked", true);
    }
    return blurry;
  }

  /** The blurry view plus rotation, parent, styles and an arrow's bound shapes: a selected shape in full. */
  static JsonObject simplified(BoardView.Shape shape, BoardView view, CoordinateFrame frame) {
    JsonObject record = shape.record();
    JsonObject simple =
        shape.bounds() == null
            ? new JsonObject()
                .put("id", ShapeIds.modelId(shape.recordId()))
                .put("type", type(record))
                .put("text", text(record))
            : blurry(shape, view, frame);
    double rotation = RecordNumbers.finite(record, "rotation", 0);
    if (rotation != 0) {
      simple.put("rotation", Math.round(Math.toDegrees(rotation)));
    }
    String parent = ShapeTree.parentId(record);
    if (!ShapeTree.isPage(parent)) {
      simple.put("parentId", ShapeIds.modelId(parent));
    }
    JsonObject props = RecordNumbers.object(record, "props");
    for (String style : STYLE_PROPS) {
      if (props.getValue(style) instanceof String value) {
        simple.put(style, value);
      }
    }
    if ("arrow".equals(record.getValue("type"))) {
      String from = view.arrowTarget(shape.recordId(), "start");
      String to = view.arrowTarget(shape.recordId(), "end");
      if (from != null) {
        simple.put("fromId", ShapeIds.modelId(from));
      }
      if (to != null) {
        simple.put("toId", ShapeIds.modelId(to));
      }
    }
    if (view.locked(shape.recordId())) {
      simple.put("locked", true);
    }
    return simple;
  }

  /**
   * The tldraw record itself (its runtime state), with its x and y offset and rounded when it sits
   * on the page, rounded when it sits in a parent's space. The rounding is not remembered: these
   * are record positions, not the bounds the verbs take back.
   */
  static JsonObject state(BoardView.Shape shape, CoordinateFrame frame) {
    JsonObject record = shape.record().copy();
    boolean onPage = ShapeTree.isPage(ShapeTree.parentId(record));
    for (String axis : List.of("x", "y")) {
      double value = RecordNumbers.finite(record, axis, 0);
      record.put(axis, onPage ? frame.toModel(null, axis, value) : Math.round(value));
    }
    return record;
  }

  /** The geo kind of a geo shape ({@code rectangle}, {@code ellipse}…), else the tldraw type. */
  static String type(JsonObject record) {
    String type = RecordNumbers.string(record, "type", "unknown");
    if ("geo".equals(type)) {
      return RecordNumbers.string(RecordNumbers.object(record, "props"), "geo", "rectangle");
    }
    return type;
  }

  /**
   * The shape's text: its rich text, a plain {@code text} prop, an image's or video's alt text (what
   * the model can know of a picture it is not shown), or a frame's name; empty when none.
   */
  static String text(JsonObject record) {
    JsonObject props = RecordNumbers.object(record, "props");
    if (props.getValue("richText") instanceof JsonObject richText) {
      return RichText.plainText(richText);
    }
    if (props.getValue("text") instanceof String text) {
      return text;
    }
    if (props.getValue("altText") instanceof String altText) {
      return altText;
    }
    return props.getValue("name") instanceof String name ? name : "";
  }
}
