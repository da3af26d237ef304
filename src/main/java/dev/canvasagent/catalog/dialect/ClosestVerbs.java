package dev.canvasagent.catalog.dialect;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The verbs a name that is none of ours most likely meant: the nearest by edit distance over {@link
 * VerbNames#normalized normalized} names, so a model told "unknown action" also learns what to call
 * instead. A tiny Levenshtein distance: no library in the build has one.
 */
public final class ClosestVerbs {
  /** How many verbs a reason names. */
  static final int SUGGESTIONS = 3;

  private ClosestVerbs() {}

  /** The {@link #SUGGESTIONS} verbs nearest to {@code name}, nearest first (ties keep the catalog's order). */
  public static List<String> to(String name, Collection<String> verbs) {
    String wanted = VerbNames.normalized(name);
    return verbs.stream()
        .sorted(
            Comparator.comparingInt((String verb) -> distance(wanted, VerbNames.normalized(verb))))
        .limit(SUGGESTIONS)
        .toList();
  }

  /** The reason an unknown verb is dropped with. */
  public static String reason(String name, Collection<String> verbs) {
    return "unknown action '"
        + name
        + "'; the closest known verbs are "
        + String.join(", ", to(name, verbs));
  }

  /** Insertions, deletions and substitutions that turn {@code a} into {@code b}. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
