package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.board.geometry.ShapeTree;
import dev.canvasagent.board.geometry.Transform;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The work one layout action does: it resolves the shapes the action names, measures them on the
 * board as it was when the action arrived, and collects the records it changes as copies (the board's
 * own records are never touched) into one diff.
 */
final class LayoutEdit {
  /** The most shapes one action may name; the schemas say the same, this holds without them. */
  static final int MAX_SHAPES = 200;

  private final Board board;
  private final ShapeGeometry geometry;
  private final Map<String, JsonObject> changed = new LinkedHashMap<>();
  private final List<String> removed = new ArrayList<>();

  /** Bounds on the board as the action found it; verbs ask for the same shape's bounds again and again. */
  private final Map<String, Box> measured = new HashMap<>();

  LayoutEdit(ActionContext context) {
    this.board = context.board();
    this.geometry = new ShapeGeometry(board);
  }

  /**
   * The record ids the named params refer to: each field a shape reference or an array of them
   * (bare or {@code shape:} ids); what cannot be an id is left out.
   */
  static Set<String> referencedShapes(JsonObject params, String... fields) {
    return ShapeRefs.named(params, fields);
  }

  ShapeGeometry geometry() {
    return geometry;
  }

  ShapeTree tree() {
    return geometry.tree();
  }

  /**
   * The shapes the {@code shapeIds} param names, in order, each once (a model repeating an id means the shape
   * once); at least {@code minimum} of them, every one a shape on the board that can be measured.
   */
  List<String> shapes(JsonObject params, int minimum) {
    if (!(params.getValue("shapeIds") instanceof JsonArray references)) {
      throw new ActionRejected("shapeIds must be an array of shape ids");
    }
    if (references.size() > MAX_SHAPES) {
      throw new ActionRejected(
          "at most " + MAX_SHAPES + " shapes per action, got " + references.size());
    }
    Set<String> ids = new LinkedHashSet<>();
    for (Object reference : references) {
      ids.add(shape(reference));
    }
    if (ids.size() < minimum) {
      throw new ActionRejected(
          "needs at least " + minimum + " different shapes, got " + ids.size());
    }
    return List.copyOf(ids);
  }

  /** The record id of one shape reference, which must be a shape on the board that can be measured. */
  String shape(Object reference) {
    String id = reference instanceof String string ? ShapeIds.recordId(string) : null;
    if (id == null) {
      throw new ActionRejected(quoted(reference) + " is not a shape id");
    }
    if (board.record(id).isEmpty()) {
      throw new ActionRejected("unknown shape '" + ShapeIds.modelId(id) + "'");
    }
    if (tree().shape(id).isEmpty()) {
      throw new ActionRejected("'" + ShapeIds.modelId(id) + "' is not a shape");
    }
    if (tree().ancestors(id).isEmpty()) {
      throw new ActionRejected(
          "shape '"
              + ShapeIds.modelId(id)
              + "' is nested more than "
              + ShapeTree.MAX_DEPTH
              + " levels deep or is not on a page");
    }
    return id;
  }

  /** A reference as a rejection may repeat it: short, so a hostile megabyte is not echoed back. */
  private static String quoted(Object reference) {
    String text = String.valueOf(reference);
    return "'" + (text.length() > 80 ? text.substring(0, 80) + "…" : text) + "'";
  }

  /** The shapes none of whose ancestors is among them: moving a group already moves what is inside it. */
  List<String> outermost(List<String> ids) {
    Set<String> selected = Set.copyOf(ids);
    return ids.stream()
        .filter(id -> tree().ancestors(id).orElseThrow().stream().noneMatch(selected::contains))
        .toList();
  }

  Box bounds(String id) {
    Box bounds = measured.get(id);
    if (bounds == null) {
      bounds = geometry.pageBounds(id).orElseThrow(() -> unmeasurable(id));
      measured.put(id, bounds);
    }
    return bounds;
  }

  Box bounds(List<String> ids) {
    Box union = null;
    for (String id : ids) {
      union = union == null ? bounds(id) : union.union(bounds(id));
    }
    if (union == null) {
      throw new ActionRejected("no shapes to measure");
    }
    return union;
  }

  Transform pageTransform(String id) {
    return geometry.pageTransform(id).orElseThrow(() -> unmeasurable(id));
  }

  Transform parentTransform(String id) {
    return geometry.parentTransform(id).orElseThrow(() -> unmeasurable(id));
  }

  private static ActionRejected unmeasurable(String id) {
    return new ActionRejected(
        "shape '" + ShapeIds.modelId(id) + "' cannot be measured (empty group or nested too deep)");
  }

  /** The record as this action has changed it so far: a copy, made on first use. */
  JsonObject record(String id) {
    return changed.computeIfAbsent(id, key -> board.record(key).orElseThrow().copy());
  }

  /** Moves a shape by a page-space displacement, turned into its parent's (possibly rotated) space. */
  void translate(String id, Vec pageDelta) {
    Vec local = parentTransform(id).applyInverseToDelta(pageDelta);
    JsonObject record = record(id);
    record.put("x", VerbRanges.coordinate(Transform.of(record).x() + local.x()));
    record.put("y", VerbRanges.coordinate(Transform.of(record).y() + local.y()));
  }

  /** Puts a shape's origin (its x, y) at a page point, written in its parent's space. */
  void moveOriginTo(String id, Vec pagePoint) {
    Vec local = parentTransform(id).applyInverse(pagePoint);
    record(id)
        .put("x", VerbRanges.coordinate(local.x()))
        .put("y", VerbRanges.coordinate(local.y()));
  }

  void create(JsonObject record) {
    changed.put(record.getString("id"), record);
  }

  void remove(String id) {
    changed.remove(id);
    removed.add(id);
  }

  /** The changed records that differ from the board's, and the removed ids. */
  RecordDiff diff() {
    List<JsonObject> put =
        changed.values().stream()
            .filter(record -> !record.equals(board.record(record.getString("id")).orElse(null)))
            .toList();
    return new RecordDiff(put, removed);
  }

  /** The params with the shape references as record ids, as the normalized action names them. */
  static JsonObject withRecordIds(JsonObject params, String field, List<String> ids) {
    return params.copy().put(field, new JsonArray(new ArrayList<>(ids)));
  }

  static double normalizedRotation(double radians) {
    double turn = 2 * Math.PI;
    double normalized = radians % turn;
    if (normalized < 0) {
      normalized += turn;
    }
    return normalized >= turn || !Double.isFinite(normalized) ? 0 : normalized;
  }
}
