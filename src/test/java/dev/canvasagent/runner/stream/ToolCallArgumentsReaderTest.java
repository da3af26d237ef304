package dev.canvasagent.runner.stream;

import static dev.canvasagent.runner.stream.PartialConsistency.assertConsistent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ToolCallArgumentsReaderTest {
  private static final EnumFields ENUMS = new EnumFields(ActionCatalog.standard());

  /** As a model writes it: escapes, multi-byte UTF-8 (2, 3 and 4 bytes), numbers, literals, nesting. */
  static final String ARGUMENTS =
      "{\"id\":\"hero\", \"type\":\"rectangle\",\"x\":-12.5,\"y\":120,\"rotation\":1e2,"
          + "\"text\":\"Caf\\u00e9 \\\"quoted\\\" \\\\ back \\/ tab\\t — é ✓ 😀 \\ud83d\\ude00 end\","
          + "\"props\":{\"w\":320,\"h\":160,\"color\":\"blue\",\"fill\":\"semi\",\"closed\":true,\"name\":\"\"},"
          + "\"points\":[{\"x\":0,\"y\":0},{\"x\":10,\"y\":-3}],\"flag\":false,\"nothing\":null,\"empty\":{},\"none\":[]}";

  private static final JsonObject EXPECTED = new JsonObject(ARGUMENTS);

  @Test
  void everyTwoChunkCutOfTheBytesGivesTheWholeArgumentsAndAConsistentSnapshot() {
    byte[] bytes = ARGUMENTS.getBytes(StandardCharsets.UTF_8);
    for (int cut = 0; cut <= bytes.length; cut++) {
      ToolCallArgumentsReader reader = new ToolCallArgumentsReader("create_shape");
      reader.feed(bytes, 0, cut);
      assertConsistent("create_shape", reader.snapshot(ENUMS), EXPECTED, ENUMS);
      reader.feed(bytes, cut, bytes.length - cut);
      assertEquals(EXPECTED, reader.arguments().orElseThrow(), "cut at byte " + cut);
      assertEquals(EXPECTED, reader.snapshot(ENUMS));
    }
  }

  @Test
  void byteByByteEverySnapshotIsABeginningOfTheAnswerAndStringsShowAsTheyAreWritten() {
    byte[] bytes = ARGUMENTS.getBytes(StandardCharsets.UTF_8);
    ToolCallArgumentsReader reader = new ToolCallArgumentsReader("create_shape");
    boolean sawPartialText = false;
    boolean sawText = false;
    for (int i = 0; i < bytes.length; i++) {
      assertTrue(reader.arguments().isEmpty());
      reader.feed(bytes, i, 1);
      JsonObject snapshot = reader.snapshot(ENUMS);
      assertConsistent("create_shape", snapshot, EXPECTED, ENUMS);
      String text = snapshot.getString("text");
      if (text != null) {
        sawText = true;
        sawPartialText |= !text.equals(EXPECTED.getString("text"));
      }
    }
    assertTrue(sawText && sawPartialText, "the label was shown while it was being written");
    assertEquals(EXPECTED, reader.arguments().orElseThrow());
  }

  @Test
  void everyCutOfTheTextIncludingInsideASurrogatePairGivesTheWholeArguments() {
    for (int cut = 0; cut <= ARGUMENTS.length(); cut++) {
      ToolCallArgumentsReader reader = new ToolCallArgumentsReader("create_shape");
      reader.feed(ARGUMENTS.substring(0, cut));
      assertConsistent("create_shape", reader.snapshot(ENUMS), EXPECTED, ENUMS);
      reader.feed(ARGUMENTS.substring(cut));
      assertEquals(EXPECTED, reader.arguments().orElseThrow(), "cut at char " + cut);
    }
  }

  @Test
  void numbersAndEnumsAreHeldBackUntilCompleteOtherStringsAreNot() {
    ToolCallArgumentsReader reader = new ToolCallArgumentsReader("create_shape");
    reader.feed("{\"x\":12");
    assertEquals(new JsonObject(), reader.snapshot(ENUMS), "12 may become 120");
    reader.feed("0,\"type\":\"rect");
    assertEquals(
        new JsonObject().put("x", 120), reader.snapshot(ENUMS), "half a type is held back");
    reader.feed("angle\",\"text\":\"Hel");
    assertEquals(
        new JsonObject().put("x", 120).put("type", "rectangle").put("text", "Hel"),
        reader.snapshot(ENUMS));
    reader.feed("lo\",\"props\":{\"color\":\"bl");
    assertEquals(
        new JsonObject()
            .put("x", 120)
            .put("type", "rectangle")
            .put("text", "Hello")
            .put("props", new JsonObject()),
        reader.snapshot(ENUMS));
    reader.feed("ue\",\"w\":3");
    assertEquals(
        new JsonObject().put("color", "blue"), reader.snapshot(ENUMS).getJsonObject("props"));
    reader.feed("00}, \"id\":\"a\\u00");
    assertEquals("a", reader.snapshot(ENUMS).getString("id"), "half an escape waits");
    reader.feed("e9\"}");
    assertEquals("a\u00e9", reader.arguments().orElseThrow().getString("id"));
    assertEquals(300, reader.arguments().orElseThrow().getJsonObject("props").getInteger("w"));
  }

  @Test
  void argumentsThatAreNotAJsonObjectAreRefusedByName() {
    MalformedActions notAnObject =
        assertThrows(
            MalformedActions.class, () -> new ToolCallArgumentsReader("move").feed("[1,2]"));
    assertTrue(notAnObject.getMessage().contains("move"), notAnObject.getMessage());
    ToolCallArgumentsReader reader = new ToolCallArgumentsReader("move");
    reader.feed("{\"dx\":1");
    MalformedActions broken = assertThrows(MalformedActions.class, () -> reader.feed(",,}"));
    assertTrue(broken.getMessage().startsWith("invalid JSON near byte"), broken.getMessage());
  }

  @Test
  void aLongLabelStreamedByteByByteWithASnapshotAfterEachByteIsReadInOnePass() {
    String label = "Ünïcödé ✓ 😀 \\\"q\\\" ".repeat(1_000);
    byte[] bytes = ("{\"text\":\"" + label + "\"}").getBytes(StandardCharsets.UTF_8);
    ToolCallArgumentsReader reader = new ToolCallArgumentsReader("label");
    for (int i = 0; i < bytes.length; i++) {
      reader.feed(bytes, i, 1);
      reader.snapshot(ENUMS);
    }
    assertFalse(reader.arguments().isEmpty());
    assertEquals(bytes.length, reader.bytesFed(), "each byte fed to the parser once");
    assertTrue(
        reader.extraBytesVisited() <= 3L * bytes.length,
        "bytes visited besides the parser's pass: "
            + reader.extraBytesVisited()
            + " for "
            + bytes.length);
  }
}
