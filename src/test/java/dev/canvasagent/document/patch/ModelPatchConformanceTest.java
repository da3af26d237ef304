package dev.canvasagent.document.patch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.document.patch.GitWorkspace.Case;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine against real {@code git apply} on patches as models send them: generated Markdown
 * documents edited twice, git's patches ({@code -U0}, {@code -U1}, {@code -U3}) for the whole edit
 * cut into sections at random hunks, or the two edits as two sections, each dressed by {@link
 * ModelStyle} (fences, prose, headers left out, no final newline) and applied to the original, to
 * it with lines put in at the top, or to it with a line changed (a stale patch). What the engine
 * makes of the dressed patch must be what git makes of the repaired one: the same text, or a
 * refusal. Git runs ten times in all (nine diffs, one apply for every case).
 */
class ModelPatchConformanceTest {
  private static final long SEED = 0x5EED_0017L;
  private static final int DOCUMENTS = 80;
  private static final int[] CONTEXT_SIZES = {0, 1, 3};

  @Test
  void aDressedPatchGivesWhatGitGivesOnTheRepairedOne(@TempDir Path temp) throws Exception {
    var git = new GitWorkspace(temp);
    var random = new Random(SEED);
    var corpus = new MarkdownCorpus(random);
    var edits = new RandomEdits(random, corpus);
    var style = new ModelStyle(random);
    var originals = new ArrayList<List<String>>();
    var once = new ArrayList<String>();
    var twice = new ArrayList<String>();
    for (int i = 0; i < DOCUMENTS; i++) {
      var original = corpus.document();
      var edited = edits.edit(original);
      originals.add(original);
      once.add(MarkdownCorpus.text(edited));
      twice.add(MarkdownCorpus.text(edits.edit(edited)));
    }
    git.writeDocuments("old", originals.stream().map(MarkdownCorpus::text).toList());
    git.writeDocuments("mid", once);
    git.writeDocuments("new", twice);
    var whole = new ArrayList<Map<Integer, String>>();
    var first = new ArrayList<Map<Integer, String>>();
    var second = new ArrayList<Map<Integer, String>>();
    for (int context : CONTEXT_SIZES) {
      whole.add(git.diffs("old", "new", context));
      first.add(git.diffs("old", "mid", context));
      second.add(git.diffs("mid", "new", context));
    }

    var sent = new ArrayList<Case>();
    var repaired = new ArrayList<Case>();
    int sections = 0;
    int headerless = 0;
    int unterminated = 0;
    for (int i = 0; i < DOCUMENTS; i++) {
      int context = random.nextInt(CONTEXT_SIZES.length);
      var target = target(originals.get(i), random, corpus);
      var cut = "m" + i + "cut.md";
      if (whole.get(context).containsKey(i)) {
        var patch = GitWorkspace.renamed(whole.get(context).get(i), "old", "new", i, cut);
        var dressed = style.dress(style.split(ModelStyle.section(patch)), cut);
        sent.add(new Case(cut, target, dressed.sent()));
        repaired.add(new Case(cut, target, dressed.repaired()));
        headerless += dressed.headerless() ? 1 : 0;
        unterminated += dressed.unterminated() ? 1 : 0;
      }
      var chained = "m" + i + "chained.md";
      if (first.get(context).containsKey(i) && second.get(context).containsKey(i)) {
        var dressed =
            style.dress(
                List.of(
                    ModelStyle.section(
                        GitWorkspace.renamed(first.get(context).get(i), "old", "mid", i, chained)),
                    ModelStyle.section(
                        GitWorkspace.renamed(
                            second.get(context).get(i), "mid", "new", i, chained))),
                chained);
        sent.add(new Case(chained, target, dressed.sent()));
        repaired.add(new Case(chained, target, dressed.repaired()));
        headerless += dressed.headerless() ? 1 : 0;
        unterminated += dressed.unterminated() ? 1 : 0;
        sections++;
      }
    }

    var outcomes = git.applyEach(repaired);
    var engine = new StrictPatch(MissingFinalNewline.TOLERATED);
    var disagreements = new ArrayList<String>();
    int applied = 0;
    for (int c = 0; c < sent.size(); c++) {
      var model = sent.get(c);
      var ours = engine.apply(model.target(), model.patch());
      var theirs = outcomes.get(model.name());
      var text = ours instanceof ApplyResult.Applied done ? done.text() : null;
      applied += text == null ? 0 : 1;
      if (text == null ? theirs != null : !text.equals(theirs)) {
        disagreements.add(
            GitWorkspace.describe(model, theirs, ours)
                + "\n--- repaired for git:\n"
                + repaired.get(c).patch());
      }
    }
    GitWorkspace.assertAgree(disagreements, sent.size());
    assertTrue(sent.size() > 150, "too few cases: " + sent.size());
    assertTrue(applied > sent.size() / 2, "too few applied: " + applied);
    assertTrue(applied < sent.size() - 10, "too few refused: " + (sent.size() - applied));
    assertTrue(
        sections > 60 && headerless > 30 && unterminated > 5,
        "too few of each tolerance: "
            + List.of(sent.size(), applied, sections, headerless, unterminated));
  }

  /** The original (often), or it with lines put in at the top, or with one line changed. */
  private static String target(List<String> original, Random random, MarkdownCorpus corpus) {
    var lines = new ArrayList<>(original);
    int variant = random.nextInt(8);
    if (variant == 0) {
      lines.addAll(0, corpus.freshLines(1 + random.nextInt(4), "\n"));
    } else if (variant == 1 && !lines.isEmpty()) {
      int at = random.nextInt(lines.size());
      lines.set(at, corpus.line() + " (changed)\n");
    }
    return MarkdownCorpus.text(lines);
  }
}
