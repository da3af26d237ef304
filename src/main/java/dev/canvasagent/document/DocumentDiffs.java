package dev.canvasagent.document;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.DeltaType;
import com.github.difflib.patch.Patch;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** Myers diffs between two texts (java-diff-utils), as a unified diff or as split (side by side) changes. */
public final class DocumentDiffs {
  private DocumentDiffs() {}

  public static String unified(String before, String after, int contextLines) {
    List<String> original = DocumentText.of(before).lines();
    Patch<String> patch = DiffUtils.diff(original, DocumentText.of(after).lines());
    if (patch.getDeltas().isEmpty()) {
      return "";
    }
    List<String> lines =
        UnifiedDiffUtils.generateUnifiedDiff(
            "a/document.md", "b/document.md", original, patch, contextLines);
    return String.join("\n", lines) + "\n";
  }

  /**
   * Each change with its old and new lines (1-based starts), for a side-by-side view. Seed 001's names
   * are there too: {@code type} is {@code add}, {@code delete} or {@code modify}; {@code line} the
   * first line it touches (in the old text, or for an addition where it lands in the new one), and
   * {@code before} / {@code after} its old and new lines as text (absent for an addition / deletion).
   */
  public static JsonArray split(String before, String after) {
    Patch<String> patch =
        DiffUtils.diff(DocumentText.of(before).lines(), DocumentText.of(after).lines());
    JsonArray changes = new JsonArray();
    for (AbstractDelta<String> delta : patch.getDeltas()) {
      List<String> removed = delta.getSource().getLines();
      List<String> added = delta.getTarget().getLines();
      JsonObject change =
          new JsonObject()
              .put("type", seedType(delta.getType()))
              .put(
                  "line",
                  (removed.isEmpty() ? delta.getTarget() : delta.getSource()).getPosition() + 1)
              .put("old_start", delta.getSource().getPosition() + 1)
              .put("old_lines", new JsonArray(List.copyOf(removed)))
              .put("new_start", delta.getTarget().getPosition() + 1)
              .put("new_lines", new JsonArray(List.copyOf(added)));
      if (!removed.isEmpty()) {
        change.put("before", String.join("\n", removed));
      }
      if (!added.isEmpty()) {
        change.put("after", String.join("\n", added));
      }
      changes.add(change);
    }
    return changes;
  }

  /**
   * The lines (1-based) that {@code changes} ({@link #split}) touched: the old lines each removed or
   * rewrote, or, for an addition, the new lines where it landed.
   */
  public static JsonArray changedLines(JsonArray changes) {
    JsonArray lines = new JsonArray();
    for (Object item : changes) {
      JsonObject change = (JsonObject) item;
      boolean added = change.getJsonArray("old_lines").isEmpty();
      int start = change.getInteger(added ? "new_start" : "old_start");
      int count = change.getJsonArray(added ? "new_lines" : "old_lines").size();
      for (int line = start; line < start + count; line++) {
        lines.add(line);
      }
    }
    return lines;
  }

  private static String seedType(DeltaType type) {
    return switch (type) {
      case INSERT -> "add";
      case DELETE -> "delete";
      default -> "modify";
    };
  }
}
