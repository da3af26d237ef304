package dev.canvasagent.document;

import dev.canvasagent.store.DocumentStore.Document;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;

/** The reading tools' answers from a document's text: grep, a range of lines, the content. */
final class DocumentReads {
  private DocumentReads() {}

  static JsonObject grep(Document document, JsonObject args) {
    Pattern pattern =
        BoundedRegex.compile(
            args.getString("query"),
            args.getBoolean("regex", false),
            args.getBoolean("case_sensitive", true));
    int limit = args.getInteger("max_results", DocumentTools.DEFAULT_GREP_RESULTS);
    long deadline = System.nanoTime() + DocumentTools.REGEX_BUDGET_MS * 1_000_000;
    JsonArray matches = new JsonArray();
    boolean truncated = false;
    var lines = DocumentText.of(document.content()).lines();
    for (int i = 0; i < lines.size(); i++) {
      if (pattern
          .matcher(BoundedRegex.withDeadline(lines.get(i), deadline, DocumentTools.REGEX_BUDGET_MS))
          .find()) {
        if (matches.size() == limit) {
          truncated = true;
          break;
        }
        matches.add(new JsonObject().put("line", i + 1).put("text", lines.get(i)));
      }
    }
    return new JsonObject().put("matches", matches).put("truncated", truncated);
  }

  static JsonObject lines(Document document, int start, int end) {
    DocumentText text = DocumentText.of(document.content());
    LineEdits.checkRange(text, start, end);
    JsonArray lines = new JsonArray();
    for (int line = start; line <= end; line++) {
      lines.add(new JsonObject().put("line", line).put("text", text.lines().get(line - 1)));
    }
    return new JsonObject()
        .put("lines", lines)
        .put("text", text.slice(start, end))
        .put("line_count", text.lineCount());
  }

  static JsonObject content(Document document, JsonObject args) {
    DocumentText text = DocumentText.of(document.content());
    int start = args.getInteger("start_line", 1);
    int end = args.getInteger("end_line", text.lineCount());
    if (text.lineCount() == 0) {
      return new JsonObject()
          .put("content", "")
          .put("line_count", 0)
          .put("numbered_lines", new JsonArray());
    }
    LineEdits.checkRange(text, start, end);
    JsonArray numbered = new JsonArray();
    for (int line = start; line <= end; line++) {
      numbered.add(new JsonObject().put("number", line).put("content", text.lines().get(line - 1)));
    }
    return new JsonObject()
        .put("content", text.slice(start, end))
        .put("line_count", text.lineCount())
        .put("numbered_lines", numbered);
  }
}
