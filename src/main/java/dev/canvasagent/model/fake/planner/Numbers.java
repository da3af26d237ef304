package dev.canvasagent.model.fake.planner;

import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/** Numbers in a command: digits ({@code 3}, {@code 40px}) and the small ones in words. */
final class Numbers {
  private static final Map<String, Integer> WORDS =
      Map.ofEntries(
          Map.entry("a", 1),
          Map.entry("an", 1),
          Map.entry("one", 1),
          Map.entry("another", 1),
          Map.entry("two", 2),
          Map.entry("couple", 2),
          Map.entry("pair", 2),
          Map.entry("three", 3),
          Map.entry("few", 3),
          Map.entry("four", 4),
          Map.entry("five", 5),
          Map.entry("six", 6),
          Map.entry("seven", 7),
          Map.entry("eight", 8),
          Map.entry("nine", 9),
          Map.entry("ten", 10),
          Map.entry("twelve", 12));
  private static final Pattern DIGITS = Pattern.compile("-?\\d{1,6}(?:\\.\\d+)?(?:px|pt|units?)?");

  private Numbers() {}

  /** A count of shapes ("3", "three", "a"). */
  static OptionalInt count(String word) {
    if (WORDS.containsKey(word)) {
      return OptionalInt.of(WORDS.get(word));
    }
    OptionalDouble number = number(word);
    return number.isPresent() && number.getAsDouble() == Math.rint(number.getAsDouble())
        ? OptionalInt.of((int) number.getAsDouble())
        : OptionalInt.empty();
  }

  /** A number in digits, with an optional unit ({@code 40}, {@code 40px}). */
  static OptionalDouble number(String word) {
    if (!DIGITS.matcher(word).matches()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Double.parseDouble(word.replaceAll("[a-z]+$", "")));
  }

  static boolean isUnit(String word) {
    return word.equals("px")
        || word.equals("pixels")
        || word.equals("pixel")
        || word.equals("units")
        || word.equals("unit")
        || word.equals("points");
  }
}
