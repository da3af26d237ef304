package dev.canvasagent.document;

import dev.canvasagent.doctools.MarkdownFence;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A selection (lines, optionally columns) with the lines around it and the heading of its section;
 * also in seed 001's shape ({@code selection}, {@code context}, {@code formatted_for_chat}), for "Add
 * to Chat".
 */
final class SelectionContext {
  /** Seed 001: "5 lines before selection", and after. */
  static final int DEFAULT_CONTEXT_LINES = 5;

  private SelectionContext() {}

  static JsonObject of(String content, JsonObject args) {
    DocumentText text = DocumentText.of(content);
    int start = args.getInteger("start_line");
    int end = args.getInteger("end_line");
    LineEdits.checkRange(text, start, end);
    int context = args.getInteger("context_lines", DEFAULT_CONTEXT_LINES);
    String selected = text.slice(start, end);
    Integer startColumn = args.getInteger("start_column");
    Integer endColumn = args.getInteger("end_column");
    if (startColumn != null || endColumn != null) {
      String first = text.lines().get(start - 1);
      String last = text.lines().get(end - 1);
      int from = startColumn == null ? 0 : Math.min(startColumn - 1, first.length());
      int to = endColumn == null ? last.length() : Math.min(endColumn - 1, last.length());
      if (start == end && to < from) {
        throw new dev.canvasagent.bus.Failure(
            dev.canvasagent.bus.FailureCode.INVALID_REQUEST, "end_column is before start_column");
      }
      String joined = String.join("\n", text.lines().subList(start - 1, end));
      int lastStart = joined.length() - last.length();
      selected = joined.substring(from, lastStart + to);
    }
    JsonArray before = new JsonArray();
    for (int line = Math.max(1, start - context); line < start; line++) {
      before.add(new JsonObject().put("line", line).put("text", text.lines().get(line - 1)));
    }
    JsonArray after = new JsonArray();
    for (int line = end + 1; line <= Math.min(text.lineCount(), end + context); line++) {
      after.add(new JsonObject().put("line", line).put("text", text.lines().get(line - 1)));
    }
    JsonObject heading = null;
    for (int line = start; line >= 1; line--) {
      String candidate = text.lines().get(line - 1);
      if (candidate.matches("#{1,6} .*")) {
        heading = new JsonObject().put("line", line).put("text", candidate);
        break;
      }
    }
    String beforeText = text.slice(Math.max(1, start - context), start - 1);
    String afterText = text.slice(end + 1, Math.min(text.lineCount(), end + context));
    return new JsonObject()
        .put("selected_text", selected)
        .put("start_line", start)
        .put("end_line", end)
        .put("before", before)
        .put("after", after)
        .put("section", heading)
        .put("line_count", text.lineCount())
        .put(
            "selection",
            new JsonObject()
                .put("content", selected)
                .put("start_line", start)
                .put("end_line", end)
                .put("language", "markdown"))
        .put(
            "context",
            new JsonObject()
                .put("before", beforeText)
                .put("after", afterText)
                .put("full_content", content))
        .put("formatted_for_chat", forChat(selected, start, end, heading));
  }

  /** The selection as a chat message: where it is, then the text in a Markdown fence. */
  private static String forChat(String selected, int start, int end, JsonObject heading) {
    String where = start == end ? "line " + start : "lines " + start + "-" + end;
    String section = heading == null ? "" : " (section \"" + heading.getString("text") + "\")";
    return "From the canvas, "
        + where
        + section
        + ":\n"
        + MarkdownFence.around(selected, "markdown");
  }
}
