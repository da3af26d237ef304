package dev.canvasagent.document.patch;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code @@ -oldStart,oldCount +newStart,newCount @@} hunk. {@code number} is 1-based and
 * {@code headerLine} is the header's 1-based line in the patch text. The line list may hold fewer
 * entries than the counts when an empty context line carried a no-newline marker (git drops it too).
 * {@code trailingContext} counts the context lines after the last change as written; none means the
 * hunk must end at the document's end.
 */
public record Hunk(
    int number,
    int oldStart,
    int oldCount,
    int newStart,
    int newCount,
    int headerLine,
    int trailingContext,
    List<HunkLine> lines) {

  public Hunk {
    lines = List.copyOf(lines);
  }

  /** The header as the patch wrote it, for messages. */
  public String header() {
    return "@@ -" + oldStart + "," + oldCount + " +" + newStart + "," + newCount + " @@";
  }

  /** The lines the document must hold where the hunk applies: context and removed lines. */
  public List<String> preimage() {
    return side(LineKind.REMOVED);
  }

  /** The lines that replace the preimage: context and added lines. */
  public List<String> postimage() {
    return side(LineKind.ADDED);
  }

  private List<String> side(LineKind changed) {
    var side = new ArrayList<String>(lines.size());
    for (var line : lines) {
      if (line.kind() == LineKind.CONTEXT || line.kind() == changed) {
        side.add(line.text());
      }
    }
    return side;
  }
}
