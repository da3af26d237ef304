package dev.canvasagent.document.patch;

/**
 * Parse and apply in one step: the whole new text, or a rejection naming the hunk and line, and
 * the document untouched. Conforms to {@code git apply} (without options) on every patch git
 * accepts, and refuses everything git refuses, including text around the diff, which both skip, and
 * several sections for the document, which both apply in turn. On top of git it takes sections
 * without file headers and blank lines between headers and the first hunk, refuses extra lines
 * after a hunk's counts (git ignores them) and, with {@link MissingFinalNewline#TOLERATED}, a last
 * line lacking its newline; what it takes beyond git gives what git gives once the patch is
 * repaired.
 */
public final class StrictPatch {
  private final UnifiedDiffParser parser;
  private final StrictApplier applier = new StrictApplier();

  public StrictPatch(MissingFinalNewline missingFinalNewline) {
    this.parser = new UnifiedDiffParser(missingFinalNewline);
  }

  public ApplyResult apply(String document, String patch) {
    var parsed = parser.parse(patch);
    if (parsed instanceof ParseResult.Rejected rejected) {
      return new ApplyResult.Rejected(rejected.rejection());
    }
    return applier.apply(document, ((ParseResult.Parsed) parsed).diff());
  }
}
