package dev.canvasagent.document.patch;

import java.util.List;

/**
 * A parsed unified diff of one document: its sections in patch order, at least one, each with at
 * least one hunk. Hunks are numbered across the whole patch.
 */
public record UnifiedDiff(List<DiffSection> sections) {
  public UnifiedDiff {
    sections = List.copyOf(sections);
  }

  /** Every hunk of every section, in patch order. */
  public List<Hunk> hunks() {
    return sections.stream().flatMap(section -> section.hunks().stream()).toList();
  }
}
