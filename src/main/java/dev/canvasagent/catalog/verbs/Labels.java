package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.RichText;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonObject;

/** Where a shape's label lives: {@code richText} for geo, note, text and arrow; {@code name} for a frame. */
final class Labels {
  private Labels() {}

  static void apply(JsonObject record, String text) {
    JsonObject props = record.getJsonObject("props");
    if (props.containsKey("richText")) {
      props.put("richText", RichText.of(text));
    } else if (props.containsKey("name")) {
      props.put("name", text);
    } else {
      throw new ActionRejected("a " + record.getString("type") + " shape has no label");
    }
  }
}
