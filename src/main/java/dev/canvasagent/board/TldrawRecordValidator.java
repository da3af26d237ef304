package dev.canvasagent.board;

import static dev.canvasagent.board.JsonCheck.bool;
import static dev.canvasagent.board.JsonCheck.expected;
import static dev.canvasagent.board.JsonCheck.jsonObject;
import static dev.canvasagent.board.JsonCheck.literal;
import static dev.canvasagent.board.JsonCheck.member;
import static dev.canvasagent.board.JsonCheck.number;
import static dev.canvasagent.board.JsonCheck.object;
import static dev.canvasagent.board.JsonCheck.oneOf;
import static dev.canvasagent.board.JsonCheck.recordId;
import static dev.canvasagent.board.JsonCheck.unitInterval;

import dev.canvasagent.board.JsonCheck.FieldProblem;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether a shape, binding or asset record is one a tldraw 5.4.2 editor will load. One invalid record makes
 * the whole tldraw UI refuse to mount, so a record a person posts is checked here, as strictly as
 * tldraw's schema checks it ({@code createTLSchema().types[typeName].validate}), before the board
 * keeps it. On top of tldraw's rules the server bounds what it is willing to hold: the record's size,
 * how deep rich text nests, how many draw segments and how long their paths are. It is also stricter
 * where tldraw is lax in ways the server's own code would trip on: {@code meta} must be an object, an
 * object must not be an array (tldraw takes {@code []} for {@code {}}), index keys must be made of
 * base-62 digits as the board's own {@link FractionalIndex} makes them, and rare URL hosts are refused
 * (see {@link LinkUrl}). TldrawRecordValidatorTest holds it to tldraw's verdicts, case by case.
 */
public final class TldrawRecordValidator {
  public static final int MAX_RECORD_BYTES = 256 * 1024;
  private static final int SHOWN_ID_LENGTH = 40;

  private static final Map<String, JsonCheck> SHAPES = new TreeMap<>();
  private static final Map<String, JsonCheck> BINDINGS =
      Map.of(
          "arrow",
          object()
              .with("id", recordId("binding:"))
              .with("typeName", literal("binding"))
              .with("type", literal("arrow"))
              .with("fromId", recordId("shape:"))
              .with("toId", recordId("shape:"))
              .with(
                  "props",
                  object()
                      .with("terminal", oneOf(Set.of("start", "end")))
                      .with("normalizedAnchor", TldrawShapeProps.VEC)
                      .with("isExact", bool())
                      .with("isPrecise", bool())
                      .with("snap", oneOf(Set.of("none", "center", "edge-point", "edge"))))
              .with("meta", jsonObject()));

  /**
   * The server is stricter than tldraw about an asset's {@code src}: null or "" (tldraw's own
   * placeholder) while the file is uploading,
   * then only {@code asset:<id>}, an asset this room's store keeps (the patch engine checks it is
   * there). No outside URL, which every viewer's browser would fetch (a tracking pixel), and no data
   * URL, which would carry the file in the board.
   */
  static final JsonCheck ASSET_SRC =
      JsonCheck.string()
          .and(
              value ->
                  ((String) value).isEmpty() || ((String) value).matches("asset:[0-9a-f]{64}")
                      ? null
                      : expected(
                          "null, \"\" or \"asset:<id>\", an asset uploaded to the room (POST /api/rooms/{roomId}/assets)",
                          value))
          .nullable();

  private static final Map<String, JsonCheck> ASSETS =
      Map.of(
          "image",
          asset(
              "image",
              object()
                  .with("w", number())
                  .with("h", number())
                  .with("name", JsonCheck.string())
                  .with("isAnimated", bool())
                  .with("mimeType", JsonCheck.string().nullable())
                  .with("src", ASSET_SRC)
                  .with("fileSize", JsonCheck.nonZeroNumber().optional())
                  .with("pixelRatio", JsonCheck.positiveNumber().optional())),
          "video",
          asset(
              "video",
              object()
                  .with("w", number())
                  .with("h", number())
                  .with("name", JsonCheck.string())
                  .with("isAnimated", bool())
                  .with("mimeType", JsonCheck.string().nullable())
                  .with("src", ASSET_SRC)
                  .with("fileSize", number().optional())));

  private static JsonCheck asset(String type, JsonCheck props) {
    return object()
        .with("id", recordId("asset:"))
        .with("typeName", literal("asset"))
        .with("type", literal(type))
        .with("props", props)
        .with("meta", jsonObject());
  }

  static {
    TldrawShapeProps.BY_TYPE.forEach(
        (type, props) ->
            SHAPES.put(
                type,
                object()
                    .with("id", recordId("shape:"))
                    .with("typeName", literal("shape"))
                    .with("x", number())
                    .with("y", number())
                    .with("rotation", number())
                    .with("index", JsonCheck.string().and(TldrawShapeProps::indexKey))
                    .with("parentId", recordId("page:", "shape:"))
                    .with("type", literal(type))
                    .with("isLocked", bool())
                    .with("opacity", unitInterval())
                    .with("props", props)
                    .with("meta", jsonObject())));
  }

  private TldrawRecordValidator() {}

  /** The first thing wrong with {@code record}, or empty when a tldraw editor would load it. */
  public static Optional<RecordProblem> check(JsonObject record) {
    int bytes = record.toBuffer().length();
    if (bytes > MAX_RECORD_BYTES) {
      return Optional.of(
          new RecordProblem(
              shownId(record),
              "",
              "the record is "
                  + bytes
                  + " bytes of JSON, over the server's limit of "
                  + MAX_RECORD_BYTES));
    }
    FieldProblem problem = problem(record);
    return problem == null
        ? Optional.empty()
        : Optional.of(new RecordProblem(shownId(record), problem.path(), problem.message()));
  }

  public static boolean isValid(JsonObject record) {
    return check(record).isEmpty();
  }

  private static FieldProblem problem(JsonObject record) {
    Object typeName = member(record, "typeName");
    Map<String, JsonCheck> variants;
    if ("shape".equals(typeName)) {
      variants = SHAPES;
    } else if ("binding".equals(typeName)) {
      variants = BINDINGS;
    } else if ("asset".equals(typeName)) {
      variants = ASSETS;
    } else {
      return expected("\"shape\", \"binding\" or \"asset\"", typeName).under("typeName");
    }
    // tldraw picks the validator by type before it looks at anything else.
    Object type = member(record, "type");
    JsonCheck variant = type instanceof String name ? variants.get(name) : null;
    if (variant == null) {
      return expected("one of " + new TreeSet<>(variants.keySet()), type).under("type");
    }
    return variant.check(record);
  }

  private static String shownId(JsonObject record) {
    if (!(record.getValue("id") instanceof String id)) {
      return "(record without an id)";
    }
    return id.length() <= SHOWN_ID_LENGTH ? id : id.substring(0, SHOWN_ID_LENGTH) + "…";
  }
}
