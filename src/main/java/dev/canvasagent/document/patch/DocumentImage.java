package dev.canvasagent.document.patch;

import java.util.ArrayList;
import java.util.List;

/**
 * The document being patched, as git's apply sees it: lines cut after each {@code \n} (the last one
 * may lack it), each remembering whether a hunk wrote it, because no later hunk may match lines an
 * earlier hunk produced. A hunk replaces its lines with an array copy: O(document) per hunk.
 */
final class DocumentImage {
  record Line(String text, boolean patched) {}

  private final ArrayList<Line> lines;

  private DocumentImage(ArrayList<Line> lines) {
    this.lines = lines;
  }

  static DocumentImage of(String text) {
    var lines = new ArrayList<Line>();
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      int next = end < 0 ? text.length() : end + 1;
      lines.add(new Line(text.substring(start, next), false));
      start = next;
    }
    return new DocumentImage(lines);
  }

  int size() {
    return lines.size();
  }

  Line line(int index) {
    return lines.get(index);
  }

  void replace(int at, int count, List<String> replacement) {
    var written = new ArrayList<Line>(replacement.size());
    for (var text : replacement) {
      written.add(new Line(text, true));
    }
    lines.subList(at, at + count).clear();
    lines.addAll(at, written);
  }

  String text() {
    int length = 0;
    for (var line : lines) {
      length += line.text().length();
    }
    var text = new StringBuilder(length);
    for (var line : lines) {
      text.append(line.text());
    }
    return text.toString();
  }
}
