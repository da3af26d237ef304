package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.RecordNumbers;
import dev.canvasagent.board.geometry.ShapeTree;
import dev.canvasagent.board.geometry.Transform;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code resize}: shapes scaled about a page point (by default their combined bounds' top-left). Each
 * shape's position is scaled about the origin and its size in the way its type stores size: w and h,
 * text's w, a note's scale, the points of a line or arrow, a drawing's scaleX and scaleY. A group's
 * contents are scaled with it. Sizes are scaled along each shape's own axes, so a rotated shape scaled
 * unevenly is an approximation; even scaling is exact.
 */
public final class ResizeVerb implements ActionVerb {
  @Override
  public String name() {
    return "resize";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public Set<String> referencedShapes(JsonObject params) {
    return LayoutEdit.referencedShapes(params, "shapeIds");
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    LayoutEdit edit = new LayoutEdit(context);
    List<String> ids = edit.shapes(params, 1);
    List<String> outermost = edit.outermost(ids);
    double scaleX = factor(params, "scaleX");
    double scaleY = factor(params, "scaleY");
    Box bounds = edit.bounds(outermost);
    Double originX = VerbRanges.optionalNumber(params, "originX");
    Double originY = VerbRanges.optionalNumber(params, "originY");
    Vec origin =
        new Vec(
            originX == null
                ? bounds.minX()
                : VerbRanges.coordinate(context.frame().toPage(null, "x", originX)),
            originY == null
                ? bounds.minY()
                : VerbRanges.coordinate(context.frame().toPage(null, "y", originY)));

    for (String id : outermost) {
      Vec position = edit.pageTransform(id).origin();
      edit.moveOriginTo(id, origin.plus(position.minus(origin).times(scaleX, scaleY)));
      scaleSize(edit.record(id), scaleX, scaleY);
      if ("group".equals(edit.record(id).getValue("type"))) {
        scaleContents(edit, id, scaleX, scaleY);
      }
    }
    JsonObject normalized =
        LayoutEdit.withRecordIds(params, "shapeIds", ids)
            .put("scaleX", scaleX)
            .put("scaleY", scaleY);
    return new SanitizedAction(normalized, edit.diff());
  }

  private static double factor(JsonObject params, String name) {
    double factor = VerbRanges.number(params, name);
    if (factor <= 0) {
      throw new ActionRejected(
          name + " must be greater than 0 (flipping is not supported), got " + factor);
    }
    return VerbRanges.scale(factor);
  }

  /** What a group holds, through nested groups, moves and grows in the group's space as the group does. */
  private static void scaleContents(LayoutEdit edit, String groupId, double scaleX, double scaleY) {
    List<ShapeTree.Nested> descendants =
        edit.tree()
            .descendants(groupId)
            .orElseThrow(
                () ->
                    new ActionRejected(
                        "group nested more than " + ShapeTree.MAX_DEPTH + " levels deep"));
    Set<String> groups = new HashSet<>(Set.of(groupId));
    for (ShapeTree.Nested nested : descendants) {
      String id = nested.shape().getString("id");
      if (!groups.contains(ShapeTree.parentId(nested.shape()))) {
        continue; // inside a frame: a frame keeps its children as they are when it is resized
      }
      JsonObject record = edit.record(id);
      Transform local = Transform.of(record);
      record
          .put("x", VerbRanges.coordinate(local.x() * scaleX))
          .put("y", VerbRanges.coordinate(local.y() * scaleY));
      scaleSize(record, scaleX, scaleY);
      if ("group".equals(record.getValue("type"))) {
        groups.add(id);
      }
    }
  }

  private static void scaleSize(JsonObject record, double scaleX, double scaleY) {
    JsonObject props = RecordNumbers.object(record, "props").copy();
    switch (RecordNumbers.string(record, "type", "")) {
      case "geo", "frame" -> scaleBox(props, scaleX, scaleY);
      case "text" -> {
        props.put("w", VerbRanges.size(RecordNumbers.positive(props, "w", 1) * scaleX));
        if (scaleX != 1) {
          props.put("autoSize", false); // otherwise tldraw would fit the width back to the text
        }
      }
      case "note" ->
          props.put(
              "scale",
              VerbRanges.scale(
                  RecordNumbers.positive(props, "scale", 1) * Math.max(scaleX, scaleY)));
      case "arrow" -> {
        props.put("start", scaledPoint(RecordNumbers.object(props, "start"), scaleX, scaleY));
        props.put("end", scaledPoint(RecordNumbers.object(props, "end"), scaleX, scaleY));
        props.put(
            "bend",
            VerbRanges.coordinate(
                RecordNumbers.finite(props, "bend", 0) * Math.sqrt(scaleX * scaleY)));
      }
      case "line" -> {
        JsonObject points = new JsonObject();
        RecordNumbers.object(props, "points")
            .forEach(
                entry ->
                    points.put(
                        entry.getKey(),
                        entry.getValue() instanceof JsonObject point
                            ? scaledPoint(point, scaleX, scaleY)
                            : entry.getValue()));
        props.put("points", points);
      }
      case "draw", "highlight" -> {
        props.put("scaleX", scaledFactor(props, "scaleX", scaleX));
        props.put("scaleY", scaledFactor(props, "scaleY", scaleY));
      }
      case "group" -> {}
      default -> {
        if (props.getValue("w") instanceof Number && props.getValue("h") instanceof Number) {
          scaleBox(props, scaleX, scaleY);
        }
      }
    }
    record.put("props", props);
  }

  private static void scaleBox(JsonObject props, double scaleX, double scaleY) {
    props.put("w", VerbRanges.size(RecordNumbers.positive(props, "w", 1) * scaleX));
    props.put("h", VerbRanges.size(RecordNumbers.positive(props, "h", 1) * scaleY));
  }

  private static JsonObject scaledPoint(JsonObject point, double scaleX, double scaleY) {
    return point
        .copy()
        .put("x", VerbRanges.coordinate(RecordNumbers.finite(point, "x", 0) * scaleX))
        .put("y", VerbRanges.coordinate(RecordNumbers.finite(point, "y", 0) * scaleY));
  }

  /** A drawing's scaleX/scaleY may be negative (mirrored) but never 0; its size stays within the scale range. */
  private static double scaledFactor(JsonObject props, String name, double factor) {
    double current = RecordNumbers.finite(props, name, 1);
    double scaled = (current == 0 ? 1 : current) * factor;
    return Math.copySign(VerbRanges.scale(Math.abs(scaled)), scaled);
  }
}
