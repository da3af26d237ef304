package dev.canvasagent.document.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.document.patch.GitWorkspace.Case;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Patches in the shapes models send them, one pattern each, held to real {@code git apply}: what the
 * engine makes of the text as sent must be what git makes of it (git skips fences and prose too), or
 * of the repaired patch where the engine tolerates more than git (headers left out, blank lines
 * after the headers, no final newline). The refusals at the end stay refusals.
 */
class ModelPatchPatternsTest {
  private static final String NOTES =
      "# Release notes\n\n## Intro\n\nCanvas agent edits documents.\n\n## Changes\n\n"
          + "- lease fencing\n- strict patches\n";
  private static final String HEADERS = "--- a/notes.md\n+++ b/notes.md\n";
  private static final String INTRO =
      "@@ -4,3 +4,3 @@\n \n-Canvas agent edits documents.\n+Canvas agent edits documents under a"
          + " lease.\n \n";
  private static final String TITLE =
      "@@ -1,2 +1,2 @@\n-# Release notes\n+# Release notes (2.0)\n \n";
  private static final String LIST =
      "@@ -9,2 +9,3 @@\n - lease fencing\n - strict patches\n+- patches as models write them\n";

  /** What a model sent, and what git is given for it (the same text, or the repaired patch). */
  record Pattern(String name, String document, String sent, String repaired) {
    static Pattern asSent(String name, String document, String sent) {
      return new Pattern(name, document, sent, sent);
    }
  }

  @TempDir Path temp;
  private GitWorkspace git;
  private final StrictPatch engine = new StrictPatch(MissingFinalNewline.TOLERATED);

  @BeforeEach
  void git() throws IOException {
    git = new GitWorkspace(temp);
  }

  @Test
  void eachPatternGivesWhatGitGives() throws Exception {
    var crlf = NOTES.replace("\n", "\r\n");
    var crlfPatch =
        "Here you go:\r\n```diff\r\n--- a/notes.md\r\n+++ b/notes.md\r\n@@ -1,2 +1,2 @@\r\n"
            + "-# Release notes\r\n+# Notes\r\n \r\n```\r\nDone.\r\n";
    var patterns =
        List.of(
            Pattern.asSent(
                "fenced diff with prose before and after",
                NOTES,
                "Here is the patch:\n\n```diff\n"
                    + HEADERS
                    + INTRO
                    + "```\n\nThis changes the intro to mention the lease.\n"),
            Pattern.asSent(
                "patch fence around git's own headers",
                NOTES,
                "```patch\ndiff --git a/notes.md b/notes.md\nindex 3b18e51..a8c4d2f 100644\n"
                    + HEADERS
                    + LIST
                    + "```\n"),
            Pattern.asSent(
                "tilde fence, a closing sentence without a newline",
                NOTES,
                "~~~diff\n" + HEADERS + INTRO + "~~~\nThat is all."),
            Pattern.asSent(
                "a bullet list under an unfenced diff",
                NOTES,
                HEADERS + TITLE + "\n- renamed the heading\n- kept the list\n\n---\n"),
            Pattern.asSent(
                "two sections for the file in one fence, the second editing what the first wrote",
                NOTES,
                "```diff\n"
                    + HEADERS
                    + INTRO
                    + HEADERS
                    + INTRO
                        .replace(
                            "-Canvas agent edits documents.",
                            "-Canvas agent edits documents" + " under a lease.")
                        .replace("under a lease.\n \n", "under a lease, strictly.\n \n")
                    + "```\n"),
            Pattern.asSent(
                "two fences with headers and prose between them",
                NOTES,
                "First the title:\n```diff\n"
                    + HEADERS
                    + TITLE
                    + "```\nThen the list:\n```diff\n"
                    + HEADERS
                    + LIST
                    + "```\n"),
            new Pattern(
                "plain fence, no headers",
                NOTES,
                "I'll fix the heading.\n```\n" + TITLE + "```\n",
                "I'll fix the heading.\n```\n" + HEADERS + TITLE + "```\n"),
            new Pattern(
                "two fences without headers",
                NOTES,
                "First the title:\n\n```diff\n"
                    + TITLE
                    + "```\n\nThen the list:\n\n```diff\n"
                    + LIST
                    + "```\n",
                "First the title:\n\n```diff\n"
                    + HEADERS
                    + TITLE
                    + "```\n\nThen the list:\n\n```diff\n"
                    + HEADERS
                    + LIST
                    + "```\n"),
            new Pattern(
                "headers in the first fence only",
                NOTES,
                "```diff\n" + HEADERS + TITLE + "```\nand\n```diff\n" + INTRO + "```\n",
                "```diff\n" + HEADERS + TITLE + "```\nand\n```diff\n" + HEADERS + INTRO + "```\n"),
            new Pattern(
                "a bare hunk without its final newline",
                NOTES,
                LIST.substring(0, LIST.length() - 1),
                HEADERS + LIST),
            new Pattern(
                "a blank line between the headers and the hunk",
                NOTES,
                "```diff\n" + HEADERS + "\n" + INTRO + "```\n",
                "```diff\n" + HEADERS + INTRO + "```\n"),
            Pattern.asSent("CRLF throughout, on a CRLF document", crlf, crlfPatch),
            Pattern.asSent("CRLF patch on an LF document: refused, as by git", NOTES, crlfPatch),
            Pattern.asSent(
                "a fenced patch gone stale: refused, as by git",
                NOTES.replace("documents.", "Markdown."),
                "```diff\n" + HEADERS + INTRO + "```\n"));

    var cases = new ArrayList<Case>();
    for (int i = 0; i < patterns.size(); i++) {
      var pattern = patterns.get(i);
      cases.add(
          new Case(
              "p" + i + ".md",
              pattern.document(),
              pattern.repaired().replace("/notes.md", "/p" + i + ".md")));
    }
    var outcomes = git.applyEach(cases);
    for (int i = 0; i < patterns.size(); i++) {
      var pattern = patterns.get(i);
      var theirs = outcomes.get("p" + i + ".md");
      var ours = engine.apply(pattern.document(), pattern.sent());
      var text = ours instanceof ApplyResult.Applied applied ? applied.text() : null;
      assertEquals(theirs, text, pattern.name() + ": " + ours);
      if (pattern.name().contains("refused")) {
        assertNull(theirs, pattern.name());
      } else {
        assertNotNull(theirs, pattern.name());
        assertNotEquals(pattern.document(), text, pattern.name());
      }
    }
  }

  @Test
  void aFenceClosingInsideAHunkIsRefusedNotCompleted() {
    var shortHunk = "```diff\n@@ -4,3 +4,3 @@\n \n-Canvas agent edits documents.\n+Canvas.\n```\n";
    assertEquals(RejectionReason.HUNK_COUNT_MISMATCH, refusal(shortHunk).reason());
  }

  @Test
  void aMiscountedHunkInAFenceIsStillRefused() {
    var longHunk = "```diff\n" + HEADERS + INTRO + " ## Changes\n```\n";
    var rejection = refusal(longHunk);
    assertEquals(RejectionReason.HUNK_COUNT_MISMATCH, rejection.reason());
    assertTrue(rejection.message().contains("one too many"), rejection.message());
  }

  @Test
  void aSecondFenceForAnotherFileIsRefused() {
    var other =
        "```diff\n"
            + HEADERS
            + TITLE
            + "```\n```diff\n--- a/README.md\n+++ b/README.md\n"
            + LIST
            + "```\n";
    assertEquals(RejectionReason.SECOND_FILE, refusal(other).reason());
  }

  private PatchRejection refusal(String patch) {
    return assertInstanceOf(ApplyResult.Rejected.class, engine.apply(NOTES, patch)).rejection();
  }
}
