package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.board.TldrawStyles;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code create_shape}: a new geo, text or note shape on the page. Shape kinds the model may say
 * ({@code box}, {@code sticky}, {@code headline}, a geo name) map to tldraw types; style props outside
 * tldraw's enums are dropped (a half-streamed {@code "r"} never reaches a record); coordinates and
 * sizes are clamped.
 */
public final class CreateShapeVerb implements ActionVerb {
  static final double COORDINATE_LIMIT = 1_000_000;
  static final double SIZE_LIMIT = 100_000;
  static final double MIN_SIZE = 1;

  private static final Map<String, String> KIND_ALIASES =
      Map.of(
          "box", "rectangle",
          "rect", "rectangle",
          "square", "rectangle",
          "circle", "ellipse",
          "sticky", "note",
          "headline", "text",
          "label", "text");
  private static final Set<String> STYLE_PROPS =
      Set.of("color", "labelColor", "fill", "dash", "size", "font", "align", "verticalAlign", "textAlign");
  private static final String ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

  @Override
  public String name() {
    return "create_shape";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    Board board = context.board();
    JsonObject props = params.getJsonObject("props", new JsonObject());
    String kind = KIND_ALIASES.getOrDefault(params.getString("type"), params.getString("type"));
    String geo = props.getString("geo");
    if (TldrawStyles.GEOS.contains(kind)) {
      geo = kind;
      kind = "geo";
    }
    String id = shapeId(params.getString("id"), board);
    double x = clamp(params.getDouble("x"), -COORDINATE_LIMIT, COORDINATE_LIMIT);
    double y = clamp(params.getDouble("y"), -COORDINATE_LIMIT, COORDINATE_LIMIT);
    String text = params.getString("text", "");
    String index = FractionalIndex.after(board.topIndexOnPage(ShapeRecords.PAGE_ID).orElse(null));

    JsonObject shapeProps =
        switch (kind) {
          case "geo" -> ShapeRecords.geoProps(
              geo != null && TldrawStyles.GEOS.contains(geo) ? geo : "rectangle",
              size(props.getDouble("w"), 100),
              size(props.getDouble("h"), 100),
              text);
          case "text" -> ShapeRecords.textProps(text, size(props.getDouble("w"), 8));
          case "note" -> ShapeRecords.noteProps(text);
          default -> throw new ActionRejected("unsupported shape type '" + params.getString("type") + "'");
        };
    applyStyles(props, shapeProps);

    JsonObject record = ShapeRecords.shape(id, kind, x, y, index, shapeProps);
    JsonObject normalized = params.copy().put("id", id).put("type", kind);
    normalized.remove("props");
    normalized.put("props", styleSummary(shapeProps));
    return new SanitizedAction(normalized, RecordDiff.putting(record));
  }

  /** Copies each style prop that is one of tldraw's values for a prop the record has. */
  private static void applyStyles(JsonObject requested, JsonObject shapeProps) {
    for (String prop : STYLE_PROPS) {
      String value = requested.getString(prop);
      if (value != null && shapeProps.containsKey(prop) && allowed(prop).contains(value)) {
        shapeProps.put(prop, value);
      }
    }
  }

  private static Set<String> allowed(String prop) {
    return switch (prop) {
      case "color", "labelColor" -> TldrawStyles.COLORS;
      case "fill" -> TldrawStyles.FILLS;
      case "dash" -> TldrawStyles.DASHES;
      case "size" -> TldrawStyles.SIZES;
      case "font" -> TldrawStyles.FONTS;
      case "align" -> TldrawStyles.ALIGNS;
      case "verticalAlign" -> TldrawStyles.VERTICAL_ALIGNS;
      case "textAlign" -> TldrawStyles.TEXT_ALIGNS;
      default -> Set.of();
    };
  }

  private static JsonObject styleSummary(JsonObject shapeProps) {
    JsonObject summary = new JsonObject();
    shapeProps.forEach(entry -> {
      if (!"richText".equals(entry.getKey())) {
        summary.put(entry.getKey(), entry.getValue());
      }
    });
    return summary;
  }

  private static String shapeId(String requested, Board board) {
    if (requested == null) {
      return "shape:ag:" + randomSuffix();
    }
    String id = "shape:" + requested;
    if (board.record(id).isPresent()) {
      throw new ActionRejected("shape '" + requested + "' already exists; update it instead of creating it again");
    }
    return id;
  }

  private static String randomSuffix() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    StringBuilder suffix = new StringBuilder(12);
    for (int i = 0; i < 12; i++) {
      suffix.append(ID_ALPHABET.charAt(random.nextInt(ID_ALPHABET.length())));
    }
    return suffix.toString();
  }

  private static double size(Double requested, double fallback) {
    return requested == null ? fallback : clamp(requested, MIN_SIZE, SIZE_LIMIT);
  }

  private static double clamp(double value, double min, double max) {
    return Math.max(min, Math.min(max, value));
  }
}
