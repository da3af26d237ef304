package dev.canvasagent.runner.stream;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Decodes, as far as it is written, the JSON string a tokenizer has not finished: the raw bytes after
 * the last complete token, {@code "} included. Each byte is decoded once; what cannot be decoded yet
 * (half a UTF-8 sequence, half an escape, a high surrogate without its low half) waits for more bytes.
 */
final class PendingStringDecoder {
  private long tailBase = -1;
  private int position;
  private boolean inString;
  private boolean notAString;
  private final StringBuilder text = new StringBuilder();
  private long bytesVisited;

  /** Bytes this decoder looked at since it was made (a re-read of held-back bytes counts again). */
  long bytesVisited() {
    return bytesVisited;
  }

  /**
   * The string so far when {@code tail} (the unfinished bytes starting at absolute offset {@code
   * base}) holds the start of a string; empty when it holds something else or nothing yet.
   */
  Optional<String> decode(long base, byte[] tail, int length) {
    if (base != tailBase) {
      tailBase = base;
      position = 0;
      inString = false;
      notAString = false;
      text.setLength(0);
    }
    if (notAString) {
      return Optional.empty();
    }
    if (!inString) {
      while (position < length && isSeparator(tail[position])) {
        position++;
        bytesVisited++;
      }
      if (position == length) {
        return Optional.empty();
      }
      bytesVisited++;
      if (tail[position] != '"') {
        notAString = true;
        return Optional.empty();
      }
      inString = true;
      position++;
    }
    position = decodeFrom(tail, position, length);
    return Optional.of(text.toString());
  }

  private static boolean isSeparator(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == ':' || b == ',';
  }

  /** Decodes from {@code start}; returns where decoding must resume. */
  private int decodeFrom(byte[] tail, int start, int length) {
    int i = start;
    while (i < length) {
      byte b = tail[i];
      if (b == '"') {
        return i;
      }
      if (b == '\\') {
        int consumed = escape(tail, i, length);
        if (consumed == 0) {
          return i;
        }
        i += consumed;
        continue;
      }
      int runEnd = i;
      while (runEnd < length && tail[runEnd] != '\\' && tail[runEnd] != '"') {
        runEnd++;
      }
      bytesVisited += runEnd - i;
      int complete = completeUtf8End(tail, i, runEnd);
      text.append(new String(tail, i, complete - i, StandardCharsets.UTF_8));
      if (complete < runEnd) {
        // Half a character: its bytes are looked at again once the rest has come.
        bytesVisited -= runEnd - complete;
        return complete;
      }
      i = runEnd;
    }
    return i;
  }

  /** Appends one escape starting at {@code i}; returns its length, or 0 when it is not all there yet. */
  private int escape(byte[] tail, int i, int length) {
    if (i + 1 >= length) {
      return 0;
    }
    byte kind = tail[i + 1];
    if (kind != 'u') {
      bytesVisited += 2;
      switch (kind) {
        case 'n' -> text.append('\n');
        case 't' -> text.append('\t');
        case 'r' -> text.append('\r');
        case 'b' -> text.append('\b');
        case 'f' -> text.append('\f');
        default -> text.append((char) kind); // \" \\ \/ (anything else the tokenizer refuses)
      }
      return 2;
    }
    int unit = hex4(tail, i + 2, length);
    if (unit == -2) {
      return 0;
    }
    if (unit < 0) {
      // Not an escape the tokenizer will accept: it reports the error; show nothing of it.
      bytesVisited += 2;
      return 2;
    }
    if (Character.isHighSurrogate((char) unit)) {
      if (i + 12 > length) {
        return 0;
      }
      if (tail[i + 6] == '\\' && tail[i + 7] == 'u') {
        int low = hex4(tail, i + 8, length);
        if (low >= 0 && Character.isLowSurrogate((char) low)) {
          bytesVisited += 12;
          text.append((char) unit).append((char) low);
          return 12;
        }
      }
    }
    bytesVisited += 6;
    text.append((char) unit);
    return 6;
  }

  /** Four hex digits at {@code from}: their value, -2 when not all written yet, -1 when not hex. */
  private static int hex4(byte[] tail, int from, int length) {
    if (from + 4 > length) {
      return -2;
    }
    int value = 0;
    for (int k = from; k < from + 4; k++) {
      int digit = Character.digit(tail[k], 16);
      if (digit < 0) {
        return -1;
      }
      value = value * 16 + digit;
    }
    return value;
  }

  /** The end of the last whole UTF-8 character in {@code [from, to)}. */
  private static int completeUtf8End(byte[] bytes, int from, int to) {
    for (int k = to - 1; k >= Math.max(from, to - 3); k--) {
      int b = bytes[k] & 0xFF;
      if ((b & 0xC0) == 0x80) {
        continue;
      }
      int needed = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
      return k + needed > to ? k : to;
    }
    return to;
  }
}
