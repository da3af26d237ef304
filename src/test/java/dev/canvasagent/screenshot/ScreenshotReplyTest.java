package dev.canvasagent.screenshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The checks on a host's reply, beyond the ones the verticle test drives over the event bus. */
class ScreenshotReplyTest {
  static final int MAX_BYTES = 4096;

  static JsonObject reply(String mime, String dataUrl, Object bytes) {
    return new JsonObject()
        .put("requestId", "request-1")
        .put("clientId", "client-1")
        .put(
            "image", new JsonObject().put("mime", mime).put("dataUrl", dataUrl).put("bytes", bytes))
        .put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 10))
        .put("viewport", new JsonObject().put("x", 0.5).put("y", -3).put("w", 100).put("h", 80));
  }

  static String dataUrl(String mime, int bytes) {
    return "data:" + mime + ";base64," + Base64.getEncoder().encodeToString(new byte[bytes]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"image/png", "image/jpeg", "image/webp"})
  void eachImageTypeAHostMaySendIsTaken(String mime) throws ScreenshotReply.Rejected {
    JsonObject answer =
        ScreenshotReply.accept(reply(mime, dataUrl(mime, 100), 100), MAX_BYTES).toJson();

    assertEquals(mime, answer.getJsonObject("image").getString("mime"));
    assertEquals(new JsonArray(), answer.getJsonArray("selection"), "no selection is an empty one");
    assertFalse(answer.containsKey("docVersion"));
  }

  @Test
  void theAnswerCarriesTheSizeOfTheImageAsDecodedNotAsClaimed() throws ScreenshotReply.Rejected {
    JsonObject answer =
        ScreenshotReply.accept(reply("image/png", dataUrl("image/png", 300), 12), MAX_BYTES)
            .toJson();

    assertEquals(300, answer.getJsonObject("image").getInteger("bytes"));
  }

  @Test
  void anImageOfExactlyTheLimitIsTaken() throws ScreenshotReply.Rejected {
    JsonObject answer =
        ScreenshotReply.accept(
                reply("image/png", dataUrl("image/png", MAX_BYTES), MAX_BYTES), MAX_BYTES)
            .toJson();

    assertEquals(MAX_BYTES, answer.getJsonObject("image").getInteger("bytes"));
  }

  @Test
  void aByteCountThatIsNotAWholeNumberIsMalformed() {
    ScreenshotReply.Rejected rejected =
        assertThrows(
            ScreenshotReply.Rejected.class,
            () ->
                ScreenshotReply.accept(
                    reply("image/png", dataUrl("image/png", 8), 8.5), MAX_BYTES));

    assertEquals(ReplyRejection.MALFORMED, rejected.reason());
  }

  @Test
  void whatARejectionSaysIsShortAndOnOneLine() {
    String mime = "image/" + "x".repeat(1_000) + "\n";
    ScreenshotReply.Rejected rejected =
        assertThrows(
            ScreenshotReply.Rejected.class,
            () -> ScreenshotReply.accept(reply(mime, "data:", 8), MAX_BYTES));

    assertEquals(ReplyRejection.BAD_MIME, rejected.reason());
    assertFalse(rejected.getMessage().contains("\n"), rejected.getMessage());
    assertFalse(rejected.getMessage().length() > 200, rejected.getMessage());
  }
}
