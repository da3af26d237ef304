package dev.canvasagent.board;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * tldraw's {@code richText} (TipTap JSON) from plain text, as tldraw's own {@code toRichText} makes it:
 * one paragraph per line, an empty paragraph for an empty line, never an empty text node.
 */
public final class RichText {
  private RichText() {}

  public static JsonObject of(String text) {
    JsonArray paragraphs = new JsonArray();
    for (String line : text.split("\n", -1)) {
      JsonObject paragraph = new JsonObject().put("type", "paragraph");
      if (!line.isEmpty()) {
        paragraph.put(
            "content", new JsonArray().add(new JsonObject().put("type", "text").put("text", line)));
      }
      paragraphs.add(paragraph);
    }
    return new JsonObject().put("type", "doc").put("content", paragraphs);
  }

  /** The plain text of a rich-text document: paragraphs joined by newlines. */
  public static String plainText(JsonObject richText) {
    if (richText == null) {
      return "";
    }
    StringBuilder text = new StringBuilder();
    JsonArray content = richText.getJsonArray("content", new JsonArray());
    for (int i = 0; i < content.size(); i++) {
      if (i > 0) {
        text.append('\n');
      }
      appendText(content.getJsonObject(i), text);
    }
    return text.toString();
  }

  private static void appendText(JsonObject node, StringBuilder text) {
    if ("text".equals(node.getString("type"))) {
      text.append(node.getString("text", ""));
    }
    JsonArray children = node.getJsonArray("content");
    if (children != null) {
      children.forEach(child -> appendText((JsonObject) child, text));
    }
  }
}
