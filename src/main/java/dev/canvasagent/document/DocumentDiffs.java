package dev.canvasagent.document;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
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

  /** Each change with its old and new lines (1-based starts), for a side-by-side view. */
  public static JsonArray split(String before, String after) {
    Patch<String> patch =
        DiffUtils.diff(DocumentText.of(before).lines(), DocumentText.of(after).lines());
    JsonArray changes = new JsonArray();
    for (AbstractDelta<String> delta : patch.getDeltas()) {
      changes.add(
          new JsonObject()
              .put("type", delta.getType().name().toLowerCase(java.util.Locale.ROOT))
              .put("old_start", delta.getSource().getPosition() + 1)
              .put("old_lines", new JsonArray(List.copyOf(delta.getSource().getLines())))
              .put("new_start", delta.getTarget().getPosition() + 1)
              .put("new_lines", new JsonArray(List.copyOf(delta.getTarget().getLines()))));
    }
    return changes;
  }
}
