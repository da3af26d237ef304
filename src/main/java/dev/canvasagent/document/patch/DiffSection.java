package dev.canvasagent.document.patch;

import java.util.List;

/**
 * One file section of a patch: its optional {@code ---}/{@code +++} headers and the run of hunks
 * after them, at least one. Sections apply one after the other, each to the text the previous left,
 * as {@code git apply} applies two patches to the same file.
 */
public record DiffSection(List<Hunk> hunks) {
  public DiffSection {
    hunks = List.copyOf(hunks);
  }
}
