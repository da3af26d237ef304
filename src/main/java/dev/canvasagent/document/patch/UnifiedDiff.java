package dev.canvasagent.document.patch;

import java.util.List;

/** A parsed unified diff of one document: its hunks in patch order, at least one. */
public record UnifiedDiff(List<Hunk> hunks) {
  public UnifiedDiff {
    hunks = List.copyOf(hunks);
  }
}
