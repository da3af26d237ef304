package dev.canvasagent.model.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SSE decoder follows the WHATWG rules whatever the line endings and however the bytes are split. */
class SseDecoderTest {

  private static List<SseDecoder.Event> decodeByteByByte(String body) {
    List<SseDecoder.Event> events = new ArrayList<>();
    SseDecoder decoder = new SseDecoder(events::add);
    for (byte b : body.getBytes(StandardCharsets.UTF_8)) {
      decoder.feed(Buffer.buffer(new byte[] {b}));
    }
    decoder.end();
    return events;
  }

  @Test
  void lfCrlfAndCrLineEndingsAllSeparateEvents() {
    List<SseDecoder.Event> expected =
        List.of(new SseDecoder.Event("a", "1"), new SseDecoder.Event("message", "2"));
    assertEquals(expected, decodeByteByByte("event: a\ndata: 1\n\ndata: 2\n\n"));
    assertEquals(expected, decodeByteByByte("event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n"));
    assertEquals(expected, decodeByteByByte("event: a\rdata: 1\r\rdata: 2\r\r"));
  }

  @Test
  void commentsAreIgnoredAndDataLinesAreJoinedWithNewlines() {
    assertEquals(
        List.of(new SseDecoder.Event("message", "first\nsecond")),
        decodeByteByByte(": OPENROUTER PROCESSING\n\ndata: first\n: keep-alive\ndata:second\n\n"));
  }

  @Test
  void multiByteCharactersSplitAcrossBuffersSurvive() {
    assertEquals(
        List.of(new SseDecoder.Event("message", "Café — → 🧭")),
        decodeByteByByte("data: Café — → 🧭\n\n"));
  }

  @Test
  void aLastEventWithoutItsBlankLineIsFlushedAtTheEnd() {
    assertEquals(
        List.of(new SseDecoder.Event("done", "[DONE]")),
        decodeByteByByte("event: done\ndata: [DONE]"));
  }

  @Test
  void theLastEventIdIsKeptAcrossEventsForAReconnection() {
    SseDecoder decoder = new SseDecoder(event -> {});
    assertEquals("", decoder.lastEventId());
    decoder.feed(Buffer.buffer("id: e1\ndata: 1\n\ndata: 2\n\n"));
    assertEquals("e1", decoder.lastEventId(), "an event without an id keeps the last one");
    decoder.feed(Buffer.buffer("id: e\u0000x\ndata: 3\n\n"));
    assertEquals("e1", decoder.lastEventId(), "an id holding NUL is ignored");
    decoder.feed(Buffer.buffer("id: e3\ndata: 4\n\n"));
    assertEquals("e3", decoder.lastEventId());
  }
}
