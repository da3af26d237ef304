package dev.canvasagent.document.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The applier's edges, one by one; {@link GitApplyConformanceTest} holds them all to git. */
class StrictPatchTest {
  private static final String DOC = "# Title\n\nalpha\nbeta\ngamma\ndelta\n";

  private final StrictPatch patches = new StrictPatch(MissingFinalNewline.CORRUPT);

  @Test
  void appliesAHunkWhereItsHeaderSays() {
    var applied = applied(DOC, "@@ -3,3 +3,3 @@\n alpha\n-beta\n+BETA\n gamma\n");
    assertEquals("# Title\n\nalpha\nBETA\ngamma\ndelta\n", applied.text());
    assertEquals(List.of(new HunkPlacement(1, 3, 3)), applied.placements());
  }

  @Test
  void findsMovedContextAndReportsTheOffset() {
    var moved = "intro\nmore intro\n" + DOC;
    var applied = applied(moved, "@@ -3,3 +3,3 @@\n alpha\n-beta\n+BETA\n gamma\n");
    assertEquals("intro\nmore intro\n# Title\n\nalpha\nBETA\ngamma\ndelta\n", applied.text());
    assertEquals(2, applied.placements().get(0).offset());
    var earlier =
        applied("alpha\nbeta\ngamma\nzeta\n", "@@ -5,3 +5,3 @@\n alpha\n-beta\n+B\n gamma\n");
    assertEquals(-4, earlier.placements().get(0).offset());
  }

  @Test
  void theNearestMatchWinsAndATieGoesToTheLaterLine() {
    var doc = "x\nk\ny\n1\n2\n3\nx\nk\ny\n";
    var patch = "@@ -4,3 +4,3 @@\n x\n-k\n+K\n y\n";
    var nearer = applied(doc, patch.replace("-4,3 +4,3", "-6,3 +6,3"));
    assertEquals("x\nk\ny\n1\n2\n3\nx\nK\ny\n", nearer.text());
    var tie = applied(doc, patch);
    assertEquals("x\nk\ny\n1\n2\n3\nx\nK\ny\n", tie.text());
    assertEquals(3, tie.placements().get(0).offset());
    var before = applied(doc, patch.replace("-4,3 +4,3", "-3,3 +3,3"));
    assertEquals("x\nK\ny\n1\n2\n3\nx\nk\ny\n", before.text());
  }

  @Test
  void aHunkStartingAtLineOneIsAnchoredToTheStart() {
    var patch = "@@ -1,2 +1,2 @@\n-# Title\n+# New title\n \n";
    assertEquals("# New title\n\nalpha\nbeta\ngamma\ndelta\n", applied(DOC, patch).text());
    var rejection = rejected("preface\n" + DOC, patch, 1);
    assertTrue(
        rejection.message().contains("must apply at the start of the document"),
        rejection.message());
    assertEquals(1, rejection.documentLine());
  }

  @Test
  void aHunkWithoutTrailingContextIsAnchoredToTheEnd() {
    var patch = "@@ -5,2 +5,2 @@\n gamma\n-delta\n+DELTA\n";
    assertEquals("# Title\n\nalpha\nbeta\ngamma\nDELTA\n", applied(DOC, patch).text());
    var rejection = rejected(DOC + "epilogue\n", patch, 1);
    assertTrue(
        rejection.message().contains("must apply at the end of the document"), rejection.message());
  }

  @Test
  void theFinalNewlineIsAddedOrRemovedByTheMarker() {
    var removed = applied("a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n");
    assertEquals("a\nb", removed.text());
    var added = applied("a\nb", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
    assertEquals("a\nb\n", added.text());
    var rejection = rejected("a\nb", "@@ -1,2 +1,2 @@\n a\n-b\n+c\n", 1);
    assertTrue(rejection.message().contains("expected \"b\\n\", found \"b\""), rejection.message());
  }

  @Test
  void crlfLinesMatchOnlyByteForByte() {
    var doc = "one\r\ntwo\r\nthree\r\n";
    assertEquals(
        "one\r\n2\r\nthree\r\n",
        applied(doc, "@@ -1,3 +1,3 @@\n one\r\n-two\r\n+2\r\n three\r\n").text());
    var rejection = rejected(doc, "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n", 1);
    assertEquals(RejectionReason.CONTEXT_MISMATCH, rejection.reason());
    assertTrue(
        rejection
            .message()
            .contains("context mismatch at line 1: expected \"one\\n\"," + " found \"one\\r\\n\""),
        rejection.message());
  }

  @Test
  void unicodeIsPlainText() {
    var doc = "## Café ☕\n- 日本語\n- emoji 🎉👩‍💻\n";
    assertEquals(
        "## Café ☕\n- 日本語\n- emoji 🎊\n",
        applied(doc, "@@ -2,2 +2,2 @@\n - 日本語\n-- emoji 🎉👩‍💻\n+- emoji 🎊\n").text());
  }

  @Test
  void anEmptyDocumentTakesAPatchThatAddsToItAndAPatchCanEmptyIt() {
    assertEquals("first\nsecond\n", applied("", "@@ -0,0 +1,2 @@\n+first\n+second\n").text());
    assertEquals("", applied("first\nsecond\n", "@@ -1,2 +0,0 @@\n-first\n-second\n").text());
    rejected("", "@@ -1 +1 @@\n-first\n+second\n", 1);
  }

  @Test
  void allOrNothingTheFirstFailingHunkIsNamed() {
    var patch = "@@ -3,2 +3,2 @@\n-alpha\n+ALPHA\n beta\n@@ -5,2 +5,2 @@\n-gamma\n+GAMMA\n zeta\n";
    var rejection = rejected(DOC, patch, 2);
    assertEquals(5, rejection.patchLine());
    assertEquals(6, rejection.documentLine());
    assertTrue(
        rejection
            .message()
            .startsWith(
                "hunk 2 (@@ -5,2 +5,2 @@) does not apply: "
                    + "context mismatch at line 6: expected \"zeta\\n\", found \"delta\\n\"; its old lines"
                    + " are nowhere else in the document either"),
        rejection.message());
  }

  @Test
  void aLaterHunkCannotMatchLinesAnEarlierHunkWrote() {
    var doc = "a\nb\nc\nd\n";
    var patch = "@@ -1,2 +1,3 @@\n a\n+x\n b\n@@ -2,3 +3,3 @@\n x\n-b\n+y\n c\n";
    var rejection = rejected(doc, patch, 2);
    assertTrue(rejection.message().contains("written by an earlier hunk"), rejection.message());
  }

  @Test
  void aHeaderlessPatchAndOneWithGitHeadersApplyAlike() {
    var hunk = "@@ -4,2 +4,2 @@\n-beta\n+BETA\n gamma\n";
    var headers =
        "diff --git a/doc.md b/doc.md\nindex 0000001..0000002 100644\n--- a/doc.md\n"
            + "+++ b/doc.md\n";
    assertEquals(applied(DOC, hunk).text(), applied(DOC, headers + hunk).text());
  }

  @Test
  void aParseRejectionComesBackThroughTheSameResult() {
    var result = patches.apply(DOC, "");
    var rejection = assertInstanceOf(ApplyResult.Rejected.class, result).rejection();
    assertEquals(RejectionReason.EMPTY_PATCH, rejection.reason());
  }

  private ApplyResult.Applied applied(String document, String patch) {
    var result = patches.apply(document, patch);
    if (result instanceof ApplyResult.Rejected rejected) {
      throw new AssertionError(rejected.rejection().message());
    }
    return (ApplyResult.Applied) result;
  }

  private PatchRejection rejected(String document, String patch, int hunk) {
    var rejection =
        assertInstanceOf(ApplyResult.Rejected.class, patches.apply(document, patch)).rejection();
    assertEquals(RejectionReason.CONTEXT_MISMATCH, rejection.reason(), rejection.message());
    assertEquals(hunk, rejection.hunk(), rejection.message());
    return rejection;
  }
}
