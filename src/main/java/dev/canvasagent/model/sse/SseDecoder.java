package dev.canvasagent.model.sse;

import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Incremental WHATWG server-sent-events parser. Fed response-body buffers of any size (one byte
 * included); emits one {@link Event} per dispatched event.
 *
 * <p>Lines are split on bytes (LF, CRLF or CR are ASCII and never occur inside a UTF-8 multi-byte
 * sequence), and each complete line is decoded as a whole, so a code point split across buffers is
 * never decoded in halves. Comments ({@code :…}) and {@code id}/{@code retry} fields are ignored;
 * several {@code data} lines are joined with {@code \n}. {@link #end()} flushes a last event that
 * lacks its blank line.
 */
public final class SseDecoder {

  /** One dispatched event; {@code event} is {@code "message"} when the stream names none. */
  public record Event(String event, String data) {}

  private final Consumer<Event> sink;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
  private final StringBuilder data = new StringBuilder();
  private boolean hasData;
  private String eventType;
  private boolean lastWasCarriageReturn;
  private boolean atStart = true;

  public SseDecoder(Consumer<Event> sink) {
    this.sink = sink;
  }

  public void feed(Buffer buffer) {
    for (int i = 0, n = buffer.length(); i < n; i++) {
      byte b = buffer.getByte(i);
      if (b == '\n' && lastWasCarriageReturn) {
        lastWasCarriageReturn = false;
        continue;
      }
      lastWasCarriageReturn = b == '\r';
      if (b == '\n' || b == '\r') {
        processLine(takeLine());
      } else {
        line.write(b);
      }
    }
  }

  /** End of input: a pending line and a pending event are processed as if a blank line followed. */
  public void end() {
    if (line.size() > 0) {
      processLine(takeLine());
    }
    processLine("");
  }

  private String takeLine() {
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    if (atStart) {
      atStart = false;
      if (text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
    }
    return text;
  }

  private void processLine(String text) {
    if (text.isEmpty()) {
      dispatch();
      return;
    }
    if (text.charAt(0) == ':') {
      return;
    }
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = "";
    if (colon >= 0) {
      int start = colon + 1;
      if (start < text.length() && text.charAt(start) == ' ') {
        start++;
      }
      value = text.substring(start);
    }
    switch (field) {
      case "data" -> {
        if (hasData) {
          data.append('\n');
        }
        data.append(value);
        hasData = true;
      }
      case "event" -> eventType = value;
      default -> {
        // id, retry and unknown fields carry nothing the normalizers use
      }
    }
  }

  private void dispatch() {
    if (hasData) {
      String type = eventType == null || eventType.isEmpty() ? "message" : eventType;
      Event event = new Event(type, data.toString());
      data.setLength(0);
      hasData = false;
      eventType = null;
      sink.accept(event);
    } else {
      eventType = null;
    }
  }
}
