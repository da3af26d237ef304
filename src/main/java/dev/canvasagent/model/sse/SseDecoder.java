package dev.canvasagent.model.sse;

import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * An incremental WHATWG server-sent-events parser. Feed it response-body buffers of any size (one
 * byte at a time is fine); it hands every complete event to the sink.
 *
 * <p>Lines are cut on raw CR / LF bytes, which never occur inside a multi-byte UTF-8 sequence, and
 * each complete line is decoded once: a code point split across buffers is therefore never decoded
 * in halves. LF, CRLF and CR line endings are accepted (a CRLF split across buffers included),
 * {@code :} comments and unknown fields are ignored, and several {@code data:} lines are joined with
 * {@code \n}. {@link #end()} flushes a last event that lacks its blank line. The last {@code id:} seen
 * is kept for a reconnection's {@code Last-Event-ID} ({@link #lastEventId()}).
 */
public final class SseDecoder {

  /** One dispatched event; {@code event} is {@code "message"} when the stream named none. */
  public record Event(String event, String data) {}

  private final Consumer<Event> sink;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private final StringBuilder data = new StringBuilder();
  private String eventType;
  private boolean afterCarriageReturn;
  private boolean firstLine = true;
  private boolean hasData;
  private String lastEventId = "";

  public SseDecoder(Consumer<Event> sink) {
    this.sink = sink;
  }

  public void feed(Buffer buffer) {
    for (int i = 0, n = buffer.length(); i < n; i++) {
      byte b = buffer.getByte(i);
      if (b == '\n' && afterCarriageReturn) {
        afterCarriageReturn = false;
        continue;
      }
      afterCarriageReturn = b == '\r';
      if (b == '\r' || b == '\n') {
        completeLine();
      } else {
        line.write(b);
      }
    }
  }

  /** The stream's last event id, as WHATWG keeps it across events; empty while none was given. */
  public String lastEventId() {
    return lastEventId;
  }

  /** End of input: a pending line and a pending event are dispatched as if a blank line followed. */
  public void end() {
    if (line.size() > 0) {
      completeLine();
    }
    dispatch();
  }

  private void completeLine() {
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    if (firstLine) {
      firstLine = false;
      if (text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
    }
    if (text.isEmpty()) {
      dispatch();
      return;
    }
    if (text.charAt(0) == ':') {
      return;
    }
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) {
      value = value.substring(1);
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
      case "id" -> {
        if (value.indexOf('\0') < 0) {
          lastEventId = value;
        }
      }
      default -> {} // retry and unknown fields carry nothing the readers need
    }
  }

  private void dispatch() {
    if (hasData) {
      sink.accept(
          new Event(
              eventType == null || eventType.isEmpty() ? "message" : eventType, data.toString()));
    }
    data.setLength(0);
    hasData = false;
    eventType = null;
  }
}
