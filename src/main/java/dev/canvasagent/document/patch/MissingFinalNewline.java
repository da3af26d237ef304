package dev.canvasagent.document.patch;

/**
 * What to do when the patch text's very last line has no newline. git calls such a patch corrupt;
 * models often drop that one newline, so the tools tolerate it: the line is read as if the newline
 * were there (a line that should end the document without one needs the no-newline marker, as in
 * git). Only the last line of the text is forgiven; a missing newline anywhere else cannot happen.
 */
public enum MissingFinalNewline {
  /** As git: a hunk line or header without its newline makes the patch corrupt. */
  CORRUPT,
  /** The last line is read as if it ended with a newline. */
  TOLERATED
}
