package dev.canvasagent.document.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class UnifiedDiffParserTest {
  private static final String HEADERS =
      "diff --git a/doc.md b/doc.md\nindex 1234567..89abcde 100644\n"
          + "--- a/doc.md\n+++ b/doc.md\n";
  private static final String HUNK = "@@ -1,2 +1,2 @@\n a\n-b\n+B\n";

  private final UnifiedDiffParser parser = new UnifiedDiffParser(MissingFinalNewline.CORRUPT);

  @Test
  void readsHunksWithAndWithoutHeaders() {
    for (var patch :
        List.of(
            HUNK, HEADERS + HUNK, "--- a/doc.md\n+++ b/doc.md\n" + HUNK, "\n" + HUNK + "\n\n")) {
      var diff = parsed(patch);
      var hunk = diff.hunks().get(0);
      assertEquals(List.of("a\n", "b\n"), hunk.preimage(), patch);
      assertEquals(List.of("a\n", "B\n"), hunk.postimage(), patch);
      assertEquals(0, hunk.trailingContext());
    }
  }

  @Test
  void countsMayBeLeftOutWhenTheyAreOne() {
    var hunk = parsed("@@ -3 +3 @@ ## Section\n-old\n+new\n").hunks().get(0);
    assertEquals(
        List.of(3, 1, 3, 1),
        List.of(hunk.oldStart(), hunk.oldCount(), hunk.newStart(), hunk.newCount()));
  }

  @Test
  void aTrulyEmptyLineIsAnEmptyContextLineAsGitReadsIt() {
    var hunk = parsed("@@ -1,3 +1,3 @@\n a\n\n-c\n+C\n").hunks().get(0);
    assertEquals(List.of("a\n", "\n", "c\n"), hunk.preimage());
  }

  @Test
  void carriageReturnsStayPartOfTheLine() {
    var hunk = parsed("@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n").hunks().get(0);
    assertEquals(List.of("a\r\n", "b\r\n"), hunk.preimage());
    assertEquals(List.of("a\r\n", "B\r\n"), hunk.postimage());
  }

  @Test
  void theNoNewlineMarkerTakesTheNewlineOffTheLineBeforeIt() {
    var hunk = parsed("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n").hunks().get(0);
    assertEquals(List.of("a\n", "b"), hunk.preimage());
    assertEquals(List.of("a\n", "b\n"), hunk.postimage());
    var localized = parsed("@@ -1 +1 @@\n-b\n+c\n\\ Kein Zeilenumbruch am Dateiende.\n");
    assertEquals(List.of("c"), localized.hunks().get(0).postimage());
  }

  @Test
  void severalHunksKeepTheirOrderAndNumbers() {
    var diff = parsed("@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -10,2 +10,2 @@\n x\n-y\n+Y\n");
    assertEquals(2, diff.hunks().size());
    assertEquals(2, diff.hunks().get(1).number());
    assertEquals(5, diff.hunks().get(1).headerLine());
    assertEquals(1, diff.hunks().get(0).trailingContext());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\n", "  \n\n"})
  void anEmptyPatchIsRefused(String patch) {
    assertRefused(patch, RejectionReason.EMPTY_PATCH, 0, 0);
  }

  @Test
  void headersWithoutAHunkAreAnEmptyPatch() {
    assertRefused(HEADERS, RejectionReason.EMPTY_PATCH, 0, 0);
  }

  @Test
  void binaryPatchesAreRefused() {
    assertRefused(
        "diff --git a/doc.md b/doc.md\nBinary files a/doc.md and b/doc.md differ\n",
        RejectionReason.BINARY_PATCH,
        0,
        2);
    assertRefused(
        "diff --git a/doc.md b/doc.md\nindex 1..2 100644\nGIT binary patch\nliteral 3\n",
        RejectionReason.BINARY_PATCH,
        0,
        3);
  }

  @Test
  void aSecondFileIsRefused() {
    assertRefused(
        HEADERS
            + HUNK
            + "diff --git a/other.md b/other.md\n--- a/other.md\n"
            + "+++ b/other.md\n"
            + HUNK,
        RejectionReason.SECOND_FILE,
        0,
        9);
    assertRefused(
        HUNK + "--- a/other.md\n+++ b/other.md\n" + HUNK, RejectionReason.SECOND_FILE, 0, 5);
    assertRefused(
        "--- a/doc.md\n+++ b/doc.md\n--- a/other.md\n+++ b/other.md\n" + HUNK,
        RejectionReason.SECOND_FILE,
        0,
        3);
  }

  @Test
  void creationDeletionRenameCopyAndModeChangesAreRefused() {
    assertRefused(
        "diff --git a/doc.md b/doc.md\nnew file mode 100644\n" + HUNK,
        RejectionReason.FILE_CREATION,
        0,
        2);
    assertRefused(
        "--- /dev/null\n+++ b/doc.md\n@@ -0,0 +1 @@\n+a\n", RejectionReason.FILE_CREATION, 0, 1);
    assertRefused(
        "diff --git a/doc.md b/doc.md\ndeleted file mode 100644\n" + HUNK,
        RejectionReason.FILE_DELETION,
        0,
        2);
    assertRefused(
        "--- a/doc.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n", RejectionReason.FILE_DELETION, 0, 2);
    assertRefused(
        "diff --git a/doc.md b/new.md\nsimilarity index 90%\nrename from doc.md\n"
            + "rename to new.md\n",
        RejectionReason.RENAME_OR_COPY, 0, 2);
    assertRefused(
        "diff --git a/doc.md b/copy.md\ncopy from doc.md\ncopy to copy.md\n",
        RejectionReason.RENAME_OR_COPY,
        0,
        2);
    assertRefused(
        "diff --git a/doc.md b/doc.md\nold mode 100644\nnew mode 100755\n",
        RejectionReason.MODE_CHANGE,
        0,
        2);
  }

  @Test
  void halfAHeaderIsRefused() {
    assertRefused("--- a/doc.md\n" + HUNK, RejectionReason.MALFORMED_HEADER, 0, 2);
    assertRefused("+++ b/doc.md\n" + HUNK, RejectionReason.MALFORMED_HEADER, 0, 1);
    assertRefused(
        "Here is the patch:\n+++ b/doc.md\n" + HUNK, RejectionReason.MALFORMED_HEADER, 0, 2);
  }

  @Test
  void textBeforeTheFirstSectionIsSkippedAsGitSkipsIt() {
    for (var patch :
        List.of(
            "```diff\n" + HUNK + "```\n",
            "Here is the patch:\n\n```patch\n" + HEADERS + HUNK + "```\n",
            "I'll capitalize b.\n- a list item\n+ another\n  indented\n~~~\n" + HUNK + "~~~\n")) {
      var hunk = parsed(patch).hunks().get(0);
      assertEquals(List.of("a\n", "B\n"), hunk.postimage(), patch);
    }
  }

  @Test
  void gitMetadataIsRefusedInTheTextAroundTheDiffToo() {
    assertRefused(
        "Here is the patch:\nnew file mode 100644\n" + HUNK, RejectionReason.FILE_CREATION, 0, 2);
    assertRefused(
        HUNK + "```\nBinary files a/doc.md and b/doc.md differ\n",
        RejectionReason.BINARY_PATCH,
        0,
        6);
    assertRefused(
        "```diff\n" + HUNK + "```\nrename from doc.md\n", RejectionReason.RENAME_OR_COPY, 0, 7);
  }

  /** Patches refused for a reason of their own, one per reason (and two ways to miscount). */
  static Stream<Arguments> refusedPatches() {
    return Stream.of(
        arguments(
            RejectionReason.BINARY_PATCH,
            "diff --git a/doc.md b/doc.md\nBinary files a/doc.md and b/doc.md differ\n"),
        arguments(
            RejectionReason.FILE_CREATION, "--- /dev/null\n+++ b/doc.md\n@@ -0,0 +1 @@\n+a\n"),
        arguments(
            RejectionReason.FILE_DELETION, "--- a/doc.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n"),
        arguments(
            RejectionReason.RENAME_OR_COPY,
            "diff --git a/doc.md b/new.md\nsimilarity index 90%\nrename from doc.md\n"),
        arguments(
            RejectionReason.MODE_CHANGE,
            "diff --git a/doc.md b/doc.md\nold mode 100644\nnew mode 100755\n"),
        arguments(RejectionReason.MALFORMED_HEADER, "--- a/doc.md\n" + HUNK),
        arguments(RejectionReason.MALFORMED_HUNK_HEADER, "@@ -1,2 +1,2\n a\n-b\n+B\n"),
        arguments(RejectionReason.HUNK_COUNT_MISMATCH, HUNK + " c\n"),
        arguments(RejectionReason.HUNK_COUNT_MISMATCH, "@@ -1,3 +1,3 @@\n a\n-b\n+B\n"),
        arguments(RejectionReason.CORRUPT_HUNK_LINE, "@@ -1,2 +1,2 @@\n a\n*b\n+B\n"),
        arguments(
            RejectionReason.CORRUPT_HUNK_LINE,
            "@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n"),
        arguments(RejectionReason.HUNK_WITHOUT_CHANGES, "@@ -1,2 +1,2 @@\n a\n b\n"),
        arguments(
            RejectionReason.SECOND_FILE,
            HEADERS + HUNK + "--- a/other.md\n+++ b/other.md\n" + HUNK),
        arguments(RejectionReason.UNEXPECTED_TEXT, HEADERS + "Here:\n" + HUNK));
  }

  @ParameterizedTest
  @MethodSource("refusedPatches")
  void aRefusalStaysTheSameRefusalInsideAFenceWithProseAround(
      RejectionReason reason, String patch) {
    assertEquals(reason, rejection(patch).reason(), patch);
    var wrapped = "Here is the patch:\n\n```diff\n" + patch + "```\n\nThis should do it.\n";
    assertEquals(reason, rejection(wrapped).reason(), wrapped);
  }

  @Test
  void aPatchWithNoDiffInItIsEmpty() {
    var rejection =
        assertRefused(
            "I could not find the line to change.\n```diff\n```\n",
            RejectionReason.EMPTY_PATCH,
            0,
            0);
    assertTrue(rejection.message().startsWith("no diff in the patch"), rejection.message());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "@@ -1,2 +1,2\n",
        "@@ @@\n",
        "@@ -a,2 +1,2 @@\n",
        "@@ -1,2 +1,2@@\n",
        "@@  -1,2 +1,2 @@\n",
        "@@ -1,2 +9999999999 @@\n"
      })
  void aMalformedHunkHeaderIsRefusedWithItsHunkAndLine(String header) {
    var rejection =
        assertRefused(
            HEADERS + header + " a\n-b\n+B\n", RejectionReason.MALFORMED_HUNK_HEADER, 1, 5);
    assertTrue(
        rejection.message().startsWith("hunk 1, patch line 5: malformed hunk header"),
        rejection.message());
  }

  @Test
  void hunkLinesMustAddUpToTheHeadersCounts() {
    var ended =
        assertRefused("@@ -1,3 +1,3 @@\n a\n-b\n+B\n", RejectionReason.HUNK_COUNT_MISMATCH, 1, 1);
    assertTrue(ended.message().contains("1 more old and 1 more new"), ended.message());
    var extra =
        assertRefused(
            "@@ -1,2 +1,2 @@\n a\n-b\n+B\n c\n", RejectionReason.HUNK_COUNT_MISMATCH, 1, 5);
    assertTrue(extra.message().contains("one too many"), extra.message());
    assertRefused("@@ -1,2 +1,2 @@\n a\n-b\n-c\n+B\n", RejectionReason.HUNK_COUNT_MISMATCH, 1, 4);
    assertRefused(
        "@@ -1,2 +1,3 @@\n a\n-b\n+B\n@@ -5 +6 @@\n-x\n+y\n",
        RejectionReason.HUNK_COUNT_MISMATCH,
        1,
        5);
    assertRefused(
        "@@ -1,2 +1,2 @@\n a\n-b\n+B\n\n@@ -5 +5 @@\n-x\n+y\n",
        RejectionReason.HUNK_COUNT_MISMATCH,
        1,
        5);
  }

  @Test
  void aLineWithAnUnknownPrefixIsCorrupt() {
    assertRefused("@@ -1,2 +1,2 @@\n a\n*b\n+B\n", RejectionReason.CORRUPT_HUNK_LINE, 1, 3);
    assertRefused(
        "@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n",
        RejectionReason.CORRUPT_HUNK_LINE,
        1,
        2);
    assertRefused("@@ -1 +1 @@\n-a\n\\ no\n+b\n", RejectionReason.CORRUPT_HUNK_LINE, 1, 3);
  }

  @Test
  void aHunkThatChangesNothingIsRefused() {
    assertRefused("@@ -1,2 +1,2 @@\n a\n b\n", RejectionReason.HUNK_WITHOUT_CHANGES, 1, 1);
  }

  @Test
  void textAfterACompleteHunkEndsTheRunAndIsSkipped() {
    for (var tail :
        List.of(
            "\n  \n",
            "```\n",
            "```\n\nThis changes b.\n",
            "\nThis capitalizes b.",
            "~~~\n",
            "---\nThat is all.\n",
            "\n- capitalized b\n- kept a\n")) {
      var diff = parsed(HUNK + tail);
      assertEquals(1, diff.sections().size(), tail);
      assertEquals(List.of("a\n", "B\n"), diff.hunks().get(0).postimage(), tail);
    }
  }

  @Test
  void hunkLinesAfterACompleteHunkAreOneTooManyEvenAfterBlankLines() {
    assertRefused(HUNK + "\n\n c\n```\n", RejectionReason.HUNK_COUNT_MISMATCH, 1, 5);
    assertRefused(HUNK + "+C\n```\n", RejectionReason.HUNK_COUNT_MISMATCH, 1, 5);
    assertRefused(HUNK + "--- not a header\n", RejectionReason.HUNK_COUNT_MISMATCH, 1, 5);
    // Directly under the hunk, "- c" is a removed line too many, not a list item.
    assertRefused(HUNK + "- c\n", RejectionReason.HUNK_COUNT_MISMATCH, 1, 5);
  }

  @Test
  void aFenceThatClosesInsideAHunkLeavesItShortOfLines() {
    var rejection =
        assertRefused(
            "```diff\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n```\n",
            RejectionReason.HUNK_COUNT_MISMATCH,
            1,
            6);
    assertTrue(
        rejection
            .message()
            .contains(
                "the fence closes inside the hunk: its header \"@@ -1,3 +1,3 @@\" promises 1"),
        rejection.message());
    var prose =
        assertRefused(
            "@@ -1,3 +1,3 @@\n a\n-b\n+B\nThis changes b.\n",
            RejectionReason.CORRUPT_HUNK_LINE,
            1,
            5);
    assertTrue(prose.message().contains("promises 1 more old and 1 more new"), prose.message());
  }

  @Test
  void sectionsForTheSameFileAreReadInTurn() {
    var second = "@@ -3 +3 @@\n-c\n+C\n";
    for (var patch :
        List.of(
            HEADERS + HUNK + HEADERS + second,
            "--- a/doc.md\t2024-05-01 10:00:00\n+++ b/doc.md\n"
                + HUNK
                + "--- doc.md\n+++ doc.md\n"
                + second,
            "```diff\n" + HEADERS + HUNK + "```\nThen:\n```diff\n" + second + "```\n",
            "```diff\n" + HUNK + "```\n\nAnd:\n\n```diff\n" + second + "```\n")) {
      var diff = parsed(patch);
      assertEquals(2, diff.sections().size(), patch);
      assertEquals(List.of(1, 2), diff.hunks().stream().map(Hunk::number).toList(), patch);
      assertEquals(List.of("C\n"), diff.sections().get(1).hunks().get(0).postimage(), patch);
    }
  }

  @Test
  void aSectionNamingAFileAfterOneNamingNoneIsASecondFile() {
    var rejection =
        assertRefused(
            "```diff\n" + HUNK + "```\n```diff\n" + HEADERS + HUNK + "```\n",
            RejectionReason.SECOND_FILE,
            0,
            8);
    assertTrue(
        rejection.message().contains("the first section names no file"), rejection.message());
    assertRefused(
        HEADERS + HUNK + "Now the other file:\n--- a/other.md\n+++ b/other.md\n" + HUNK,
        RejectionReason.SECOND_FILE,
        0,
        10);
  }

  @Test
  void aHunkHeaderMayEndInACarriageReturnAsInACrlfPatch() {
    var hunk = parsed("--- a/doc.md\r\n+++ b/doc.md\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+B\r\n");
    assertEquals(List.of("a\r\n", "B\r\n"), hunk.hunks().get(0).postimage());
  }

  @Test
  void aMissingFinalNewlineIsCorruptAsInGitOrToleratedAtTheVeryEnd() {
    var cut = HUNK.substring(0, HUNK.length() - 1);
    var rejection = assertRefused(cut, RejectionReason.MISSING_FINAL_NEWLINE, 1, 4);
    assertTrue(rejection.message().contains("corrupt"), rejection.message());
    var tolerant = new UnifiedDiffParser(MissingFinalNewline.TOLERATED);
    var diff = assertInstanceOf(ParseResult.Parsed.class, tolerant.parse(cut)).diff();
    assertEquals(List.of("a\n", "B\n"), diff.hunks().get(0).postimage());
    var marker = "@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file";
    assertEquals(List.of("b"), parsed(marker).hunks().get(0).postimage());
  }

  private UnifiedDiff parsed(String patch) {
    var result = parser.parse(patch);
    if (result instanceof ParseResult.Rejected rejected) {
      throw new AssertionError(rejected.rejection().message());
    }
    return ((ParseResult.Parsed) result).diff();
  }

  private PatchRejection rejection(String patch) {
    return assertInstanceOf(ParseResult.Rejected.class, parser.parse(patch), patch).rejection();
  }

  private PatchRejection assertRefused(
      String patch, RejectionReason reason, int hunk, int patchLine) {
    var rejection = rejection(patch);
    assertEquals(reason, rejection.reason(), rejection.message());
    assertEquals(hunk, rejection.hunk(), rejection.message());
    assertEquals(patchLine, rejection.patchLine(), rejection.message());
    assertEquals(0, rejection.documentLine());
    return rejection;
  }
}
