package dev.canvasagent.runner.context;

import dev.canvasagent.model.ModelRequest;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * What one part rendered: its section of the context text, its value under {@code contextKey} in the
 * structured context (null: no key), its size, whether its budget cut something, and stats for the
 * run log.
 *
 * @param bytes the size the part is charged for: its text, or for the message its UTF-8 length, or
 *     for the screenshot its image bytes
 * @param truncated whether the budget left something out
 * @param image the screenshot, only from the screenshot part
 */
public record PartOutput(
    String name,
    int priority,
    String contextKey,
    Object json,
    String text,
    int bytes,
    boolean truncated,
    JsonObject stats,
    ModelRequest.Image image) {

  public PartOutput {
    text = text == null ? "" : text;
    stats = stats == null ? new JsonObject() : stats;
  }

  /** Nothing to say: no section, no key. */
  static PartOutput empty(PromptPart part) {
    return new PartOutput(part.name(), part.priority(), null, null, "", 0, false, null, null);
  }

  /** A section of text and, when {@code contextKey} is not null, the same facts as JSON. */
  static PartOutput section(
      PromptPart part, String contextKey, Object json, String text, boolean truncated) {
    return new PartOutput(
        part.name(),
        part.priority(),
        contextKey,
        json,
        text,
        utf8Length(text),
        truncated,
        null,
        null);
  }

  /** The same output, marked as cut by its budget. */
  PartOutput withTruncation() {
    return new PartOutput(name, priority, contextKey, json, text, bytes, true, stats, image);
  }

  PartOutput withStats(JsonObject partStats) {
    return new PartOutput(
        name, priority, contextKey, json, text, bytes, truncated, partStats, image);
  }

  /** Whether the part has anything for the model. */
  boolean isEmpty() {
    return text.isEmpty() && json == null && image == null;
  }

  static int utf8Length(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
