package dev.canvasagent.document;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A document's text as lines: split on {@code \n} only (a {@code \r} stays part of its line, as in git),
 * with whether the text ends with a newline. The empty text has no lines.
 */
public record DocumentText(List<String> lines, boolean finalNewline) {
  public DocumentText {
    lines = List.copyOf(lines);
  }

  public static DocumentText of(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lines.add(text.substring(start, i));
        start = i + 1;
      }
    }
    boolean finalNewline = start == text.length();
    if (!finalNewline) {
      lines.add(text.substring(start));
    }
    return new DocumentText(lines, finalNewline || lines.isEmpty());
  }

  public int lineCount() {
    return lines.size();
  }

  /** Back to text; the last line gets a newline when the text had one (or when it gains lines at the end). */
  public String text() {
    if (lines.isEmpty()) {
      return "";
    }
    String joined = String.join("\n", lines);
    return finalNewline ? joined + "\n" : joined;
  }

  /** Lines {@code from}..{@code to} (1-based, inclusive) joined, each with its newline. */
  public String slice(int from, int to) {
    StringBuilder out = new StringBuilder();
    for (int line = from; line <= to; line++) {
      out.append(lines.get(line - 1));
      if (line < lines.size() || finalNewline) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** The revision id of a text: the first 16 hex digits (64 bits) of the SHA-256 of its UTF-8 bytes. */
  public static String revisionId(String text) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public static int lineCount(String text) {
    return of(text).lineCount();
  }
}
