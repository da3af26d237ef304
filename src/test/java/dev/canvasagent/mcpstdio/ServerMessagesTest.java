package dev.canvasagent.mcpstdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The server's messages reach stdout compact and whole, and responses are told by their id. */
class ServerMessagesTest {

  @Test
  void compactingDropsWhitespaceBetweenTokensAndKeepsStringsAndNumbers() {
    assertEquals(
        "{\"a\":\"x  y \\\" z\\\\\",\"n\":1.10,\"big\":12345678901234567890123}",
        ServerMessages.compact(
            "{\n  \"a\" : \"x  y \\\" z\\\\\",\r\n\t\"n\": 1.10,\n  \"big\": 12345678901234567890123\n}"));
  }

  @Test
  void aResponseIsToldByItsIdWhateverTheNumbersType() {
    assertTrue(ServerMessages.answers(new JsonObject().put("id", 7L).put("result", 1), 7));
    assertFalse(
        ServerMessages.answers(new JsonObject().put("id", 7).put("method", "x"), 7),
        "a request from the server with the same id is no answer");
    assertFalse(ServerMessages.answers(new JsonObject().put("id", "7").put("result", 1), 7));
  }
}
