package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.DrawPath;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.ShapeKinds;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.catalog.batch.FreeSpot;
import dev.canvasagent.catalog.batch.Size;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code create_shape}: one new shape on the page — geo, text, note, frame, line, draw or arrow. The
 * model's kind words map to tldraw types, its coordinates come back from the session frame, styles
 * are normalized, numbers clamped; a kind tldraw has no util for drops the action.
 */
public final class CreateShapeVerb implements ActionVerb {
  /** tldraw's note side at size m. */
  private static final double NOTE_SIDE = 200;

  private static final double TEXT_LINE_HEIGHT = 50;

  @Override
  public String name() {
    return "create_shape";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  /** An arrow's bound ends must exist first: an arrow streamed before its shapes waits for them. */
  @Override
  public Set<String> referencedShapes(JsonObject params) {
    return ShapeRefs.named(params, "fromId", "toId");
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    Board board = context.board();
    ShapeKinds.Kind kind =
        ShapeKinds.of(params.getString("type"))
            .orElseThrow(
                () -> new ActionRejected("unknown shape type '" + params.getString("type") + "'"));
    JsonObject props = params.getJsonObject("props", new JsonObject());
    String id = newShapeId(params.getString("id"), board);
    CoordinateFrame frame = context.frame();
    boolean placedByPoints = java.util.Set.of("line", "draw", "arrow").contains(kind.type());
    boolean hasX = params.getDouble("x") != null;
    boolean hasY = params.getDouble("y") != null;
    if (!placedByPoints && hasX != hasY) {
      throw new ActionRejected("a " + kind.type() + " shape needs both x and y, or neither");
    }
    String text = params.getString("text", props.getString("text", ""));
    // Not told where: the server places it, in free space inside the requester's view.
    boolean serverPlaced = !placedByPoints && !hasX;
    Vec spot =
        serverPlaced
            ? FreeSpot.within(
                context.placementArea(),
                placedSize(kind.type(), props, text),
                BatchOperationsVerb.occupied(board),
                BatchOperationsVerb.CLEARANCE)
            : null;
    double x =
        placedByPoints
            ? 0
            : VerbRanges.coordinate(
                serverPlaced ? spot.x() : frame.toPage(null, "x", params.getDouble("x")));
    double y =
        placedByPoints
            ? 0
            : VerbRanges.coordinate(
                serverPlaced ? spot.y() : frame.toPage(null, "y", params.getDouble("y")));
    String index = FractionalIndex.after(board.topIndexOnPage(ShapeRecords.PAGE_ID).orElse(null));

    JsonObject record =
        switch (kind.type()) {
          case "geo" ->
              ShapeRecords.shape(
                  id,
                  "geo",
                  x,
                  y,
                  index,
                  ShapeRecords.geoProps(
                      kind.geo(), size(props, "w", 100), size(props, "h", 100), text));
          case "text" ->
              ShapeRecords.shape(
                  id, "text", x, y, index, ShapeRecords.textProps(text, size(props, "w", 8)));
          case "note" -> ShapeRecords.shape(id, "note", x, y, index, ShapeRecords.noteProps(text));
          case "frame" ->
              ShapeRecords.shape(
                  id,
                  "frame",
                  x,
                  y,
                  index,
                  ShapeRecords.frameProps(
                      size(props, "w", 320), size(props, "h", 240), props.getString("name", text)));
          case "line" -> line(id, index, strokePoints(params, frame), props);
          case "draw" ->
              draw(id, index, drawSegments(params, frame), props.getBoolean("closed", false));
          case "arrow" -> arrow(id, index, params, context, text);
          default -> throw new ActionRejected("unsupported shape type '" + kind.type() + "'");
        };
    Styles.apply(props, record.getJsonObject("props"), context.brandPalette());
    if (params.containsKey("rotation")) {
      record.put("rotation", Math.toRadians(params.getDouble("rotation") % 360));
    }
    JsonObject normalized = params.copy().put("id", id).put("type", kind.type());
    if (serverPlaced) {
      normalized.put("x", frame.toModel(null, "x", x)).put("y", frame.toModel(null, "y", y));
    }
    List<JsonObject> records = new ArrayList<>();
    records.add(record);
    if ("arrow".equals(kind.type())) {
      records.addAll(ArrowBindings.of(id, params, context.board()));
    }
    return new SanitizedAction(normalized, new RecordDiff(records, List.of()));
  }

  private static String newShapeId(String requested, Board board) {
    if (requested == null) {
      return ShapeIds.newAgentId();
    }
    String id = ShapeIds.recordId(requested);
    if (id == null) {
      throw new ActionRejected("'" + requested + "' cannot be a shape id");
    }
    if (board.record(id).isPresent()) {
      throw new ActionRejected(
          "shape '" + requested + "' already exists; update it instead of creating it again");
    }
    return id;
  }

  /**
   * The room a shape the server places needs. A text's width grows with its words, so it is
   * estimated (16 a character, one line); the clearance around it absorbs the difference.
   */
  private static Size placedSize(String type, JsonObject props, String text) {
    return switch (type) {
      case "geo" -> new Size(size(props, "w", 100), size(props, "h", 100));
      case "frame" -> new Size(size(props, "w", 320), size(props, "h", 240));
      case "note" -> new Size(NOTE_SIDE, NOTE_SIDE);
      default ->
          new Size(
              Math.max(size(props, "w", 8), Math.min(text.length() * 16.0, 800)), TEXT_LINE_HEIGHT);
    };
  }

  private static double size(JsonObject props, String key, double fallback) {
    Double requested = props.getDouble(key);
    return requested == null ? fallback : VerbRanges.size(requested);
  }

  /** The points of a line, arrow or single-stroke drawing, in page space. */
  private static List<double[]> strokePoints(JsonObject params, CoordinateFrame frame) {
    JsonArray points = params.getJsonArray("points");
    if (points == null || points.size() < 2) {
      throw new ActionRejected("a " + params.getString("type") + " needs at least two points");
    }
    return pagePoints(points, frame);
  }

  private static List<double[]> pagePoints(JsonArray points, CoordinateFrame frame) {
    List<double[]> page = new ArrayList<>(points.size());
    for (Object point : points) {
      JsonObject p = (JsonObject) point;
      page.add(
          new double[] {
            VerbRanges.coordinate(frame.toPage(null, "x", p.getDouble("x"))),
            VerbRanges.coordinate(frame.toPage(null, "y", p.getDouble("y"))),
            VerbRanges.clamp(p.getDouble("z", DrawPath.DEFAULT_PRESSURE), 0, 1)
          });
    }
    return page;
  }

  private static JsonObject line(String id, String index, List<double[]> points, JsonObject props) {
    double[] origin = points.get(0);
    JsonObject handles = new JsonObject();
    String handleIndex = null;
    for (double[] point : points) {
      handleIndex = FractionalIndex.after(handleIndex);
      handles.put(
          handleIndex,
          new JsonObject()
              .put("id", handleIndex)
              .put("index", handleIndex)
              .put("x", point[0] - origin[0])
              .put("y", point[1] - origin[1]));
    }
    JsonObject lineProps = ShapeRecords.lineProps(handles);
    if ("cubic".equals(props.getString("spline"))) {
      lineProps.put("spline", "cubic");
    }
    return ShapeRecords.shape(id, "line", origin[0], origin[1], index, lineProps);
  }

  /**
   * Segments from {@code props.segments[{type, points}]} (tldraw's own draw-shape form) or from
   * {@code points}.
   */
  private static List<Segment> drawSegments(JsonObject params, CoordinateFrame frame) {
    JsonArray segments = params.getJsonObject("props", new JsonObject()).getJsonArray("segments");
    List<Segment> result = new ArrayList<>();
    if (segments != null && !segments.isEmpty()) {
      for (Object segment : segments) {
        JsonObject s = (JsonObject) segment;
        JsonArray points = s.getJsonArray("points");
        if (points == null || points.isEmpty()) {
          throw new ActionRejected("a draw segment needs points");
        }
        result.add(new Segment(s.getString("type", "free"), pagePoints(points, frame)));
      }
    } else {
      result.add(new Segment("free", strokePoints(params, frame)));
    }
    return result;
  }

  record Segment(String type, List<double[]> points) {}

  static JsonObject draw(String id, String index, List<Segment> segments, boolean closed) {
    double minX = Double.MAX_VALUE;
    double minY = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    double maxY = -Double.MAX_VALUE;
    int total = 0;
    for (Segment segment : segments) {
      for (double[] p : segment.points()) {
        minX = Math.min(minX, p[0]);
        minY = Math.min(minY, p[1]);
        maxX = Math.max(maxX, p[0]);
        maxY = Math.max(maxY, p[1]);
        total++;
      }
    }
    if (maxX - minX > VerbRanges.MAX_STROKE_EXTENT || maxY - minY > VerbRanges.MAX_STROKE_EXTENT) {
      throw new ActionRejected(
          "a drawing may span at most " + (int) VerbRanges.MAX_STROKE_EXTENT + " units each way");
    }
    // A closed stroke may repeat its first point at the end (pen adds it): that point is not the
    // model's.
    if (total > MAX_DRAW_POINTS + (closed ? 1 : 0)) {
      throw new ActionRejected("a drawing may have at most " + MAX_DRAW_POINTS + " points");
    }
    JsonArray encoded = new JsonArray();
    for (Segment segment : segments) {
      List<DrawPath.Point> local = new ArrayList<>();
      for (double[] p : segment.points()) {
        local.add(new DrawPath.Point(p[0] - minX, p[1] - minY, p[2]));
      }
      encoded.add(
          new JsonObject()
              .put(
                  "type",
                  Set.of("free", "straight").contains(segment.type()) ? segment.type() : "free")
              .put("path", DrawPath.encode(local)));
    }
    return ShapeRecords.shape(
        id, "draw", minX, minY, index, ShapeRecords.drawProps(encoded, closed));
  }

  static final int MAX_DRAW_POINTS = 2_000;

  /**
   * An arrow from {@code start} to {@code end} (or its first and last {@code points}); an end bound with
   * {@code fromId}/{@code toId} and not given starts at the center of that shape's page bounds.
   */
  private static JsonObject arrow(
      String id, String index, JsonObject params, ActionContext context, String label) {
    CoordinateFrame frame = context.frame();
    double[] from = arrowEnd(params, "start", "fromId", 0, context);
    double[] to = arrowEnd(params, "end", "toId", -1, context);
    if (from == null || to == null) {
      throw new ActionRejected("an arrow needs start and end, points, or fromId and toId");
    }
    return ShapeRecords.shape(
        id,
        "arrow",
        from[0],
        from[1],
        index,
        ShapeRecords.arrowProps(to[0] - from[0], to[1] - from[1], label));
  }

  private static double[] arrowEnd(
      JsonObject params, String pointKey, String shapeKey, int pointIndex, ActionContext context) {
    JsonObject point = params.getJsonObject(pointKey);
    JsonArray points = params.getJsonArray("points");
    if (point == null && points != null && points.size() >= 2) {
      point = points.getJsonObject(pointIndex < 0 ? points.size() - 1 : pointIndex);
    }
    if (point != null) {
      return pagePoints(new JsonArray().add(point), context.frame()).get(0);
    }
    String shapeId = ShapeIds.recordId(params.getString(shapeKey));
    if (shapeId == null) {
      return null;
    }
    Box bounds =
        new ShapeGeometry(context.board())
            .pageBounds(shapeId)
            .orElseThrow(
                () -> new ActionRejected("unknown shape '" + params.getString(shapeKey) + "'"));
    return new double[] {bounds.centerX(), bounds.centerY()};
  }
}
