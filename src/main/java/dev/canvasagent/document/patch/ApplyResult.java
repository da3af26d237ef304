package dev.canvasagent.document.patch;

import java.util.List;

/** The outcome of a strict apply: the whole new text, or a rejection and no change at all. */
public sealed interface ApplyResult {
  record Applied(String text, List<HunkPlacement> placements) implements ApplyResult {
    public Applied {
      placements = List.copyOf(placements);
    }
  }

  record Rejected(PatchRejection rejection) implements ApplyResult {}
}
