package dev.canvasagent.mcp;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;

/**
 * A prompt's arguments, which MCP passes as strings: each read by name, a missing, blank, too long or
 * malformed one refused INVALID_REQUEST naming it (answered -32602), and the argument list of a
 * prompt's descriptor.
 */
final class PromptArguments {
  private PromptArguments() {}

  /** {@code name}, required: at most {@code maxChars}, matching {@code shape} when given. */
  static String required(JsonObject arguments, String name, int maxChars, Pattern shape) {
    Object given = arguments.getValue(name);
    if (given == null) {
      throw new Failure(FailureCode.INVALID_REQUEST, "the argument " + name + " is required");
    }
    return checked(given, name, maxChars, shape);
  }

  /** {@code name}, if given; checked as {@link #required} checks it. */
  static String optional(JsonObject arguments, String name, int maxChars, Pattern shape) {
    Object given = arguments.getValue(name);
    return given == null ? null : checked(given, name, maxChars, shape);
  }

  private static String checked(Object given, String name, int maxChars, Pattern shape) {
    if (!(given instanceof String text) || text.isBlank()) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, "the argument " + name + " must be a non-empty string");
    }
    if (text.length() > maxChars) {
      throw new Failure(
          FailureCode.INVALID_REQUEST,
          "the argument " + name + " is longer than " + maxChars + " characters");
    }
    if (shape != null && !shape.matcher(text).matches()) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, "the argument " + name + " must match " + shape.pattern());
    }
    return text;
  }

  /** One entry of a descriptor's {@code arguments}. */
  static JsonObject describe(String name, String description, boolean required) {
    return new JsonObject()
        .put("name", name)
        .put("description", description)
        .put("required", required);
  }

  /** {@code prompts/get}'s result: one user message with {@code text}. */
  static JsonObject userMessage(String description, String text) {
    return new JsonObject()
        .put("description", description)
        .put(
            "messages",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("role", "user")
                        .put("content", new JsonObject().put("type", "text").put("text", text))));
  }
}
