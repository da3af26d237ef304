package dev.canvasagent.document.patch;

/** git's own {@code isspace}: space, tab, LF and CR only (not vertical tab or form feed). */
final class GitWhitespace {
  private GitWhitespace() {}

  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  /** Equal once git's whitespace is taken out of both: the test git's line hash makes. */
  static boolean sameIgnoringWhitespace(String a, String b) {
    int i = 0;
    int j = 0;
    while (true) {
      while (i < a.length() && isSpace(a.charAt(i))) {
        i++;
      }
      while (j < b.length() && isSpace(b.charAt(j))) {
        j++;
      }
      if (i == a.length() || j == b.length()) {
        return i == a.length() && j == b.length();
      }
      if (a.charAt(i++) != b.charAt(j++)) {
        return false;
      }
    }
  }
}
