package dev.canvasagent.mcp;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a {@code tools/call} answers: content for the model (text, images), the same facts as
 * {@code structuredContent} for programs, and {@code isError} when the tool refused or failed. A
 * refusal names its code and the problem, so the model that called can correct itself.
 */
public record ToolResult(JsonArray content, JsonObject structured, boolean isError) {

  /** A success: the structured answer, also given as text for clients that only show content. */
  public static ToolResult ok(JsonObject structured) {
    return new ToolResult(
        new JsonArray().add(text(structured.encodePrettily())), structured, false);
  }

  /** A refusal or failure: {@code {error: {code, message}}}, and the same as text. */
  public static ToolResult error(String code, String message) {
    JsonObject error = new JsonObject().put("code", code).put("message", message);
    return new ToolResult(
        new JsonArray().add(text(code + ": " + message)),
        new JsonObject().put("error", error),
        true);
  }

  /** This result with an image after its text (an MCP image content: base64 data and its MIME type). */
  public ToolResult withImage(String mimeType, String base64) {
    JsonArray more =
        content
            .copy()
            .add(
                new JsonObject()
                    .put("type", "image")
                    .put("data", base64)
                    .put("mimeType", mimeType));
    return new ToolResult(more, structured, isError);
  }

  static JsonObject text(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }

  public JsonObject toJson() {
    JsonObject result = new JsonObject().put("content", content).put("isError", isError);
    if (structured != null) {
      result.put("structuredContent", structured);
    }
    return result;
  }
}
