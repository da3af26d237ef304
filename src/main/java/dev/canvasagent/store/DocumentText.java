package dev.canvasagent.store;

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
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Why {@code text} cannot be a document's content, if it cannot: more than {@code maxBytes} of UTF-8
   * (BODY_TOO_LARGE), or a NUL character, which PostgreSQL text cannot hold and Markdown never needs.
   */
  public static java.util.Optional<dev.canvasagent.bus.Failure> refusal(String text, int maxBytes) {
    if (text.indexOf('\u0000') >= 0) {
      return java.util.Optional.of(
          new dev.canvasagent.bus.Failure(
              dev.canvasagent.bus.FailureCode.INVALID_REQUEST,
              "a document may not contain the NUL character (U+0000)"));
    }
    if (text.length() > maxBytes / 3 && text.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
      return java.util.Optional.of(
          new dev.canvasagent.bus.Failure(
              dev.canvasagent.bus.FailureCode.BODY_TOO_LARGE,
              "a document may not exceed " + maxBytes + " bytes of UTF-8"));
    }
    return java.util.Optional.empty();
  }

  public static int lineCount(String text) {
    return of(text).lineCount();
  }
}
