package dev.canvasagent.document;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentStore.Change;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The line tools (replace, insert and delete lines) as pure functions of the current text: the
 * change to commit, or a Failure.
 */
public final class LineEdits {
  private LineEdits() {}

  /** Refuses a range outside the document's lines. */
  public static void checkRange(DocumentText text, int start, int end) {
    if (end < start) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, "end_line " + end + " is before start_line " + start);
    }
    if (end > text.lineCount()) {
      throw new Failure(
          FailureCode.INVALID_REQUEST,
          "lines "
              + start
              + ".."
              + end
              + " are outside the document's "
              + text.lineCount()
              + " lines");
    }
  }

  public static Change replace(
      String content, int start, int end, String newContent, String reason) {
    DocumentText text = DocumentText.of(content);
    checkRange(text, start, end);
    List<String> inserted = DocumentText.of(newContent).lines();
    List<String> lines = new ArrayList<>(text.lines().subList(0, start - 1));
    lines.addAll(inserted);
    lines.addAll(text.lines().subList(end, text.lineCount()));
    DocumentText after = new DocumentText(lines, text.finalNewline());
    return new Change(
        after.text(),
        "replace",
        start,
        end,
        text.slice(start, end),
        newContent,
        reason,
        new JsonObject()
            .put("lines_affected", end - start + 1)
            .put("lines_inserted", inserted.size())
            .put(
                "diff",
                new JsonObject().put("before", text.slice(start, end)).put("after", newContent))
            .put("new_line_count", after.lineCount()));
  }

  public static Change insert(String content, int afterLine, String newContent, String reason) {
    DocumentText text = DocumentText.of(content);
    if (afterLine > text.lineCount()) {
      throw new Failure(
          FailureCode.INVALID_REQUEST,
          "insert_after_line "
              + afterLine
              + " is past the document's "
              + text.lineCount()
              + " lines");
    }
    List<String> inserted = DocumentText.of(newContent).lines();
    List<String> lines = new ArrayList<>(text.lines().subList(0, afterLine));
    lines.addAll(inserted);
    lines.addAll(text.lines().subList(afterLine, text.lineCount()));
    // Lines added after a last line without its newline end the text with one, as an editor would.
    boolean finalNewline = text.finalNewline() || afterLine == text.lineCount();
    DocumentText after = new DocumentText(lines, finalNewline);
    return new Change(
        after.text(),
        "insert",
        afterLine + 1,
        afterLine + inserted.size(),
        "",
        newContent,
        reason,
        new JsonObject()
            .put("lines_inserted", inserted.size())
            .put("new_line_count", after.lineCount()));
  }

  public static Change delete(String content, int start, int end, String reason) {
    DocumentText text = DocumentText.of(content);
    checkRange(text, start, end);
    List<String> lines = new ArrayList<>(text.lines().subList(0, start - 1));
    lines.addAll(text.lines().subList(end, text.lineCount()));
    DocumentText after = new DocumentText(lines, text.finalNewline());
    String deleted = text.slice(start, end);
    return new Change(
        after.text(),
        "delete",
        start,
        end,
        deleted,
        "",
        reason,
        new JsonObject()
            .put("lines_deleted", end - start + 1)
            .put("deleted_content", deleted)
            .put("new_line_count", after.lineCount()));
  }
}
