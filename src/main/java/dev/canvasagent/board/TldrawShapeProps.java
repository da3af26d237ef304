package dev.canvasagent.board;

import static dev.canvasagent.board.JsonCheck.anything;
import static dev.canvasagent.board.JsonCheck.arrayOf;
import static dev.canvasagent.board.JsonCheck.bool;
import static dev.canvasagent.board.JsonCheck.dictOf;
import static dev.canvasagent.board.JsonCheck.expected;
import static dev.canvasagent.board.JsonCheck.nonZeroFiniteNumber;
import static dev.canvasagent.board.JsonCheck.nonZeroNumber;
import static dev.canvasagent.board.JsonCheck.number;
import static dev.canvasagent.board.JsonCheck.object;
import static dev.canvasagent.board.JsonCheck.oneOf;
import static dev.canvasagent.board.JsonCheck.positiveNumber;
import static dev.canvasagent.board.JsonCheck.string;

import dev.canvasagent.board.JsonCheck.FieldProblem;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * The props of every shape type the board keeps, as tldraw 5.4.2's schema checks them
 * ({@code @tldraw/tlschema} shapes/TL*Shape.ts), plus the server's own bounds on rich text and draw
 * segments. Every object is strict and every prop required, as in tldraw.
 */
final class TldrawShapeProps {
  static final int MAX_RICH_TEXT_DEPTH = 20;
  static final int MAX_DRAW_SEGMENTS = 200;
  static final int MAX_DRAW_PATH_LENGTH = 200_000;

  private static final JsonCheck COLOR = oneOf(TldrawStyles.COLORS);
  private static final JsonCheck FILL = oneOf(TldrawStyles.FILLS);
  private static final JsonCheck DASH = oneOf(TldrawStyles.DASHES);
  private static final JsonCheck SIZE = oneOf(TldrawStyles.SIZES);
  private static final JsonCheck FONT = oneOf(TldrawStyles.FONTS);
  private static final JsonCheck ALIGN = oneOf(TldrawStyles.ALIGNS);
  private static final JsonCheck VERTICAL_ALIGN = oneOf(TldrawStyles.VERTICAL_ALIGNS);
  private static final JsonCheck LINK_URL =
      string()
          .and(
              value ->
                  LinkUrl.isValid((String) value)
                      ? null
                      : expected("\"\" or an http(s) or mailto URL", value));
  private static final JsonCheck INDEX_KEY = string().and(TldrawShapeProps::indexKey);

  /** tldraw's vecModelValidator: {@code {x, y, z?}}. */
  static final JsonCheck VEC =
      object().with("x", number()).with("y", number()).with("z", number().optional());

  /**
   * richText is TipTap JSON; tldraw checks only the top: {@code {type, content: [...], attrs?}}. The
   * server also bounds how deep nodes nest, as it walks them.
   */
  static final JsonCheck RICH_TEXT =
      object()
          .with("type", string())
          .with("content", arrayOf(anything()))
          .with("attrs", anything().optional())
          .and(TldrawShapeProps::richTextDepth);

  private static final JsonCheck SEGMENT =
      object()
          .with("type", oneOf(Set.of("free", "straight")))
          .with("path", string().and(TldrawShapeProps::drawPathLength))
          .with("dim", dimension().optional());

  private static final JsonCheck SEGMENTS = arrayOf(SEGMENT).and(TldrawShapeProps::segmentCount);

  private static final JsonCheck LINE_POINT =
      object()
          .with("id", string())
          .with("index", INDEX_KEY)
          .with("x", number())
          .with("y", number());

  /** An image or video shape's asset: a record id, or null while it has none. */
  private static final JsonCheck ASSET_ID = JsonCheck.recordId("asset:").nullable();

  /** tldraw's ImageShapeCrop. */
  private static final JsonCheck CROP =
      object()
          .with("topLeft", VEC)
          .with("bottomRight", VEC)
          .with("isCircle", bool().optional())
          .nullable();

  /** Shapes that show an asset ({@code props.assetId}): the board must hold the asset record. */
  static final Map<String, JsonCheck> MEDIA =
      Map.of(
          "image",
          object()
              .with("w", nonZeroNumber())
              .with("h", nonZeroNumber())
              .with("playing", bool())
              .with("url", LINK_URL)
              .with("assetId", ASSET_ID)
              .with("crop", CROP)
              .with("flipX", bool())
              .with("flipY", bool())
              .with("altText", string()),
          "video",
          object()
              .with("w", nonZeroNumber())
              .with("h", nonZeroNumber())
              .with("time", number())
              .with("playing", bool())
              .with("autoplay", bool())
              .with("url", LINK_URL)
              .with("assetId", ASSET_ID)
              .with("altText", string()));

  private static final Map<String, JsonCheck> DRAWN =
      Map.of(
          "geo",
              object()
                  .with("geo", oneOf(TldrawStyles.GEOS))
                  .with("dash", DASH)
                  .with("url", LINK_URL)
                  .with("w", nonZeroNumber())
                  .with("h", nonZeroNumber())
                  .with("growY", positiveNumber())
                  .with("scale", nonZeroNumber())
                  .with("flipX", bool())
                  .with("flipY", bool())
                  .with("labelColor", COLOR)
                  .with("color", COLOR)
                  .with("fill", FILL)
                  .with("size", SIZE)
                  .with("font", FONT)
                  .with("align", ALIGN)
                  .with("verticalAlign", VERTICAL_ALIGN)
                  .with("richText", RICH_TEXT),
          "text",
              object()
                  .with("color", COLOR)
                  .with("size", SIZE)
                  .with("font", FONT)
                  .with("textAlign", oneOf(TldrawStyles.TEXT_ALIGNS))
                  .with("w", nonZeroNumber())
                  .with("richText", RICH_TEXT)
                  .with("scale", nonZeroNumber())
                  .with("autoSize", bool()),
          "note",
              object()
                  .with("color", COLOR)
                  .with("labelColor", COLOR)
                  .with("size", SIZE)
                  .with("font", FONT)
                  .with("fontSizeAdjustment", positiveNumber().nullable())
                  .with("align", ALIGN)
                  .with("verticalAlign", VERTICAL_ALIGN)
                  .with("growY", positiveNumber())
                  .with("url", LINK_URL)
                  .with("richText", RICH_TEXT)
                  .with("scale", nonZeroNumber())
                  .with("textLastEditedBy", string().nullable()),
          "arrow",
              object()
                  .with("kind", oneOf(TldrawStyles.ARROW_KINDS))
                  .with("labelColor", COLOR)
                  .with("color", COLOR)
                  .with("fill", FILL)
                  .with("dash", DASH)
                  .with("size", SIZE)
                  .with("arrowheadStart", oneOf(TldrawStyles.ARROWHEADS))
                  .with("arrowheadEnd", oneOf(TldrawStyles.ARROWHEADS))
                  .with("font", FONT)
                  .with("start", VEC)
                  .with("end", VEC)
                  .with("bend", number())
                  .with("richText", RICH_TEXT)
                  .with("labelPosition", number())
                  .with("scale", nonZeroNumber())
                  .with("elbowMidPoint", number()),
          "line",
              object()
                  .with("color", COLOR)
                  .with("dash", DASH)
                  .with("size", SIZE)
                  .with("spline", oneOf(TldrawStyles.SPLINES))
                  .with("points", dictOf(LINE_POINT))
                  .with("scale", nonZeroNumber()),
          "draw",
              object()
                  .with("color", COLOR)
                  .with("fill", FILL)
                  .with("dash", DASH)
                  .with("size", SIZE)
                  .with("segments", SEGMENTS)
                  .with("isComplete", bool())
                  .with("isClosed", bool())
                  .with("isPen", bool())
                  .with("scale", nonZeroNumber())
                  .with("scaleX", nonZeroFiniteNumber())
                  .with("scaleY", nonZeroFiniteNumber()),
          "highlight",
              object()
                  .with("color", COLOR)
                  .with("size", SIZE)
                  .with("segments", SEGMENTS)
                  .with("isComplete", bool())
                  .with("isPen", bool())
                  .with("scale", nonZeroNumber())
                  .with("scaleX", nonZeroFiniteNumber())
                  .with("scaleY", nonZeroFiniteNumber()),
          "frame",
              object()
                  .with("w", nonZeroNumber())
                  .with("h", nonZeroNumber())
                  .with("name", string())
                  .with("color", COLOR),
          "group", object());

  static final Map<String, JsonCheck> BY_TYPE = both(DRAWN, MEDIA);

  private TldrawShapeProps() {}

  private static Map<String, JsonCheck> both(
      Map<String, JsonCheck> first, Map<String, JsonCheck> second) {
    Map<String, JsonCheck> all = new java.util.HashMap<>(first);
    all.putAll(second);
    return Map.copyOf(all);
  }

  /**
   * tldraw accepts any key its fractional indexing can read; the board also needs to place keys
   * between them, so it takes only keys made of base-62 digits ({@link FractionalIndex#isValid}).
   */
  static FieldProblem indexKey(Object value) {
    return FractionalIndex.isValid((String) value)
        ? null
        : expected("a fractional index key", value);
  }

  /** A segment's {@code dim}: 2 or 3, compared as numbers as tldraw's Set compares them. */
  private static JsonCheck dimension() {
    return value ->
        value instanceof Number n && (n.doubleValue() == 2 || n.doubleValue() == 3)
            ? null
            : expected("2 or 3", value);
  }

  private static FieldProblem drawPathLength(Object path) {
    int length = ((String) path).length();
    return length <= MAX_DRAW_PATH_LENGTH
        ? null
        : FieldProblem.of(
            "a path of "
                + length
                + " characters is over the server's limit of "
                + MAX_DRAW_PATH_LENGTH);
  }

  private static FieldProblem segmentCount(Object segments) {
    int count = ((JsonArray) segments).size();
    return count <= MAX_DRAW_SEGMENTS
        ? null
        : FieldProblem.of(count + " segments are over the server's limit of " + MAX_DRAW_SEGMENTS);
  }

  private static FieldProblem richTextDepth(Object richText) {
    return nodeDepthExceeds((JsonObject) richText, 1)
        ? FieldProblem.of("nodes nest deeper than the server's limit of " + MAX_RICH_TEXT_DEPTH)
        : null;
  }

  /** Whether a node at {@code depth} (the document is 1) has nodes below it deeper than the limit. */
  private static boolean nodeDepthExceeds(JsonObject node, int depth) {
    if (depth > MAX_RICH_TEXT_DEPTH) {
      return true;
    }
    if (!(node.getValue("content") instanceof JsonArray children)) {
      return false;
    }
    for (int i = 0; i < children.size(); i++) {
      if (children.getValue(i) instanceof JsonObject child && nodeDepthExceeds(child, depth + 1)) {
        return true;
      }
    }
    return false;
  }
}
