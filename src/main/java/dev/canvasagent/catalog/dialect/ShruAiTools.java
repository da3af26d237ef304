package dev.canvasagent.catalog.dialect;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Seed 002's tools (ShruAI's voice agent) in our verbs: {@code wb_create({shape})}, {@code
 * wb_update({update})} with its SimpleShape, {@code wb_move({shapeId, x, y})}, {@code
 * wb_label({shapeId, text})}, {@code wb_delete({shapeId})}, {@code wb_set_view({x, y, w, h})}; the
 * legacy {@code whiteboard_create_box} ({@code addBox(x, y)}); and the advanced tools the seed plans
 * next, which it names without fields: they are read with the kit's fields, whose actions they borrow
 * (and with ours). Seed 002's fills are tldraw's own names.
 */
final class ShruAiTools {
  private static final SimpleShapes SHAPES = SimpleShapes.seed002();

  private ShruAiTools() {}

  /** The planned tools that are the kit's actions of our names: read with the kit's fields for them. */
  private static final Map<String, String> KIT_NAMED =
      Map.of(
          "wb_align", "align",
          "wb_distribute", "distribute",
          "wb_stack", "stack",
          "wb_resize", "resize",
          "wb_rotate", "rotate");

  static List<VerbAlias> aliases() {
    List<VerbAlias> aliases =
        new ArrayList<>(
            List.of(
                alias("wb_create", "create_shape", ShruAiTools::create),
                alias("wb_update", "update_shape", ShruAiTools::update),
                alias("wb_move", "move", KitActions.MOVE),
                alias("wb_label", "label", params -> params),
                alias("wb_delete", "delete_shape", params -> params),
                alias("wb_set_view", "set_viewport", params -> params),
                alias("whiteboard_create_box", "create_shape", ShruAiTools::box)));
    new TreeMap<>(KIT_NAMED)
        .forEach((name, verb) -> aliases.add(alias(name, verb, KitActions.TWINS.get(verb))));
    // Seed 002's fills are tldraw's own: its pen keeps them, where the kit's pen reads the kit's.
    aliases.add(alias("wb_pen", "pen", KitActions.DROP_INTENT));
    aliases.add(alias("wb_bring_to_front", "reorder", params -> reorder(params, "front")));
    aliases.add(alias("wb_send_to_back", "reorder", params -> reorder(params, "back")));
    return aliases;
  }

  private static VerbAlias alias(String name, String verb, ParamsTranslation params) {
    return new VerbAlias(name, Dialect.SHRUAI, verb, params);
  }

  private static JsonObject create(JsonObject params) {
    Params.onlyKnown(params, Set.of("shape"), "wb_create");
    return SHAPES.create(Params.object(params, "shape", "wb_create"));
  }

  private static JsonObject update(JsonObject params) {
    Params.onlyKnown(params, Set.of("update"), "wb_update");
    return SHAPES.update(Params.object(params, "update", "wb_update"));
  }

  /** {@code addBox(x, y)}: a rectangle at x, y (its other fields, when given, as a SimpleShape's). */
  private static JsonObject box(JsonObject params) {
    return SHAPES.create(params.copy().put("_type", "rectangle"));
  }

  private static JsonObject reorder(JsonObject params, String to) {
    return Params.without(params, "intent").put("to", to);
  }
}
