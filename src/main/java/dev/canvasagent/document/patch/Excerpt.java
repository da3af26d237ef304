package dev.canvasagent.document.patch;

/**
 * A short, quoted, visible rendering of a line for messages: {@code \r}, {@code \n} and tabs are
 * spelled out (a CRLF mismatch must be visible) and long lines are cut.
 */
final class Excerpt {
  static final int MAX_CHARS = 80;

  private Excerpt() {}

  static String of(String text) {
    var shown = new StringBuilder("\"");
    int limit = Math.min(text.length(), MAX_CHARS);
    for (int i = 0; i < limit; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\r' -> shown.append("\\r");
        case '\n' -> shown.append("\\n");
        case '\t' -> shown.append("\\t");
        case '"' -> shown.append("\\\"");
        case '\\' -> shown.append("\\\\");
        default -> shown.append(c);
      }
    }
    shown.append('"');
    if (text.length() > limit) {
      shown.append("…");
    }
    return shown.toString();
  }
}
