package dev.canvasagent.document;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Regular expressions on a time budget: Java's backtracking matcher can take exponential time on a
 * pattern like {@code (a+)+$}, so the text it reads checks a deadline as it is read, and a search that
 * overruns ends with a clear error instead of holding the event loop.
 */
public final class BoundedRegex {
  private BoundedRegex() {}

  public static Pattern compile(String pattern, boolean regex, boolean caseSensitive) {
    int flags = caseSensitive ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    try {
      return Pattern.compile(regex ? pattern : Pattern.quote(pattern), flags);
    } catch (PatternSyntaxException invalid) {
      throw new Failure(
          FailureCode.INVALID_REQUEST,
          "invalid regular expression: "
              + invalid.getDescription()
              + " near index "
              + invalid.getIndex());
    }
  }

  /** {@code text} that throws once {@code deadlineNanos} (of {@link System#nanoTime}) has passed. */
  public static CharSequence withDeadline(CharSequence text, long deadlineNanos, long budgetMs) {
    return new Deadlined(text, deadlineNanos, budgetMs);
  }

  private static final class Deadlined implements CharSequence {
    private final CharSequence text;
    private final long deadlineNanos;
    private final long budgetMs;
    private int reads;

    Deadlined(CharSequence text, long deadlineNanos, long budgetMs) {
      this.text = text;
      this.deadlineNanos = deadlineNanos;
      this.budgetMs = budgetMs;
    }

    @Override
    public char charAt(int index) {
      if ((++reads & 0x3FF) == 0 && System.nanoTime() > deadlineNanos) {
        throw new Failure(
            FailureCode.INVALID_REQUEST,
            "the regular expression took longer than "
                + budgetMs
                + " ms (catastrophic backtracking?); simplify it or search for a plain string");
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new Deadlined(text.subSequence(start, end), deadlineNanos, budgetMs);
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }
}
