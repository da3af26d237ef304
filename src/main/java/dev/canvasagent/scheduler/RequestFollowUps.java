package dev.canvasagent.scheduler;

import java.util.HashSet;
import java.util.Set;

/**
 * What one user request has had of follow-ups: how many were granted (against
 * {@code followups.maxFollowups}), which of the scheduler's rules have judged it (each at most once per
 * request), and the person's message the rules quote.
 */
final class RequestFollowUps {
  final String personMessage;
  private int granted;
  private final Set<String> rulesApplied = new HashSet<>();

  RequestFollowUps(String personMessage) {
    this.personMessage = personMessage;
  }

  int granted() {
    return granted;
  }

  void grant() {
    granted++;
  }

  /** A request taken over from another node had granted follow-ups up to {@code number}. */
  void grantedAtLeast(int number) {
    granted = Math.max(granted, number);
  }

  /** A granted follow-up that could not be stored gives its place back. */
  void release() {
    granted--;
  }

  /** Marks {@code rule} as applied to this request; false when it already was. */
  boolean applyRuleOnce(String rule) {
    return rulesApplied.add(rule);
  }
}
