package dev.canvasagent.document.patch;

import java.util.ArrayList;

/**
 * Applies a parsed diff as {@code git apply} does by default: hunk after hunk on the document as
 * the earlier hunks left it, each found by {@link HunkSearch} or the whole patch is refused and the
 * document left as it was. No fuzz, no context reduction, no whitespace fixing; {@code \r} is part
 * of a line and the no-newline marker adds or removes the final newline on either side.
 *
 * <p>A patch of several sections for the document applies them in turn, each to the text the one
 * before left, as git applies two patches to the same file: within a section no hunk may match
 * lines an earlier hunk wrote, but a later section starts afresh and may.
 *
 * <p>Parsing and joining are linear; each hunk's search is linear in the hunk where the header is
 * right and grows with the distance searched otherwise, and writing a hunk copies the line array.
 */
public final class StrictApplier {

  public ApplyResult apply(String document, UnifiedDiff diff) {
    var text = document;
    var placements = new ArrayList<HunkPlacement>();
    for (var section : diff.sections()) {
      var image = DocumentImage.of(text);
      for (var hunk : section.hunks()) {
        var preimage = hunk.preimage();
        boolean atStart = hunk.oldStart() <= 1;
        boolean atEnd = hunk.trailingContext() == 0;
        int expected = hunk.newStart() > 0 ? hunk.newStart() - 1 : 0;
        int at = HunkSearch.find(image, preimage, expected, atStart, atEnd);
        if (at < 0) {
          return new ApplyResult.Rejected(
              MismatchReport.of(image, hunk, preimage, expected, atStart, atEnd));
        }
        image.replace(at, preimage.size(), hunk.postimage());
        placements.add(new HunkPlacement(hunk.number(), expected + 1, at + 1));
      }
      text = image.text();
    }
    return new ApplyResult.Applied(text, placements);
  }
}
