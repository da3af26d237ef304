package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines as the tools count them: split on \n only, the final newline kept or not as it was. */
class LineEditsTest {
  @Test
  void textRoundTripsWithAndWithoutItsFinalNewlineAndKeepsCarriageReturns() {
    for (String text : List.of("", "a", "a\n", "a\r\nb\r\n", "\n\n", "x\ny")) {
      assertEquals(text, DocumentText.of(text).text(), text);
    }
    assertEquals(List.of("a\r", "b\r"), DocumentText.of("a\r\nb\r\n").lines());
    assertEquals(0, DocumentText.lineCount(""));
    assertEquals(2, DocumentText.lineCount("x\ny"));
  }

  @Test
  void editsKeepTheDocumentsFinalNewlineChoice() {
    assertEquals("a\nB\nc", LineEdits.replace("a\nb\nc", 2, 2, "B", null).content());
    assertEquals("a\nc", LineEdits.delete("a\nb\nc", 2, 2, null).content());
    assertEquals(
        "a\nb\nc\n",
        LineEdits.insert("a\nb", 2, "c", null).content(),
        "a line added after an unterminated last line ends with one");
    assertEquals("z\na\n", LineEdits.insert("a\n", 0, "z", null).content());
    assertEquals("b\n", LineEdits.insert("", 0, "b\n", null).content());
    assertEquals("a\nx\ny\nc\n", LineEdits.replace("a\nb\nc\n", 2, 2, "x\ny\n", null).content());
  }

  @Test
  void outOfRangeLinesAreRefusedByName() {
    Failure past = assertThrows(Failure.class, () -> LineEdits.delete("a\n", 1, 2, null));
    assertEquals(FailureCode.INVALID_REQUEST, past.code());
    assertEquals("lines 1..2 are outside the document's 1 lines", past.getMessage());
    assertThrows(Failure.class, () -> LineEdits.replace("a\nb\n", 2, 1, "x", null));
    assertThrows(Failure.class, () -> LineEdits.insert("a\n", 2, "x", null));
  }

  @Test
  void revisionIdsAreSixteenHexDigitsOfTheSha256() {
    // sha256("") = e3b0c44298fc1c149afbf4c8996fb924...
    assertEquals("e3b0c44298fc1c14", DocumentText.revisionId(""));
  }
}
