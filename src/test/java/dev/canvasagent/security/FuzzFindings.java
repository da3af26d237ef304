package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a fuzz pass saw: per target, how many cases ended how (2xx, 4xx, refused frame, …), and every
 * finding (a 5xx, a hang, a disconnect, a state change after a refusal) with the seed and case number
 * that reproduce it.
 */
final class FuzzFindings {
  record Finding(String target, int caseNumber, String mutation, String problem) {
    @Override
    public String toString() {
      return "case " + caseNumber + " " + target + " [" + mutation + "]: " + problem;
    }
  }

  static final int SHOWN = 25;

  private final String pass;
  private final long seed;
  private final List<Finding> findings = new ArrayList<>();
  private final Map<String, Map<String, Integer>> outcomes = new TreeMap<>();
  private int cases;

  FuzzFindings(String pass, long seed) {
    this.pass = pass;
    this.seed = seed;
  }

  void outcome(String target, String outcome) {
    cases++;
    outcomes.computeIfAbsent(target, t -> new TreeMap<>()).merge(outcome, 1, Integer::sum);
  }

  void problem(String target, int caseNumber, String mutation, String problem) {
    findings.add(
        new Finding(
            target,
            caseNumber,
            mutation.length() > 300 ? mutation.substring(0, 300) + "…" : mutation,
            problem));
  }

  int cases() {
    return cases;
  }

  /** One line per target: how its cases ended. */
  String summary() {
    StringBuilder text = new StringBuilder(pass + ": " + cases + " cases, seed " + seed + "\n");
    outcomes.forEach(
        (target, counts) ->
            text.append("  ").append(target).append(' ').append(counts).append('\n'));
    return text.toString();
  }

  void assertNone() {
    if (findings.isEmpty()) {
      return;
    }
    StringBuilder text =
        new StringBuilder(
            findings.size()
                + " finding(s) in "
                + pass
                + " (seed "
                + seed
                + "; rerun with -D"
                + FuzzTest.SEED_PROPERTY
                + "="
                + seed
                + "):\n");
    findings.stream()
        .limit(SHOWN)
        .forEach(finding -> text.append("  ").append(finding).append('\n'));
    fail(text.toString());
  }
}
