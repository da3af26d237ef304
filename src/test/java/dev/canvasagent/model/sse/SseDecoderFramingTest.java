package dev.canvasagent.model.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseDecoderFramingTest {

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
    List<SseDecoder.Event> events =
        decodeByteByByte("data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\n");
    assertEquals(List.of("a", "b", "c", "d"), events.stream().map(SseDecoder.Event::data).toList());
  }

  @Test
  void commentsAreIgnoredAndDataLinesAreJoined() {
    List<SseDecoder.Event> events =
        decodeByteByByte(
            ": OPENROUTER PROCESSING\n\nevent: ping\ndata: {\"a\":\ndata:1}\nid: 7\nretry: 10\n\n");
    assertEquals(List.of(new SseDecoder.Event("ping", "{\"a\":\n1}")), events);
  }

  @Test
  void multiByteCharactersSplitAcrossBuffersDecodeWhole() {
    List<SseDecoder.Event> events = decodeByteByByte("\uFEFFdata: café — 🟦 → ’\n\n");
    assertEquals(List.of(new SseDecoder.Event("message", "café — 🟦 → ’")), events);
  }

  @Test
  void endFlushesAnEventWithoutItsBlankLine() {
    List<SseDecoder.Event> events = decodeByteByByte("data: first\n\nevent: last\ndata: [DONE]");
    assertEquals(
        List.of(new SseDecoder.Event("message", "first"), new SseDecoder.Event("last", "[DONE]")),
        events);
  }

  @Test
  void blankLinesWithoutDataDispatchNothingAndResetTheEventName() {
    List<SseDecoder.Event> events = decodeByteByByte("event: orphan\n\n\n\ndata:x\n\n");
    assertEquals(List.of(new SseDecoder.Event("message", "x")), events);
  }
}
