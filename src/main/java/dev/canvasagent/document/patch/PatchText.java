package dev.canvasagent.document.patch;

import java.util.ArrayList;
import java.util.List;

/**
 * A patch text cut at {@code \n} only: a {@code \r} stays in its line, because in a CRLF document it
 * is part of the content the hunk must match.
 */
record PatchText(List<Line> lines) {

  /** One line without its {@code \n}; {@code terminated} is false only for a last line lacking it. */
  record Line(int number, String content, boolean terminated) {
    boolean isBlank() {
      return content.isBlank();
    }
  }

  static PatchText of(String text) {
    var lines = new ArrayList<Line>();
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        lines.add(new Line(lines.size() + 1, text.substring(start), false));
        break;
      }
      lines.add(new Line(lines.size() + 1, text.substring(start, end), true));
      start = end + 1;
    }
    return new PatchText(List.copyOf(lines));
  }
}
