package dev.canvasagent.document;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Which lines a search-and-replace touched, as seed 001 reports them: {@code affected_lines} (1-based,
 * in the old text) and {@code diffs} {@code [{line, before, after}]}, one per run of touched lines.
 * Worked out from where the matches were, in one pass over the text (no diff of the whole document,
 * which could take long on the event loop for a document with many replacements).
 */
final class ReplacedLines {
  private final String before;
  private final List<int[]> matches = new ArrayList<>();

  /** {@code before} is the text the matches were found in. */
  ReplacedLines(String before) {
    this.before = before;
  }

  /**
   * Records one match of {@code before} ({@code start}..{@code end}), whose replacement ends at
   * {@code outputEnd} in the new text.
   */
  void matched(int start, int end, int outputEnd) {
    matches.add(new int[] {start, end, outputEnd});
  }

  /** {@code {affected_lines, diffs}} for the new text {@code after}. */
  JsonObject report(String after) {
    JsonArray affected = new JsonArray();
    JsonArray diffs = new JsonArray();
    Cursor cursor = new Cursor();
    int index = 0;
    while (index < matches.size()) {
      // A run: the lines of this match (the next too when it took a newline), and of every next
      // match that starts on the run's last line. Runs come in order, so the cursor only moves on.
      int from = lineStart(matches.get(index)[0]);
      int to = lineEnd(matches.get(index)[1]);
      int last = index;
      while (last + 1 < matches.size() && matches.get(last + 1)[0] <= to) {
        last++;
        to = Math.max(to, lineEnd(matches.get(last)[1]));
      }
      int firstLine = cursor.lineAt(from);
      int lastLine = cursor.lineAt(to);
      for (int line = firstLine; line <= lastLine; line++) {
        affected.add(line);
      }
      diffs.add(
          new JsonObject()
              .put("line", firstLine)
              .put("before", before.substring(from, to))
              .put(
                  "after",
                  after.substring(cursor.outputAt(from, false), cursor.outputAt(to, true))));
      index = last + 1;
    }
    return new JsonObject().put("affected_lines", affected).put("diffs", diffs);
  }

  private int lineStart(int offset) {
    return before.lastIndexOf('\n', offset - 1) + 1;
  }

  /** The end of the line holding {@code offset} (its newline's position, or the text's end). */
  private int lineEnd(int offset) {
    int newline = before.indexOf('\n', offset);
    return newline < 0 ? before.length() : newline;
  }

  /** Line numbers and new-text offsets for old-text offsets asked in increasing order. */
  private final class Cursor {
    private int offset;
    private int line = 1;
    private int match;
    private int shift;

    /** The 1-based line of {@code target} (a newline belongs to the line it ends). */
    int lineAt(int target) {
      for (int i = before.indexOf('\n', offset); i >= 0 && i < target; ) {
        line++;
        offset = i + 1;
        i = before.indexOf('\n', offset);
      }
      offset = Math.max(offset, Math.min(target, before.length()));
      return line;
    }

    /**
     * Where {@code target} of the old text (never inside a match) is in the new one: at a run's
     * start, before what an empty match there inserts; at its end, after it.
     */
    int outputAt(int target, boolean runEnd) {
      while (match < matches.size()
          && (runEnd ? matches.get(match)[1] <= target : matches.get(match)[0] < target)) {
        shift = matches.get(match)[2] - matches.get(match)[1];
        match++;
      }
      return target + shift;
    }
  }
}
