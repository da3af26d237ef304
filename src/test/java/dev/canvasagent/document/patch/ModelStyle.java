package dev.canvasagent.document.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Dresses git's patches the way models send them, and writes beside each the patch git is given
 * instead: the same text repaired by the tolerances the engine documents. What a model sends may
 * have a Markdown fence (one around everything or one per section), prose before, between and
 * after the diff (lists and horizontal rules included), CRLF prose, git's headers, plain
 * {@code ---}/{@code +++} headers or none, a later section without headers, blank lines after the
 * headers and no final newline. The repaired patch keeps everything git skips itself (fences,
 * prose) and puts back what git needs: headers, no blank lines after them, the final newline.
 */
final class ModelStyle {
  /** One section: its headers as git wrote them (empty when none) and its hunks. */
  record Section(String headers, String hunks) {}

  /** What the model sends, and the patch git is given for it. */
  record Dressed(String sent, String repaired, boolean headerless, boolean unterminated) {}

  private static final String[] FENCES = {"", "```diff", "```patch", "```", "~~~", "~~~diff"};
  private static final String[] BEFORE = {
    "",
    "Here is the patch:\n\n",
    "Sure! I'll update the document.\n",
    "I'll make these changes:\n\n- tighten the intro\n- fix the list\n\n",
    "Here's a diff that renames the heading:\n"
  };
  private static final String[] BETWEEN = {"\nThen:\n\n", "And the second part:\n", "\nNext:\n"};
  private static final String[] AFTER = {
    "",
    "\nThis changes the heading.\n",
    "\nThis tightens the intro and fixes the list.",
    "\n---\nLet me know if you want more changes.\n",
    "\n- renamed the heading\n- fixed the list\n",
    "\nChanges:\n- renamed the heading\n+ kept the list\n"
  };

  private final Random random;

  ModelStyle(Random random) {
    this.random = random;
  }

  /** A patch git wrote for one file, as one section. */
  static Section section(String gitPatch) {
    int hunks = gitPatch.indexOf("\n@@ -") + 1;
    return new Section(gitPatch.substring(0, hunks), gitPatch.substring(hunks));
  }

  /** The section cut at random hunk boundaries into sections; the later ones have no headers. */
  List<Section> split(Section section) {
    var sections = new ArrayList<Section>();
    var headers = section.headers();
    var hunks = section.hunks();
    int start = 0;
    int at = hunks.indexOf("\n@@ -");
    while (at >= 0) {
      if (random.nextInt(3) == 0) {
        sections.add(new Section(headers, hunks.substring(start, at + 1)));
        headers = "";
        start = at + 1;
      }
      at = hunks.indexOf("\n@@ -", at + 1);
    }
    sections.add(new Section(headers, hunks.substring(start)));
    return sections;
  }

  /** The sections as a model would send them for the file {@code name}. */
  Dressed dress(List<Section> sections, String name) {
    int headerStyle = random.nextInt(3);
    // A bare patch: no fence, nothing after the last hunk, and no newline after it either.
    boolean unterminated = random.nextInt(4) == 0;
    var fence = unterminated ? "" : FENCES[random.nextInt(FENCES.length)];
    boolean fencePerSection =
        !fence.isEmpty() && sections.size() > 1 && (headerStyle == 2 || random.nextBoolean());
    var eol = random.nextInt(5) == 0 ? "\r\n" : "\n";
    var sent = new StringBuilder();
    var repaired = new StringBuilder();
    boolean headerless = false;
    both(sent, repaired, prose(BEFORE, eol) + opening(fence, eol));
    for (int k = 0; k < sections.size(); k++) {
      // A section without headers must be set apart by text, or it continues the run before it.
      boolean setApart = k > 0 && (fence.isEmpty() || fencePerSection);
      if (setApart) {
        both(
            sent,
            repaired,
            (fencePerSection ? closing(fence, eol) : "")
                + prose(BETWEEN, eol)
                + (fencePerSection ? opening(fence, eol) : ""));
      }
      var section = sections.get(k);
      var plain = "--- a/" + name + "\n+++ b/" + name + "\n";
      boolean keepHeaders = headerStyle != 2 && (k == 0 || !setApart || random.nextBoolean());
      if (keepHeaders) {
        var headers = headerStyle == 0 && !section.headers().isEmpty() ? section.headers() : plain;
        both(sent, repaired, headers);
        if (random.nextInt(8) == 0) {
          sent.append('\n');
        }
      } else {
        repaired.append(plain);
        headerless = true;
      }
      both(sent, repaired, section.hunks());
    }
    if (unterminated) {
      sent.setLength(sent.length() - 1);
    } else {
      both(sent, repaired, closing(fence, eol) + prose(AFTER, eol));
    }
    return new Dressed(sent.toString(), repaired.toString(), headerless, unterminated);
  }

  private String prose(String[] choices, String eol) {
    return choices[random.nextInt(choices.length)].replace("\n", eol);
  }

  private static String opening(String fence, String eol) {
    return fence.isEmpty() ? "" : fence + eol;
  }

  private static String closing(String fence, String eol) {
    return fence.isEmpty() ? "" : fence.substring(0, 3) + eol;
  }

  private static void both(StringBuilder sent, StringBuilder repaired, String text) {
    sent.append(text);
    repaired.append(text);
  }
}
