package dev.canvasagent.runner.stream;

import java.nio.charset.StandardCharsets;

/**
 * Text fragments as UTF-8 bytes. A provider may cut a surrogate pair between two fragments; encoding
 * each half alone would turn both into '?', so a trailing high surrogate waits for the next fragment.
 */
final class Utf8Fragments {
  private static final byte[] NOTHING = new byte[0];
  private char pendingHighSurrogate;

  byte[] encode(String fragment) {
    String text = fragment;
    if (pendingHighSurrogate != 0) {
      text = pendingHighSurrogate + fragment;
      pendingHighSurrogate = 0;
    }
    if (text.isEmpty()) {
      return NOTHING;
    }
    char last = text.charAt(text.length() - 1);
    if (Character.isHighSurrogate(last)) {
      pendingHighSurrogate = last;
      text = text.substring(0, text.length() - 1);
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
