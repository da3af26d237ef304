package dev.canvasagent.document.patch;

import static dev.canvasagent.document.patch.RejectionReason.BINARY_PATCH;
import static dev.canvasagent.document.patch.RejectionReason.CORRUPT_HUNK_LINE;
import static dev.canvasagent.document.patch.RejectionReason.EMPTY_PATCH;
import static dev.canvasagent.document.patch.RejectionReason.FILE_CREATION;
import static dev.canvasagent.document.patch.RejectionReason.FILE_DELETION;
import static dev.canvasagent.document.patch.RejectionReason.HUNK_COUNT_MISMATCH;
import static dev.canvasagent.document.patch.RejectionReason.HUNK_WITHOUT_CHANGES;
import static dev.canvasagent.document.patch.RejectionReason.MALFORMED_HEADER;
import static dev.canvasagent.document.patch.RejectionReason.MALFORMED_HUNK_HEADER;
import static dev.canvasagent.document.patch.RejectionReason.MISSING_FINAL_NEWLINE;
import static dev.canvasagent.document.patch.RejectionReason.MODE_CHANGE;
import static dev.canvasagent.document.patch.RejectionReason.RENAME_OR_COPY;
import static dev.canvasagent.document.patch.RejectionReason.SECOND_FILE;
import static dev.canvasagent.document.patch.RejectionReason.UNEXPECTED_TEXT;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a unified diff of one document, as {@code git diff} or {@code diff -u} write it, and as
 * models write it: inside a Markdown fence, with prose before and after, in several sections.
 *
 * <p>Text around the diff is skipped, as {@code git apply} skips it: everything before the first
 * line that starts a section ({@code diff --git }, {@code --- }, {@code +++ } or {@code @@}), and
 * everything after a run of hunks that ends in text (a line that is not blank and starts with none
 * of {@code ' '}, {@code '-'}, {@code '+'}, {@code '\'}, {@code @@}, a thematic break, or after a
 * blank line a list item), such as a closing fence or a closing sentence. After such text a new
 * section may start; sections apply in turn. git's metadata lines are refused even in that text.
 *
 * <p>Headers are optional: the document is known to the caller, so a section may start at its first
 * {@code @@} line (git itself wants {@code ---}/{@code +++}). When present they must be those of one
 * existing text file: {@code diff --git}/{@code diff …}, {@code index}, {@code ---} and {@code +++};
 * blank lines between them and the first hunk are skipped. Every section that names a file must
 * name the one the first section named, and when the first names none, none may. Creation,
 * deletion, rename, copy, mode changes, binary patches and a second file are refused by name.
 *
 * <p>Hunk lines follow git's parser: a truly empty line is an empty context line (newer GNU diff
 * writes those; {@code git apply} accepts them), a {@code \}-line of at least 12 characters starting
 * {@code "\ "} marks the line before it as lacking its newline (its wording varies with the locale),
 * and a hunk must change something. The counts in the header must be met exactly: where git would
 * silently ignore extra lines after a hunk's counts are used up, this parser refuses them (a model
 * that miscounts must learn it): after a complete hunk, a line that looks like a hunk line, or blank
 * lines followed by one or by another hunk, are one too many (a Markdown thematic break, and after a
 * blank line a list item, read as text).
 *
 * <p>It is longer than our other classes on purpose: it is one pass over the lines, a small state
 * machine (headers, hunk header, hunk body, between hunks), and splitting its states across classes
 * would hide the order git's parser reads them in.
 */
public final class UnifiedDiffParser {
  private static final Pattern HUNK_HEADER =
      Pattern.compile(
          "@@ -(\\d{1,9})(?:,(\\d{1,9}))? \\+(\\d{1,9})(?:,(\\d{1,9}))? @@.*", Pattern.DOTALL);
  private static final Pattern THEMATIC_BREAK = Pattern.compile("-{3,}\\s*");
  private static final Pattern LIST_ITEM = Pattern.compile("- \\S.*", Pattern.DOTALL);
  private static final int SHORTEST_NO_NEWLINE_MARKER = 12;

  private final MissingFinalNewline missingFinalNewline;

  public UnifiedDiffParser(MissingFinalNewline missingFinalNewline) {
    this.missingFinalNewline = missingFinalNewline;
  }

  public ParseResult parse(String patch) {
    try {
      return new ParseResult.Parsed(new Reading(PatchText.of(patch).lines()).diff());
    } catch (Refusal refusal) {
      return new ParseResult.Rejected(refusal.rejection);
    }
  }

  /** Early exit from deep in the reading; never leaves this class. */
  private static final class Refusal extends RuntimeException {
    final PatchRejection rejection;

    Refusal(PatchRejection rejection) {
      super(rejection.message(), null, false, false);
      this.rejection = rejection;
    }
  }

  private final class Reading {
    private final List<PatchText.Line> lines;
    private int next;

    Reading(List<PatchText.Line> lines) {
      this.lines = lines;
    }

    UnifiedDiff diff() {
      if (lines.stream().allMatch(PatchText.Line::isBlank)) {
        throw refuse(EMPTY_PATCH, 0, 0, "the patch is empty");
      }
      skipText();
      if (next == lines.size()) {
        throw refuse(
            EMPTY_PATCH,
            0,
            0,
            "no diff in the patch: no line starts with a hunk header (@@ -a,b +c,d @@) or a"
                + " file header (--- a/…, +++ b/…, diff --git); text around a diff is ignored");
      }
      var sections = new ArrayList<DiffSection>();
      Optional<String> documentName = Optional.empty();
      int hunkCount = 0;
      while (next < lines.size()) {
        var start = lines.get(next);
        var name = readHeaders();
        if (sections.isEmpty()) {
          documentName = name;
        } else {
          requireSameDocument(documentName, name, start);
        }
        if (next == lines.size()) {
          throw refuse(EMPTY_PATCH, 0, 0, "the patch has headers but no hunk (@@ -a,b +c,d @@)");
        }
        var hunks = new ArrayList<Hunk>();
        do {
          hunks.add(readHunk(++hunkCount));
        } while (anotherHunkFollows(hunks.get(hunks.size() - 1)));
        sections.add(new DiffSection(hunks));
        skipText();
      }
      return new UnifiedDiff(sections);
    }

    /**
     * Skips text that is not a diff (prose, fence lines) up to the next line starting a section. A
     * line of git's metadata (binary, creation, deletion, rename, copy, mode) is refused even there:
     * it never is prose, and a patch that carries one does more than edit the document.
     */
    private void skipText() {
      while (next < lines.size() && !startsSection(lines.get(next).content())) {
        refuseMetadata(lines.get(next));
        next++;
      }
    }

    private void requireSameDocument(
        Optional<String> documentName, Optional<String> name, PatchText.Line start) {
      if (name.isEmpty() || name.equals(documentName)) {
        return;
      }
      throw refuse(
          SECOND_FILE,
          0,
          start.number(),
          documentName.isPresent()
              ? "a second file starts here: "
                  + quote(start.content())
                  + "; a patch edits exactly one document"
              : "a section for "
                  + quote(name.get())
                  + " starts here, but the first section names no file; a patch edits exactly one"
                  + " document: give every section the same ---/+++ headers, or none");
    }

    /** Reads a section's headers up to its first hunk; the file they name, if any. */
    private Optional<String> readHeaders() {
      Optional<String> name = Optional.empty();
      boolean sawDiffLine = false;
      boolean sawOld = false;
      boolean sawNew = false;
      for (; next < lines.size(); next++) {
        var line = lines.get(next);
        var text = line.content();
        if (text.startsWith("@@")) {
          break;
        }
        refuseMetadata(line);
        if (text.startsWith("diff ")) {
          if (sawDiffLine || sawOld) {
            throw refuse(
                SECOND_FILE,
                0,
                line.number(),
                "a second file starts here: "
                    + quote(text)
                    + "; a patch edits exactly one document");
          }
          sawDiffLine = true;
          if (text.startsWith("diff --git ")) {
            name = Optional.of(SectionName.ofGitLine(text));
          }
        } else if (text.startsWith("--- ") && !sawOld) {
          if (isDevNull(text.substring(4))) {
            throw refuse(
                FILE_CREATION,
                0,
                line.number(),
                "'--- /dev/null' creates a file; the document already exists");
          }
          sawOld = true;
        } else if (text.startsWith("--- ")) {
          throw refuse(
              sawNew ? SECOND_FILE : MALFORMED_HEADER,
              0,
              line.number(),
              sawNew
                  ? "a second file starts here: "
                      + quote(text)
                      + "; a patch edits exactly one document"
                  : "a second '---' header before any '+++' header");
        } else if (text.startsWith("+++ ")) {
          if (!sawOld || sawNew) {
            throw refuse(
                MALFORMED_HEADER,
                0,
                line.number(),
                "a '+++' header must follow exactly one '---' header");
          }
          if (isDevNull(text.substring(4))) {
            throw refuse(
                FILE_DELETION,
                0,
                line.number(),
                "'+++ /dev/null' deletes the file; a patch cannot delete the document");
          }
          sawNew = true;
          name = Optional.of(SectionName.ofFileHeader(text));
        } else if (!text.startsWith("index ") && !line.isBlank()) {
          throw refuse(
              UNEXPECTED_TEXT,
              0,
              line.number(),
              "expected a header (---/+++) or a hunk "
                  + "header (@@ -a,b +c,d @@), found "
                  + quote(text));
        }
      }
      if (sawOld && !sawNew) {
        throw refuse(
            MALFORMED_HEADER,
            0,
            next < lines.size() ? next + 1 : lines.size(),
            "a '---' header without its '+++' header");
      }
      return name;
    }

    private void refuseMetadata(PatchText.Line line) {
      var text = line.content();
      if (text.startsWith("GIT binary patch")
          || ((text.startsWith("Binary files ") || text.startsWith("Files "))
              && text.stripTrailing().endsWith(" differ"))) {
        throw refuse(
            BINARY_PATCH,
            0,
            line.number(),
            "a binary patch (" + quote(text) + "); the document is text");
      }
      if (text.startsWith("new file mode")) {
        throw refuse(
            FILE_CREATION,
            0,
            line.number(),
            "'new file mode' creates a file; the document already exists");
      }
      if (text.startsWith("deleted file mode")) {
        throw refuse(
            FILE_DELETION,
            0,
            line.number(),
            "'deleted file mode' deletes the file; a patch cannot delete the document");
      }
      if (text.startsWith("old mode") || text.startsWith("new mode")) {
        throw refuse(
            MODE_CHANGE,
            0,
            line.number(),
            quote(text) + " changes the file mode; a document has none");
      }
      for (var prefix :
          List.of(
              "rename from",
              "rename to",
              "rename old",
              "rename new",
              "copy from",
              "copy to",
              "similarity index",
              "dissimilarity index")) {
        if (text.startsWith(prefix)) {
          throw refuse(
              RENAME_OR_COPY,
              0,
              line.number(),
              quote(text) + " renames or copies the file; a patch cannot rename the document");
        }
      }
    }

    private Hunk readHunk(int number) {
      var headerLine = lines.get(next);
      var matcher = HUNK_HEADER.matcher(headerLine.content());
      if (!matcher.matches()) {
        throw refuse(
            MALFORMED_HUNK_HEADER,
            number,
            headerLine.number(),
            "malformed hunk header "
                + quote(headerLine.content())
                + "; expected '@@ -a,b +c,d @@' (counts may be left out"
                + " when they are 1)");
      }
      requireNewline(headerLine, number);
      int oldStart = Integer.parseInt(matcher.group(1));
      int oldCount = matcher.group(2) == null ? 1 : Integer.parseInt(matcher.group(2));
      int newStart = Integer.parseInt(matcher.group(3));
      int newCount = matcher.group(4) == null ? 1 : Integer.parseInt(matcher.group(4));
      next++;

      var body = new ArrayList<HunkLine>();
      int oldLeft = oldCount;
      int newLeft = newCount;
      boolean changes = false;
      int trailingContext = 0;
      boolean lastWasEmptyLine = false;
      boolean lastWasMarker = false;
      var counts =
          "its header "
              + quote(
                  headerLine.content().substring(0, headerLine.content().indexOf(" @@", 3) + 3));
      while (oldLeft > 0 || newLeft > 0) {
        if (next == lines.size()) {
          throw refuse(
              HUNK_COUNT_MISMATCH,
              number,
              headerLine.number(),
              "the patch ends inside the hunk: " + promises(counts, oldLeft, newLeft));
        }
        var line = lines.get(next);
        var text = line.content();
        requireNewline(line, number);
        char first = text.isEmpty() ? ' ' : text.charAt(0);
        if (first == '\\') {
          if (!isNoNewlineMarker(line) || body.isEmpty() || lastWasMarker) {
            throw refuse(
                CORRUPT_HUNK_LINE,
                number,
                line.number(),
                "misplaced or malformed " + "'\\ No newline at end of file' marker " + quote(text));
          }
          endWithoutNewline(body, lastWasEmptyLine);
          lastWasMarker = true;
          next++;
          continue;
        }
        LineKind kind;
        if (first == ' ') {
          kind = LineKind.CONTEXT;
          if (oldLeft == 0 || newLeft == 0) {
            throw tooMany(number, line, "context", counts, oldLeft == 0 ? "old" : "new");
          }
          oldLeft--;
          newLeft--;
        } else if (first == '-') {
          kind = LineKind.REMOVED;
          if (oldLeft == 0) {
            throw tooMany(number, line, "removed", counts, "old");
          }
          oldLeft--;
        } else if (first == '+') {
          kind = LineKind.ADDED;
          if (newLeft == 0) {
            throw tooMany(number, line, "added", counts, "new");
          }
          newLeft--;
        } else if (text.startsWith("@@")) {
          throw refuse(
              HUNK_COUNT_MISMATCH,
              number,
              line.number(),
              "a new hunk starts before "
                  + counts
                  + " is complete: "
                  + oldLeft
                  + " old and "
                  + newLeft
                  + " new line(s) are missing");
        } else if (text.startsWith("```") || text.startsWith("~~~")) {
          throw refuse(
              HUNK_COUNT_MISMATCH,
              number,
              line.number(),
              "the fence closes inside the hunk: " + promises(counts, oldLeft, newLeft));
        } else {
          throw refuse(
              CORRUPT_HUNK_LINE,
              number,
              line.number(),
              "a hunk line must start with ' '"
                  + " (context), '-' (removed), '+' (added) or '\\'; found "
                  + quote(text)
                  + " while "
                  + promises(counts, oldLeft, newLeft));
        }
        changes |= kind != LineKind.CONTEXT;
        trailingContext = kind == LineKind.CONTEXT ? trailingContext + 1 : 0;
        lastWasEmptyLine = text.isEmpty();
        lastWasMarker = false;
        body.add(new HunkLine(kind, (text.isEmpty() ? "" : text.substring(1)) + "\n"));
        next++;
      }
      if (next < lines.size()
          && isNoNewlineMarker(lines.get(next))
          && !lastWasMarker
          && !body.isEmpty()) {
        endWithoutNewline(body, lastWasEmptyLine);
        next++;
      }
      if (!changes) {
        throw refuse(
            HUNK_WITHOUT_CHANGES,
            number,
            headerLine.number(),
            "the hunk has context lines only; it must add or remove at least one line");
      }
      return new Hunk(
          number,
          oldStart,
          oldCount,
          newStart,
          newCount,
          headerLine.number(),
          trailingContext,
          body);
    }

    /**
     * After a complete hunk: true when the next hunk of the run follows. Otherwise the run ends at
     * the end of the patch, at the next file's headers or at text; what looks like more hunk lines
     * (directly, or after blank lines) is one line too many.
     */
    private boolean anotherHunkFollows(Hunk hunk) {
      if (next < lines.size() && lines.get(next).content().startsWith("@@")) {
        return true;
      }
      int after = next;
      while (after < lines.size() && lines.get(after).isBlank()) {
        after++;
      }
      if (after < lines.size()
          && !startsFileHeaders(after)
          && continuesHunk(lines.get(after).content(), after > next)) {
        var extra = lines.get(next);
        throw refuse(
            HUNK_COUNT_MISMATCH,
            hunk.number(),
            extra.number(),
            "the hunk has more lines "
                + "than its header "
                + quote(hunk.header())
                + " counts; this line is one too many: "
                + quote(extra.content()));
      }
      next = after;
      return false;
    }

    /**
     * Whether a line after a complete hunk reads as one more hunk line, a miscount, rather than as
     * text. A Markdown thematic break ({@code ---}) is text; after a blank line so is a list item
     * ({@code - item}), which models write under a diff (git skips both).
     */
    private static boolean continuesHunk(String text, boolean afterBlank) {
      if (text.startsWith("@@")) {
        return true;
      }
      if ("+- \\".indexOf(text.charAt(0)) < 0 || THEMATIC_BREAK.matcher(text).matches()) {
        return false;
      }
      return !(afterBlank && LIST_ITEM.matcher(text).matches());
    }

    /** Another file's headers: a {@code diff --git} line, or {@code ---} over {@code +++}. */
    private boolean startsFileHeaders(int index) {
      var text = lines.get(index).content();
      return text.startsWith("diff --git ")
          || (text.startsWith("--- ")
              && index + 1 < lines.size()
              && lines.get(index + 1).content().startsWith("+++ "));
    }

    private void requireNewline(PatchText.Line line, int hunk) {
      if (!line.terminated() && missingFinalNewline == MissingFinalNewline.CORRUPT) {
        throw refuse(
            MISSING_FINAL_NEWLINE,
            hunk,
            line.number(),
            "the last line of the patch has no newline (git calls this a corrupt patch)");
      }
    }

    private RuntimeException tooMany(
        int hunk, PatchText.Line line, String what, String counts, String side) {
      return refuse(
          HUNK_COUNT_MISMATCH,
          hunk,
          line.number(),
          "one "
              + what
              + " line too many: "
              + counts
              + " counts no more "
              + side
              + " lines; found "
              + quote(line.content()));
    }
  }

  private static String promises(String counts, int oldLeft, int newLeft) {
    return counts + " promises " + oldLeft + " more old and " + newLeft + " more new line(s)";
  }

  /**
   * The marker takes the newline off the line before it. A truly empty context line followed by the
   * marker stands for nothing at all, which is what git makes of it.
   */
  private static void endWithoutNewline(List<HunkLine> body, boolean lastWasEmptyLine) {
    var last = body.remove(body.size() - 1);
    if (!lastWasEmptyLine) {
      body.add(new HunkLine(last.kind(), last.text().substring(0, last.text().length() - 1)));
    }
  }

  private static boolean isNoNewlineMarker(PatchText.Line line) {
    return line.content().startsWith("\\ ")
        && line.content().length() + 1 >= SHORTEST_NO_NEWLINE_MARKER;
  }

  /** A line a section can start at: a hunk header, a git diff line or a ---/+++ header. */
  private static boolean startsSection(String text) {
    return text.startsWith("@@")
        || text.startsWith("diff --git ")
        || text.startsWith("--- ")
        || text.startsWith("+++ ");
  }

  private static boolean isDevNull(String name) {
    return name.startsWith("/dev/null")
        && (name.length() == 9 || Character.isWhitespace(name.charAt(9)));
  }

  private static Refusal refuse(RejectionReason reason, int hunk, int patchLine, String detail) {
    return new Refusal(
        patchLine == 0
            ? PatchRejection.whole(reason, detail)
            : PatchRejection.atPatchLine(reason, hunk, patchLine, detail));
  }

  static String quote(String text) {
    return Excerpt.of(text);
  }
}
