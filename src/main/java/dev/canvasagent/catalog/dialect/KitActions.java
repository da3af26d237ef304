package dev.canvasagent.catalog.dialect;

import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tldraw agent starter kit's actions ({@code {"_type": "create", "intent": …, "shape": {…}}}) in our
 * verbs. Every kit action but think, message and clear carries an {@code intent}, a line the kit shows
 * in its chat panel: our envelopes have no place for it, so it is left out (review keeps it as its
 * note, add-detail as its intent).
 *
 * <p>Ten of the kit's names are ours too, with other fields ({@link #TWINS}): a kit {@code move} names
 * one {@code shapeId} where ours takes {@code shapeIds}. Those fields are read only when our own schema
 * refuses the params, so an action in our own fields is always ours.
 */
final class KitActions {
  private static final String INTENT = "intent";

  static final ParamsTranslation MOVE =
      params -> Params.listed(Params.without(params, INTENT), "shapeId", "shapeIds");
  static final ParamsTranslation DROP_INTENT = params -> Params.without(params, INTENT);

  /** The kit's align has a gap its editor ignores; ours has none. */
  static final ParamsTranslation ALIGN = params -> Params.without(params, INTENT, "gap");

  /** The kit's resize scales about {@code centerX, centerY} (newer kits: originX, originY, as ours). */
  static final ParamsTranslation RESIZE =
      params ->
          Params.renamed(
              Params.renamed(Params.without(params, INTENT), "centerX", "originX"),
              "centerY",
              "originY");

  /** The kit's rotate schema carries a stray {@code centerY} beside its origin: read only when no origin is. */
  static final ParamsTranslation ROTATE = RESIZE;

  /** The kit's pen fill is one of the kit's fill names. */
  static final ParamsTranslation PEN =
      params -> {
        JsonObject ours = Params.without(params, INTENT);
        if (ours.getValue("fill") instanceof String fill) {
          ours.put("fill", KitStyles.fill(fill));
        }
        return ours;
      };

  /** The kit's review says why in its intent; ours says it in its note. */
  static final ParamsTranslation REVIEW = params -> Params.renamed(params, INTENT, "note");

  /** Our names the kit uses with fields of its own, and how those fields become ours. */
  static final Map<String, ParamsTranslation> TWINS =
      Map.of(
          "move", MOVE,
          "label", DROP_INTENT,
          "place", DROP_INTENT,
          "align", ALIGN,
          "distribute", DROP_INTENT,
          "stack", DROP_INTENT,
          "resize", RESIZE,
          "rotate", ROTATE,
          "pen", PEN,
          "review", REVIEW);

  private static final SimpleShapes SHAPES = SimpleShapes.kit();

  private KitActions() {}

  /** The kit's names that are not ours. */
  static List<VerbAlias> aliases() {
    return List.of(
        alias("create", "create_shape", KitActions::create),
        alias("update", "update_shape", KitActions::update),
        alias("delete", "delete_shape", KitActions::delete),
        alias("bringToFront", "reorder", params -> reorder(params, "front")),
        alias("sendToBack", "reorder", params -> reorder(params, "back")),
        alias("setMyView", "set_viewport", DROP_INTENT),
        alias("add-detail", "add_detail", params -> params),
        alias("update-todo-list", "todo", KitActions::todo));
  }

  private static VerbAlias alias(String name, String verb, ParamsTranslation params) {
    return new VerbAlias(name, Dialect.KIT, verb, params);
  }

  private static JsonObject create(JsonObject params) {
    Params.onlyKnown(params, Set.of(INTENT, "shape"), "the kit's create");
    return SHAPES.create(Params.object(params, "shape", "the kit's create"));
  }

  private static JsonObject update(JsonObject params) {
    Params.onlyKnown(params, Set.of(INTENT, "update"), "the kit's update");
    return SHAPES.update(Params.object(params, "update", "the kit's update"));
  }

  private static JsonObject delete(JsonObject params) {
    return Params.without(params, INTENT);
  }

  private static JsonObject reorder(JsonObject params, String to) {
    return Params.without(params, INTENT).put("to", to);
  }

  /**
   * The kit's todo list item: {@code id} (a number), {@code status} ({@code todo}, {@code in-progress},
   * {@code done}), {@code text}. A {@code todo} item is a new one, its id our ref for it in this run; an
   * item in progress or done updates the todo of that ref (or of that id, from an earlier run).
   */
  private static JsonObject todo(JsonObject params) {
    Params.onlyKnown(params, Set.of("id", "status", "text"), "the kit's update-todo-list");
    Object id = params.getValue("id");
    String key = id == null ? null : String.valueOf(id instanceof Number n ? n.longValue() : id);
    String status = params.getValue("status") instanceof String given ? given : "todo";
    JsonObject ours = new JsonObject();
    if (params.getValue("text") != null) {
      ours.put("text", params.getValue("text"));
    }
    switch (status) {
      case "todo" -> {
        if (key != null) {
          ours.put("ref", key);
        }
      }
      case "in-progress", "done" -> {
        if (key == null) {
          throw new ActionRejected("an update-todo-list item " + status + " needs its id");
        }
        ours.put("id", key).put("status", "done".equals(status) ? "done" : "open");
      }
      default ->
          throw new ActionRejected(
              "update-todo-list status must be todo, in-progress or done, not '" + status + "'");
    }
    return ours;
  }
}
