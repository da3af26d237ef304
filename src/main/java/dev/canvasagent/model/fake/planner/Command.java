package dev.canvasagent.model.fake.planner;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A plain command as the planner reads it: the text without polite framing or closing punctuation,
 * and its words in lower case (split on spaces and commas).
 *
 * @param text the command in its own case, e.g. {@code draw a box labeled Q3}
 * @param words its words, lower case: {@code [draw, a, box, labeled, q3]}
 */
record Command(String text, List<String> words) {
  private static final Pattern POLITE_START =
      Pattern.compile(
          "^(?:please|pls|can you|could you|would you|will you)\\s+", Pattern.CASE_INSENSITIVE);
  private static final Pattern POLITE_END =
      Pattern.compile("[\\s,]+please$", Pattern.CASE_INSENSITIVE);
  private static final Pattern CLOSING = Pattern.compile("[\\s.!?]+$");
  private static final Pattern WORD_BREAK = Pattern.compile("[\\s,;]+");

  static Command parse(String message) {
    String text = message.strip();
    String before;
    do {
      before = text;
      text = CLOSING.matcher(text).replaceAll("");
      text = POLITE_START.matcher(text).replaceAll("");
      text = POLITE_END.matcher(text).replaceAll("");
    } while (!text.equals(before));
    List<String> words =
        text.isEmpty()
            ? List.of()
            : Arrays.stream(WORD_BREAK.split(text.toLowerCase(Locale.ROOT)))
                .filter(word -> !word.isEmpty())
                .toList();
    return new Command(text, words);
  }

  String verb() {
    return words.isEmpty() ? "" : words.get(0);
  }

  /** The words after the verb. */
  List<String> rest() {
    return words.isEmpty() ? List.of() : words.subList(1, words.size());
  }

  /** The text after the verb, in its own case. */
  String textAfterVerb() {
    String stripped = text.strip();
    int space = stripped.indexOf(' ');
    return space < 0 ? "" : stripped.substring(space + 1).strip();
  }
}
