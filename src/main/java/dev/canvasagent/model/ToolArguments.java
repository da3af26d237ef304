package dev.canvasagent.model;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/** Parses a call's accumulated argument text once, at the call's end (README rule 1). */
public final class ToolArguments {
  private ToolArguments() {}

  /**
   * Blank text is {@code {}}; anything else must be one JSON object.
   *
   * @throws IllegalArgumentException when the text is not a JSON object
   */
  public static JsonObject parse(String text) {
    if (text.isBlank()) {
      return new JsonObject();
    }
    try {
      return new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException(
          "tool arguments are not a JSON object: " + e.getMessage(), e);
    }
  }
}
