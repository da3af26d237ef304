package dev.canvasagent.document.patch;

/**
 * Why a patch was refused. {@code hunk} is 1-based (0 when the problem is not in a hunk),
 * {@code patchLine} the 1-based line of the patch text at fault (0 when none), {@code documentLine}
 * the 1-based line of the document at fault (0 when none); the message names them all.
 */
public record PatchRejection(
    RejectionReason reason, int hunk, int patchLine, int documentLine, String message) {

  static PatchRejection atPatchLine(
      RejectionReason reason, int hunk, int patchLine, String detail) {
    var where = hunk > 0 ? "hunk " + hunk + ", patch line " + patchLine : "patch line " + patchLine;
    return new PatchRejection(reason, hunk, patchLine, 0, where + ": " + detail);
  }

  static PatchRejection whole(RejectionReason reason, String detail) {
    return new PatchRejection(reason, 0, 0, 0, detail);
  }
}
