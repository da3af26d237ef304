package dev.canvasagent.document.patch;

import java.util.List;

/**
 * Says why a hunk found no place: compared where the hunk should have applied (the header's line,
 * or the start or end it is anchored to), the first line that differs, with both excerpts.
 */
final class MismatchReport {
  private MismatchReport() {}

  static PatchRejection of(
      DocumentImage image,
      Hunk hunk,
      List<String> preimage,
      int expected,
      boolean atStart,
      boolean atEnd) {
    int lines = image.size();
    int at = atStart ? 0 : atEnd ? Math.max(lines - preimage.size(), 0) : Math.min(expected, lines);
    var anchoring =
        atStart && atEnd
            ? "; it starts at line "
                + hunk.oldStart()
                + " and has no trailing context, so it must"
                + " cover the whole document"
            : atStart
                ? "; it starts at line "
                    + hunk.oldStart()
                    + ", so it must apply at the start of the"
                    + " document"
                : atEnd
                    ? "; it has no trailing context, so it must apply at the end of the document"
                    : "; its old lines are nowhere else in the document either";
    var prefix = "hunk " + hunk.number() + " (" + hunk.header() + ") does not apply: ";
    for (int i = 0; i < preimage.size(); i++) {
      int documentLine = at + i + 1;
      var wanted = preimage.get(i);
      if (at + i >= lines) {
        return rejection(
            hunk,
            documentLine,
            prefix
                + "the document has "
                + lines
                + " line(s), the"
                + " hunk expects line "
                + documentLine
                + " to be "
                + Excerpt.of(wanted)
                + anchoring);
      }
      var line = image.line(at + i);
      if (line.patched()) {
        return rejection(
            hunk,
            documentLine,
            prefix
                + "line "
                + documentLine
                + " was written by an earlier hunk and cannot be matched again"
                + anchoring);
      }
      if (!line.text().equals(wanted)) {
        return rejection(
            hunk,
            documentLine,
            prefix
                + "context mismatch at line "
                + documentLine
                + ": expected "
                + Excerpt.of(wanted)
                + ", found "
                + Excerpt.of(line.text())
                + anchoring);
      }
    }
    int documentLine = Math.min(at + preimage.size() + 1, lines);
    return rejection(
        hunk,
        documentLine,
        prefix
            + "its "
            + preimage.size()
            + " old line(s) match "
            + "lines "
            + (at + 1)
            + "-"
            + (at + preimage.size())
            + " but the document has "
            + lines
            + " line(s)"
            + anchoring);
  }

  private static PatchRejection rejection(Hunk hunk, int documentLine, String message) {
    return new PatchRejection(
        RejectionReason.CONTEXT_MISMATCH, hunk.number(), hunk.headerLine(), documentLine, message);
  }
}
