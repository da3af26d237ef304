package dev.canvasagent.catalog.dialect;

import dev.canvasagent.board.TldrawStyles;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The SimpleShape of the kit and of seed 002 read as our {@code create_shape} and {@code update_shape}
 * params. The kit names a geo shape by its kind ({@code _type: "rectangle"}), seed 002 by {@code _type:
 * "geo"} and a {@code geo} field; both give lines and arrows as {@code x1, y1, x2, y2}, bind arrows with
 * {@code fromId}/{@code toId} and name the shape {@code shapeId}. Fields with no place in our shapes
 * ({@code note}, the kit's private note on a shape; {@code bend}; {@code wrap}) are left out. An update
 * cannot move a line's or an arrow's ends or rebind it: {@code update_shape} has no such params, so
 * those fields of an update are left out too (its label and color still change).
 */
final class SimpleShapes {
  static final Set<String> FIELDS =
      Set.of(
          "_type",
          "shapeId",
          "x",
          "y",
          "w",
          "h",
          "width",
          "height",
          "geo",
          "color",
          "fill",
          "text",
          "textAlign",
          "fontSize",
          "size",
          "dash",
          "wrap",
          "note",
          "x1",
          "y1",
          "x2",
          "y2",
          "fromId",
          "toId",
          "bend",
          "subType");

  private static final String WHAT = "a SimpleShape";

  private final UnaryOperator<String> fills;

  private SimpleShapes(UnaryOperator<String> fills) {
    this.fills = fills;
  }

  /** The kit's SimpleShape, its fills the kit's own names. */
  static SimpleShapes kit() {
    return new SimpleShapes(KitStyles::fill);
  }

  /** Seed 002's SimpleShape: its fills ({@code none}, {@code semi}, {@code solid}) are tldraw's. */
  static SimpleShapes seed002() {
    return new SimpleShapes(UnaryOperator.identity());
  }

  /** {@code create_shape} params for a new shape. */
  JsonObject create(JsonObject shape) {
    Params.onlyKnown(shape, FIELDS, WHAT);
    String type = creatableType(shape);
    Family family = Family.of(type);
    JsonObject params = new JsonObject().put("type", type);
    if (shape.getValue("shapeId") instanceof String id) {
      params.put("id", bare(id));
    }
    JsonObject props = new JsonObject();
    switch (family) {
      case LINE -> params.put("points", new JsonArray().add(end(shape, 1)).add(end(shape, 2)));
      case ARROW -> {
        if (shape.containsKey("x1") || shape.containsKey("y1")) {
          params.put("start", end(shape, 1));
        }
        if (shape.containsKey("x2") || shape.containsKey("y2")) {
          params.put("end", end(shape, 2));
        }
        copy(shape, "fromId", params, "fromId");
        copy(shape, "toId", params, "toId");
      }
      default -> {
        copy(shape, "x", params, "x");
        copy(shape, "y", params, "y");
        sizes(shape, props);
      }
    }
    return withLabelAndStyles(shape, family, params, props);
  }

  /** {@code update_shape} params for a change to the shape {@code shapeId}. */
  JsonObject update(JsonObject shape) {
    Params.onlyKnown(shape, FIELDS, WHAT);
    if (!(shape.getValue("shapeId") instanceof String id)) {
      throw new ActionRejected("an update needs the shapeId of the shape it changes");
    }
    JsonObject params = new JsonObject().put("shapeId", id);
    String type = shape.getValue("_type") instanceof String given ? geoOf(shape, given) : "";
    Family family = Family.of(type);
    JsonObject props = new JsonObject();
    if (family == Family.GEO) {
      props.put("geo", type);
    }
    if (family != Family.LINE && family != Family.ARROW) {
      copy(shape, "x", params, "x");
      copy(shape, "y", params, "y");
      sizes(shape, props);
    }
    return withLabelAndStyles(shape, family, params, props);
  }

  /** The params with the shape's label, and its styles added to {@code props}. */
  private JsonObject withLabelAndStyles(
      JsonObject shape, Family family, JsonObject params, JsonObject props) {
    copy(shape, "text", params, "text");
    styles(shape, family, props);
    if (!props.isEmpty()) {
      params.put("props", props);
    }
    return params;
  }

  /** The shape's type as {@code create_shape} reads it; the kit's draw and unknown shapes cannot be made. */
  private static String creatableType(JsonObject shape) {
    if (!(shape.getValue("_type") instanceof String type)) {
      throw new ActionRejected(
          "a SimpleShape needs a _type (rectangle, note, text, arrow, line, …)");
    }
    return switch (type) {
      case "draw" ->
          throw new ActionRejected(
              "a SimpleShape of _type draw has no points to draw: draw it with pen");
      case "unknown" ->
          throw new ActionRejected(
              "a SimpleShape of _type unknown stands for a shape of another kind and cannot be created");
      default -> geoOf(shape, type);
    };
  }

  /** Seed 002's {@code geo} + {@code geo} field, or the kit's kind names, as our type or geo kind. */
  private static String geoOf(JsonObject shape, String type) {
    if ("geo".equals(type)) {
      return shape.getValue("geo") instanceof String geo ? KitStyles.geo(geo) : "rectangle";
    }
    return KitStyles.geo(type);
  }

  private void styles(JsonObject shape, Family family, JsonObject props) {
    copy(shape, "color", props, "color");
    copy(shape, "dash", props, "dash");
    if (shape.getValue("fill") instanceof String fill) {
      props.put("fill", fills.apply(fill));
    }
    // The kit's geo shapes align their label with textAlign; tldraw's geo and note call it align.
    copy(shape, "textAlign", props, family == Family.TEXT ? "textAlign" : "align");
    if (shape.getValue("fontSize") instanceof Number fontSize) {
      props.put("size", KitStyles.size(fontSize.doubleValue()));
    }
    copy(shape, "size", props, "size");
  }

  private static void sizes(JsonObject shape, JsonObject props) {
    copy(shape, "width", props, "w");
    copy(shape, "height", props, "h");
    copy(shape, "w", props, "w");
    copy(shape, "h", props, "h");
  }

  /** The point {@code x<n>, y<n>}; a line or arrow end given by one coordinate only is refused. */
  private static JsonObject end(JsonObject shape, int n) {
    Object x = shape.getValue("x" + n);
    Object y = shape.getValue("y" + n);
    if (!(x instanceof Number) || !(y instanceof Number)) {
      throw new ActionRejected(
          "a " + shape.getValue("_type") + " needs x" + n + " and y" + n + ", both numbers");
    }
    return new JsonObject().put("x", x).put("y", y);
  }

  /** Copies a field that is given and not null: the kit writes {@code fromId: null} for an unbound end. */
  private static void copy(JsonObject from, String key, JsonObject to, String as) {
    Object value = from.getValue(key);
    if (value != null) {
      to.put(as, value);
    }
  }

  private static String bare(String id) {
    return id.startsWith("shape:") ? id.substring("shape:".length()) : id;
  }

  /** What the translation does differently by kind of shape. */
  private enum Family {
    GEO,
    TEXT,
    LINE,
    ARROW,
    OTHER;

    static Family of(String type) {
      return switch (type) {
        case "text" -> TEXT;
        case "line" -> LINE;
        case "arrow" -> ARROW;
        default -> TldrawStyles.GEOS.contains(type) ? GEO : OTHER;
      };
    }
  }
}
