package dev.canvasagent.board;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.pcollections.TreePSet;

/**
 * Record ids in groups, each group ordered by a key and then by id: a parent's children by index, a
 * shape's bindings. Persistent: a change shares the rest, so a {@link Board} keeps it up to date from
 * a diff in O(diff · log n), and one group is read without reading the others.
 */
final class GroupedIds {
  private record Entry(String group, String order, String id) {}

  private static final Comparator<Entry> ORDER =
      Comparator.comparing(Entry::group).thenComparing(Entry::order).thenComparing(Entry::id);

  static final GroupedIds EMPTY = new GroupedIds(TreePSet.empty(ORDER));

  private final TreePSet<Entry> entries;

  private GroupedIds(TreePSet<Entry> entries) {
    this.entries = entries;
  }

  GroupedIds plus(String group, String order, String id) {
    return new GroupedIds(entries.plus(new Entry(group, order, id)));
  }

  GroupedIds minus(String group, String order, String id) {
    return new GroupedIds(entries.minus(new Entry(group, order, id)));
  }

  /** The group's ids, by order key, then by id. */
  List<String> ids(String group) {
    List<String> ids = new ArrayList<>();
    Entry next = entries.ceiling(new Entry(group, "", ""));
    while (next != null && next.group().equals(group)) {
      ids.add(next.id());
      next = entries.higher(next);
    }
    return ids;
  }

  /** The greatest order key of the group, unless the group is empty or its keys are all empty. */
  Optional<String> lastOrder(String group) {
    Entry last = entries.lower(new Entry(group + '\0', "", ""));
    return last != null && last.group().equals(group) && !last.order().isEmpty()
        ? Optional.of(last.order())
        : Optional.empty();
  }
}
