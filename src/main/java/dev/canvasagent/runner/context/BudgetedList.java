package dev.canvasagent.runner.context;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A section made of a heading and one line per item, cut to a byte budget. Which items go first is
 * the caller's choice: {@link Keep#FIRST} drops from the end, {@link Keep#LAST} from the start (the
 * newest messages, the topmost shapes). The items kept stay in their original order.
 */
final class BudgetedList<T> {
  enum Keep {
    FIRST,
    LAST
  }

  private final List<T> kept;
  private final String text;
  private final boolean truncated;

  private BudgetedList(List<T> kept, String text, boolean truncated) {
    this.kept = kept;
    this.text = text;
    this.truncated = truncated;
  }

  static <T> BudgetedList<T> of(
      String heading, List<T> items, Function<T, String> line, int budgetBytes, Keep keep) {
    String head = "## " + heading + "\n";
    int used = PartOutput.utf8Length(head);
    List<T> ordered = new ArrayList<>(items);
    if (keep == Keep.LAST) {
      Collections.reverse(ordered);
    }
    List<T> kept = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    for (T item : ordered) {
      String text = line.apply(item) + "\n";
      int size = PartOutput.utf8Length(text);
      if (used + size > budgetBytes) {
        break;
      }
      used += size;
      kept.add(item);
      lines.add(text);
    }
    if (keep == Keep.LAST) {
      Collections.reverse(kept);
      Collections.reverse(lines);
    }
    boolean truncated = kept.size() < items.size();
    String text = kept.isEmpty() ? "" : head + String.join("", lines);
    return new BudgetedList<>(kept, text, truncated);
  }

  List<T> kept() {
    return kept;
  }

  /** The section, or empty when not even one item fits (or there was none). */
  String text() {
    return text;
  }

  boolean truncated() {
    return truncated;
  }
}
