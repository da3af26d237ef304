package dev.canvasagent.document.patch;

import java.util.List;

/**
 * Where a hunk's old lines (its preimage) are in the document, by git apply's rules: exact bytes,
 * no fuzz; the search starts at the line the header names and moves outward one line at a time,
 * forward first, so the nearest match wins and a tie goes to the later line; a hunk that starts at
 * line 0 or 1 must match at the very start, and one without trailing context at the very end.
 */
final class HunkSearch {
  private HunkSearch() {}

  /** The 0-based line where the preimage applies, or -1. */
  static int find(
      DocumentImage image, List<String> preimage, int expected, boolean atStart, boolean atEnd) {
    int lines = image.size();
    if (atStart) {
      return matchesAt(image, preimage, 0, true, atEnd) ? 0 : -1;
    }
    if (atEnd) {
      int at = lines - preimage.size();
      return at >= 0 && matchesAt(image, preimage, at, false, true) ? at : -1;
    }
    int start = expected < 0 || expected > lines ? lines : expected;
    int backwards = start;
    int forwards = start;
    int current = start;
    for (int step = 0; ; step++) {
      if (matchesAt(image, preimage, current, false, false)) {
        return current;
      }
      while (true) {
        if (backwards == 0 && forwards == lines) {
          return -1;
        }
        if ((step & 1) == 1) {
          if (backwards == 0) {
            step++;
            continue;
          }
          current = --backwards;
        } else {
          if (forwards == lines) {
            step++;
            continue;
          }
          current = ++forwards;
        }
        break;
      }
    }
  }

  /**
   * git's match_fragment without whitespace options: every line unpatched and equal up to
   * whitespace (its hash check), then the preimage's bytes equal the document's from this line on.
   * The byte comparison is what lets a preimage line lacking its newline match a longer line.
   */
  static boolean matchesAt(
      DocumentImage image, List<String> preimage, int at, boolean atStart, boolean atEnd) {
    int lines = image.size();
    int count = preimage.size();
    if (at + count > lines || (atEnd && at + count != lines) || (atStart && at != 0)) {
      return false;
    }
    for (int i = 0; i < count; i++) {
      var line = image.line(at + i);
      if (line.patched() || !GitWhitespace.sameIgnoringWhitespace(preimage.get(i), line.text())) {
        return false;
      }
    }
    return sameCharacters(image, preimage, at, atEnd);
  }

  private static boolean sameCharacters(
      DocumentImage image, List<String> preimage, int at, boolean toTheEnd) {
    int lineIndex = at;
    int charIndex = 0;
    for (var expected : preimage) {
      for (int i = 0; i < expected.length(); i++) {
        while (lineIndex < image.size() && charIndex == image.line(lineIndex).text().length()) {
          lineIndex++;
          charIndex = 0;
        }
        if (lineIndex == image.size()
            || image.line(lineIndex).text().charAt(charIndex) != expected.charAt(i)) {
          return false;
        }
        charIndex++;
      }
    }
    if (!toTheEnd) {
      return true;
    }
    while (lineIndex < image.size() && charIndex == image.line(lineIndex).text().length()) {
      lineIndex++;
      charIndex = 0;
    }
    return lineIndex == image.size();
  }
}
