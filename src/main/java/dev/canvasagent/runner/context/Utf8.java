package dev.canvasagent.runner.context;

import java.nio.charset.StandardCharsets;

/** Cutting text to a number of UTF-8 bytes without splitting a character. */
final class Utf8 {
  private Utf8() {}

  static String prefix(String text, int maxBytes) {
    int bytes = 0;
    int end = 0;
    while (end < text.length()) {
      int codePoint = text.codePointAt(end);
      int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + size > maxBytes) {
        break;
      }
      bytes += size;
      end += Character.charCount(codePoint);
    }
    return text.substring(0, end);
  }
}
