package dev.canvasagent.document.patch;

/**
 * Where a hunk applied: {@code expectedLine} is the 1-based line its header named (in the document
 * as earlier hunks left it), {@code appliedLine} where its old lines were found, {@code offset} the
 * difference, as {@code git apply -v} reports "Hunk #n succeeded at … (offset … lines)".
 */
public record HunkPlacement(int hunk, int expectedLine, int appliedLine) {
  public int offset() {
    return appliedLine - expectedLine;
  }
}
