package dev.canvasagent.document.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.document.patch.GitWorkspace.Case;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The strict patcher against real {@code git apply}: generated Markdown documents, random edits,
 * patches written by {@code git diff --no-index} with 0, 1 and 3 lines of context, applied to the
 * original document, to one with lines inserted (hunks land at offsets), to one with a line changed
 * (hunks go stale) and to one holding the original twice (the nearest copy must win). Both must
 * agree on every case: the same text when git applies the patch, a rejection when git refuses it.
 * Git runs a handful of times in all (one diff per context size, one apply for every case).
 */
class GitApplyConformanceTest {
  private static final long SEED = 0x5EED_0008L;
  private static final int PAIRS = 450;
  private static final int[] CONTEXT_SIZES = {0, 1, 3};
  private static final Pattern HUNK_HEADER =
      Pattern.compile("^@@ -(\\d+)(,\\d+|) \\+(\\d+)(,\\d+|) @@", Pattern.MULTILINE);

  enum Variant {
    EXACT,
    SHIFTED,
    STALE,
    DOUBLED,
    /** The headers' line numbers are off by a few lines, as a model's often are. */
    MISNUMBERED,
    /** The original twice, the headers pointing midway: equally near copies, git takes the later. */
    TIED
  }

  @TempDir Path temp;
  private GitWorkspace git;

  @BeforeEach
  void git() throws IOException {
    git = new GitWorkspace(temp);
  }

  @Test
  void strictPatchAgreesWithGitApplyOnGeneratedDocuments() throws Exception {
    var random = new Random(SEED);
    var corpus = new MarkdownCorpus(random);
    var edits = new RandomEdits(random, corpus);
    var originals = new ArrayList<List<String>>();
    var edited = new ArrayList<String>();
    for (int i = 0; i < PAIRS; i++) {
      var original = corpus.document();
      originals.add(original);
      edited.add(MarkdownCorpus.text(edits.edit(original)));
    }
    git.writeDocuments("old", originals.stream().map(MarkdownCorpus::text).toList());
    git.writeDocuments("new", edited);

    var cases = new ArrayList<Case>();
    for (int context : CONTEXT_SIZES) {
      for (var patch : git.diffs("old", "new", context).entrySet()) {
        int index = patch.getKey();
        for (var variant : Variant.values()) {
          var name = "c" + index + "u" + context + variant.name().toLowerCase() + ".md";
          var original = originals.get(index);
          var target = MarkdownCorpus.text(variant(variant, original, random, corpus));
          var text = GitWorkspace.renamed(patch.getValue(), "old", "new", index, name);
          if (variant == Variant.MISNUMBERED) {
            text =
                renumbered(
                    text, random.nextBoolean() ? -1 - random.nextInt(6) : 1 + random.nextInt(6));
          } else if (variant == Variant.TIED) {
            text = renumbered(text, original.size() / 2);
          }
          cases.add(new Case(name, target, text));
        }
      }
    }

    var outcomes = git.applyEach(cases);
    var strict = new StrictPatch(MissingFinalNewline.CORRUPT);
    var tolerant = new StrictPatch(MissingFinalNewline.TOLERATED);
    var disagreements = new ArrayList<String>();
    int rejected = 0;
    int moved = 0;
    for (var c : cases) {
      var ours = strict.apply(c.target(), c.patch());
      assertEquals(ours, tolerant.apply(c.target(), c.patch()), c.name());
      var theirs = outcomes.get(c.name());
      if (ours instanceof ApplyResult.Applied applied) {
        moved += applied.placements().stream().anyMatch(p -> p.offset() != 0) ? 1 : 0;
        if (!applied.text().equals(theirs)) {
          disagreements.add(GitWorkspace.describe(c, theirs, ours));
        }
      } else {
        rejected++;
        if (theirs != null) {
          disagreements.add(GitWorkspace.describe(c, theirs, ours));
        }
      }
    }
    GitWorkspace.assertAgree(disagreements, cases.size());
    assertTrue(cases.size() > 6000, "too few cases: " + cases.size());
    assertTrue(rejected > cases.size() / 20, "too few rejections exercised: " + rejected);
    assertTrue(moved > cases.size() / 20, "too few hunks applied at an offset: " + moved);
  }

  @Test
  void aPatchWhoseLastLineLacksItsNewlineIsCorruptForGitAndForTheStrictParser() throws Exception {
    var random = new Random(SEED + 1);
    var corpus = new MarkdownCorpus(random);
    var edits = new RandomEdits(random, corpus);
    var originals = new ArrayList<String>();
    var edited = new ArrayList<String>();
    for (int i = 0; i < 40; i++) {
      var original = corpus.document();
      originals.add(MarkdownCorpus.text(original));
      edited.add(MarkdownCorpus.text(edits.edit(original)));
    }
    git.writeDocuments("old", originals);
    git.writeDocuments("new", edited);
    var intact = new ArrayList<Case>();
    for (var patch : git.diffs("old", "new", 3).entrySet()) {
      int index = patch.getKey();
      var text = GitWorkspace.renamed(patch.getValue(), "old", "new", index, "t" + index + ".md");
      if (!text.endsWith("of file\n")) {
        intact.add(new Case("t" + index + ".md", originals.get(index), text));
      }
    }
    var applied = git.applyEach(intact);
    var strict = new StrictPatch(MissingFinalNewline.CORRUPT);
    var tolerant = new StrictPatch(MissingFinalNewline.TOLERATED);
    for (var c : intact.subList(0, Math.min(15, intact.size()))) {
      var cut = c.patch().substring(0, c.patch().length() - 1);
      var directory = Files.createDirectories(temp.resolve("cut-" + c.name()));
      GitWorkspace.write(directory.resolve(c.name()), c.target());
      GitWorkspace.write(temp.resolve("cut-" + c.name() + ".patch"), cut);
      var run = git.git().run(directory, "apply", "../cut-" + c.name() + ".patch");
      assertNotEquals(0, run.exitCode(), c.name());
      assertTrue(run.stderr().contains("corrupt patch"), run.stderr());

      var refused = assertInstanceOf(ApplyResult.Rejected.class, strict.apply(c.target(), cut));
      assertEquals(RejectionReason.MISSING_FINAL_NEWLINE, refused.rejection().reason());
      var forgiven = assertInstanceOf(ApplyResult.Applied.class, tolerant.apply(c.target(), cut));
      assertEquals(applied.get(c.name()), forgiven.text(), c.name());
    }
  }

  @Test
  void handwrittenEdgesAgreeWithGitApply() throws Exception {
    var doc = "# Title\n\nalpha\nbeta\ngamma\ndelta\n";
    var twice = "x\nk\ny\n1\n2\n3\nx\nk\ny\n";
    String[][] edges = {
      {twice, "@@ -4,3 +4,3 @@\n x\n-k\n+K\n y\n"},
      {twice, "@@ -3,3 +3,3 @@\n x\n-k\n+K\n y\n"},
      {"preface\n" + doc, "@@ -1,2 +1,2 @@\n-# Title\n+# New title\n \n"},
      {doc + "epilogue\n", "@@ -5,2 +5,2 @@\n gamma\n-delta\n+DELTA\n"},
      {"a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"},
      {"a\nb", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
      {"a\nb", "@@ -1,2 +1,2 @@\n a\n-b\n+c\n"},
      {"one\r\ntwo\r\nthree\r\n", "@@ -1,3 +1,3 @@\n one\r\n-two\r\n+2\r\n three\r\n"},
      {"one\r\ntwo\r\nthree\r\n", "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"},
      {"", "@@ -0,0 +1,2 @@\n+first\n+second\n"},
      {"a\nb\nc\nd\n", "@@ -1,2 +1,3 @@\n a\n+x\n b\n@@ -2,3 +3,3 @@\n x\n-b\n+y\n c\n"},
      {"a\n\nc\n", "@@ -1,3 +1,3 @@\n a\n\n-c\n+C\n"},
      // A context line without its newline matches a longer line mid-document, and git joins it.
      {"a\nb  \nc\n", "@@ -2,2 +2,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n"},
      {"a\nb\nc\nd\ne\n", "@@ -3 +3 @@\n-c\n+C\n"},
    };
    var cases = new ArrayList<Case>();
    for (int i = 0; i < edges.length; i++) {
      var name = "edge" + i + ".md";
      cases.add(
          new Case(name, edges[i][0], "--- a/" + name + "\n+++ b/" + name + "\n" + edges[i][1]));
    }
    var outcomes = git.applyEach(cases);
    var strict = new StrictPatch(MissingFinalNewline.CORRUPT);
    for (var c : cases) {
      var ours = strict.apply(c.target(), c.patch());
      var theirs = outcomes.get(c.name());
      var text = ours instanceof ApplyResult.Applied applied ? applied.text() : null;
      assertEquals(theirs, text, GitWorkspace.describe(c, theirs, ours));
    }
  }

  /** Every hunk header moved by {@code delta} lines (never below line 1). */
  private static String renumbered(String patch, int delta) {
    return HUNK_HEADER
        .matcher(patch)
        .replaceAll(
            m ->
                "@@ -"
                    + shift(m.group(1), delta)
                    + m.group(2)
                    + " +"
                    + shift(m.group(3), delta)
                    + m.group(4)
                    + " @@");
  }

  private static String shift(String start, int delta) {
    int line = Integer.parseInt(start);
    return String.valueOf(line == 0 ? 0 : Math.max(1, line + delta));
  }

  private static List<String> variant(
      Variant variant, List<String> original, Random random, MarkdownCorpus corpus) {
    var lines = new ArrayList<>(original);
    var eol = lines.stream().anyMatch(l -> l.endsWith("\r\n")) ? "\r\n" : "\n";
    switch (variant) {
      case EXACT -> {}
      case SHIFTED -> {
        lines.addAll(0, corpus.freshLines(1 + random.nextInt(12), eol));
        int more = random.nextInt(3);
        for (int i = 0; i < more; i++) {
          lines.add(random.nextInt(lines.size()), corpus.line() + eol);
        }
      }
      case STALE -> {
        if (!lines.isEmpty()) {
          int at = random.nextInt(lines.size());
          var end =
              lines.get(at).endsWith("\r\n") ? "\r\n" : lines.get(at).endsWith("\n") ? "\n" : "";
          lines.set(at, corpus.line() + " (changed)" + end);
        }
      }
      case MISNUMBERED -> {}
      case TIED -> {
        var first = new ArrayList<>(original);
        if (!first.isEmpty() && !first.get(first.size() - 1).endsWith("\n")) {
          first.set(first.size() - 1, first.get(first.size() - 1) + eol);
        }
        lines = first;
        lines.addAll(original);
      }
      case DOUBLED -> {
        var first = new ArrayList<>(original);
        if (!first.isEmpty() && !first.get(first.size() - 1).endsWith("\n")) {
          first.set(first.size() - 1, first.get(first.size() - 1) + eol);
        }
        lines = new ArrayList<>(corpus.freshLines(random.nextInt(6), eol));
        lines.addAll(first);
        lines.addAll(corpus.freshLines(random.nextInt(6), eol));
        lines.addAll(original);
      }
      default -> throw new IllegalStateException();
    }
    return lines;
  }
}
