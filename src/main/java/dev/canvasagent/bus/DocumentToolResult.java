package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * What a document tool answered ({@code doc.tool}): opaque to the bus, the result as the tool contract
 * defines it for that tool (every one carries {@code revision_id}; a check-out its {@code lease_id} and
 * {@code canvas_epoch}), relayed unchanged to the HTTP client or the model. On the wire it is the result
 * itself.
 */
public record DocumentToolResult(JsonObject result) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return result;
  }

  public static DocumentToolResult fromJson(JsonObject json) {
    return new DocumentToolResult(json);
  }
}
