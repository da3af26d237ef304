package dev.canvasagent.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;

/**
 * One browser's stream of the room, as the server sees it: a real {@code GET …/events} SSE connection.
 * For every {@code canvas:change} whose record carries a send time in the measured window it counts a
 * delivery and keeps receive time − send time, once per change ({@code meta.seq}): a change that
 * arrives twice is counted as a duplicate, not as a second delivery. It reads only what it needs from each event (the
 * event name and the {@code seq} and {@code sentAtMicros} numbers), not the whole JSON, so the driver, which shares
 * the machine with the server, spends as little as it can per delivery.
 */
final class SseListener {
  static final byte[] CHANGE_EVENT = "event: canvas:change\n".getBytes(StandardCharsets.US_ASCII);
  static final byte[] ID_LINE = "id: ".getBytes(StandardCharsets.US_ASCII);
  static final byte[] NEWLINE = "\n".getBytes(StandardCharsets.US_ASCII);
  static final byte[] SENT_AT = "\"sentAtMicros\":".getBytes(StandardCharsets.US_ASCII);
  static final byte[] SEQ = "\"seq\":".getBytes(StandardCharsets.US_ASCII);

  /** The change's number sits just before its send time, in the same meta. */
  private static final int SEQ_SEARCH_BYTES = 48;

  /** The send time sits at the end of the record's meta, near the end of the event. */
  private static final int TAIL_SEARCH_BYTES = 256;

  private final MeasurementWindow window;
  private final Promise<Void> subscribed = Promise.promise();
  private byte[] carry = new byte[0];
  private int[] latencies = new int[1024];
  private int count;

  /** Per measured second (by send time): the largest latency, in microseconds. */
  private int[] maxPerSecond = new int[0];

  /** The changes ({@code meta.seq}) whose delivery was counted: each is counted once per client. */
  private final BitSet seen = new BitSet();

  private long received;
  private long receivedBytes;
  private long unparsable;
  private long duplicates;
  private volatile boolean ended;

  private SseListener(MeasurementWindow window) {
    this.window = window;
  }

  /** Opens the stream; the future completes once its first bytes arrive (the server has subscribed it). */
  static SseListener open(HttpClient client, int port, String roomId, MeasurementWindow window) {
    SseListener listener = new SseListener(window);
    client
        .request(HttpMethod.GET, port, "127.0.0.1", "/api/rooms/" + roomId + "/events")
        .compose(request -> request.putHeader("accept", "text/event-stream").send())
        .onSuccess(
            response -> {
              if (response.statusCode() != 200) {
                listener.subscribed.tryFail("the events stream answered " + response.statusCode());
                return;
              }
              response.handler(listener::receive);
              response.endHandler(end -> listener.ended = true);
              response.exceptionHandler(error -> listener.ended = true);
            })
        .onFailure(
            error -> {
              listener.ended = true;
              listener.subscribed.tryFail(error);
            });
    return listener;
  }

  Future<Void> subscribed() {
    return subscribed.future();
  }

  /** True once the server ended the stream (e.g. it dropped this client as a slow consumer). */
  boolean ended() {
    return ended;
  }

  synchronized long received() {
    return received;
  }

  /** The bytes of the counted {@code canvas:change} events, each with its blank line. */
  synchronized long receivedBytes() {
    return receivedBytes;
  }

  synchronized long unparsable() {
    return unparsable;
  }

  /** Measured changes this client got a second time (not counted again as deliveries). */
  synchronized long duplicates() {
    return duplicates;
  }

  /** The measured changes ({@code meta.seq}) this client got. */
  synchronized BitSet seen() {
    return (BitSet) seen.clone();
  }

  /** The largest latency (µs) of the changes sent in each measured second. */
  synchronized int[] maxPerSecond() {
    return maxPerSecond.clone();
  }

  /** The measured latencies in microseconds. */
  synchronized int[] latencies() {
    return Arrays.copyOf(latencies, count);
  }

  private synchronized void receive(Buffer chunk) {
    subscribed.tryComplete();
    long receivedAtMicros = MeasurementWindow.nowMicros();
    byte[] bytes = chunk.getBytes();
    if (carry.length > 0) {
      byte[] joined = Arrays.copyOf(carry, carry.length + bytes.length);
      System.arraycopy(bytes, 0, joined, carry.length, bytes.length);
      bytes = joined;
    }
    int blockStart = 0;
    for (int i = 0; i + 1 < bytes.length; i++) {
      if (bytes[i] == '\n' && bytes[i + 1] == '\n') {
        event(bytes, blockStart, i, receivedAtMicros);
        blockStart = i + 2;
        i++;
      }
    }
    carry =
        blockStart == bytes.length
            ? new byte[0]
            : Arrays.copyOfRange(bytes, blockStart, bytes.length);
  }

  /** One SSE event, {@code bytes[start, end)} without its blank line. */
  private void event(byte[] bytes, int start, int end, long receivedAtMicros) {
    int eventStart = start;
    if (startsWith(bytes, start, end, ID_LINE)) {
      // The resumable event id comes first; the topic is on the next line.
      int newline = indexOf(bytes, start, end, NEWLINE);
      start = newline < 0 ? end : newline + 1;
    }
    if (!startsWith(bytes, start, end, CHANGE_EVENT)) {
      return;
    }
    int marker = indexOf(bytes, Math.max(start, end - TAIL_SEARCH_BYTES), end, SENT_AT);
    if (marker < 0) {
      marker = indexOf(bytes, start, end, SENT_AT);
    }
    if (marker < 0) {
      unparsable++;
      return;
    }
    long sentAtMicros = number(bytes, marker + SENT_AT.length, end);
    if (!window.contains(sentAtMicros)) {
      return;
    }
    int seqMarker = indexOf(bytes, Math.max(start, marker - SEQ_SEARCH_BYTES), marker, SEQ);
    if (seqMarker < 0) {
      seqMarker = indexOf(bytes, start, end, SEQ);
    }
    if (seqMarker < 0) {
      unparsable++;
      return;
    }
    // Matched by the change's own number, not the event id: ids need not agree across nodes.
    int seq = (int) number(bytes, seqMarker + SEQ.length, end);
    if (seen.get(seq)) {
      duplicates++;
      return;
    }
    seen.set(seq);
    received++;
    receivedBytes += end + 2 - eventStart;
    if (count == latencies.length) {
      latencies = Arrays.copyOf(latencies, count * 2);
    }
    int latency = (int) Math.min(Integer.MAX_VALUE, Math.max(0, receivedAtMicros - sentAtMicros));
    latencies[count++] = latency;
    int second = window.second(sentAtMicros);
    if (second >= maxPerSecond.length) {
      maxPerSecond = Arrays.copyOf(maxPerSecond, second + 1);
    }
    maxPerSecond[second] = Math.max(maxPerSecond[second], latency);
  }

  /** The decimal digits at {@code from}, as a number. */
  private static long number(byte[] bytes, int from, int end) {
    long value = 0;
    for (int i = from; i < end && bytes[i] >= '0' && bytes[i] <= '9'; i++) {
      value = value * 10 + (bytes[i] - '0');
    }
    return value;
  }

  private static boolean startsWith(byte[] bytes, int start, int end, byte[] prefix) {
    if (end - start < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[start + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] bytes, int from, int end, byte[] needle) {
    outer:
    for (int i = from; i + needle.length <= end; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (bytes[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
