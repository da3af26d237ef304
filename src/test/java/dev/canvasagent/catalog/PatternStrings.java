package dev.canvasagent.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A random string a simple regular expression matches: literals, escapes ({@code \d \w \s \S} and
 * escaped literals, {@code \\uXXXX}), {@code .}, character classes with ranges and negation, groups with {@code |},
 * and the quantifiers {@code ? * + {n} {n,} {n,m}}; anchors are skipped. Enough for the id patterns
 * JSON Schemas use; {@link SchemaSamples} checks each result against the pattern itself.
 */
final class PatternStrings {
  /** Printable ASCII: what a negated class or {@code .} draws from. */
  static final String PRINTABLE = printable();

  /** How far past its minimum an open quantifier ({@code * + {n,}}) repeats. */
  static final int OPEN_REPEAT = 6;

  private final String pattern;
  private final Random random;
  private int at;

  private PatternStrings(String pattern, Random random) {
    this.pattern = pattern;
    this.random = random;
  }

  static String generate(String pattern, Random random) {
    PatternStrings parser = new PatternStrings(pattern, random);
    StringBuilder out = new StringBuilder();
    parser.alternatives(out);
    return out.toString();
  }

  /** {@code a|b|c} up to a closing parenthesis or the end: one of them, written. */
  private void alternatives(StringBuilder out) {
    List<StringBuilder> options = new ArrayList<>();
    options.add(new StringBuilder());
    while (at < pattern.length() && pattern.charAt(at) != ')') {
      if (pattern.charAt(at) == '|') {
        at++;
        options.add(new StringBuilder());
        continue;
      }
      sequenceItem(options.get(options.size() - 1));
    }
    out.append(options.get(random.nextInt(options.size())));
  }

  /** One atom and its quantifier. */
  private void sequenceItem(StringBuilder out) {
    char c = pattern.charAt(at);
    if (c == '^' || c == '$') {
      at++;
      return;
    }
    int atomStart = at;
    skipAtom();
    int[] repeat = quantifier();
    int after = at;
    int times = repeat[0] + random.nextInt(repeat[1] - repeat[0] + 1);
    for (int i = 0; i < times; i++) {
      at = atomStart;
      writeAtom(out);
    }
    at = after;
  }

  private void skipAtom() {
    char c = pattern.charAt(at);
    if (c == '\\') {
      at += pattern.charAt(at + 1) == 'u' ? 6 : 2;
    } else if (c == '[') {
      at++;
      if (at < pattern.length() && pattern.charAt(at) == '^') {
        at++;
      }
      if (at < pattern.length() && pattern.charAt(at) == ']') {
        at++;
      }
      while (pattern.charAt(at) != ']') {
        at += pattern.charAt(at) == '\\' ? 2 : 1;
      }
      at++;
    } else if (c == '(') {
      int depth = 0;
      do {
        char d = pattern.charAt(at);
        if (d == '\\') {
          at++;
        } else if (d == '(') {
          depth++;
        } else if (d == ')') {
          depth--;
        }
        at++;
      } while (depth > 0);
    } else {
      at++;
    }
  }

  /** The quantifier at {@code at} as {min, max}, consumed; {1, 1} when there is none. */
  private int[] quantifier() {
    if (at >= pattern.length()) {
      return new int[] {1, 1};
    }
    char c = pattern.charAt(at);
    switch (c) {
      case '?':
        at++;
        return new int[] {0, 1};
      case '*':
        at++;
        return new int[] {0, OPEN_REPEAT};
      case '+':
        at++;
        return new int[] {1, 1 + OPEN_REPEAT};
      case '{':
        int close = pattern.indexOf('}', at);
        String[] bounds = pattern.substring(at + 1, close).split(",", -1);
        at = close + 1;
        int min = Integer.parseInt(bounds[0].trim());
        int max =
            bounds.length == 1
                ? min
                : bounds[1].isBlank() ? min + OPEN_REPEAT : Integer.parseInt(bounds[1].trim());
        // Long ids are as valid as short ones, and shorter to read in a failure.
        return new int[] {min, Math.min(max, Math.max(min, 8))};
      default:
        return new int[] {1, 1};
    }
  }

  private void writeAtom(StringBuilder out) {
    char c = pattern.charAt(at);
    if (c == '\\') {
      out.append(pick(escape()));
    } else if (c == '[') {
      out.append(pick(characterClass()));
    } else if (c == '(') {
      at++;
      if (pattern.startsWith("?:", at)) {
        at += 2;
      }
      alternatives(out);
      at++;
    } else if (c == '.') {
      out.append(pick(PRINTABLE));
      at++;
    } else {
      out.append(c);
      at++;
    }
  }

  /** The characters of the class at {@code at}, consumed. */
  private String characterClass() {
    at++;
    boolean negated = pattern.charAt(at) == '^';
    if (negated) {
      at++;
    }
    StringBuilder members = new StringBuilder();
    boolean first = true;
    while (first || pattern.charAt(at) != ']') {
      first = false;
      String from;
      if (pattern.charAt(at) == '\\') {
        from = escape();
      } else {
        from = String.valueOf(pattern.charAt(at));
        at++;
      }
      if (from.length() == 1 && pattern.charAt(at) == '-' && pattern.charAt(at + 1) != ']') {
        at++;
        char to;
        if (pattern.charAt(at) == '\\') {
          to = escape().charAt(0);
        } else {
          to = pattern.charAt(at);
          at++;
        }
        for (char member = from.charAt(0); member <= to; member++) {
          members.append(member);
        }
      } else {
        members.append(from);
      }
    }
    at++;
    if (!negated) {
      return members.toString();
    }
    StringBuilder rest = new StringBuilder();
    for (char member : PRINTABLE.toCharArray()) {
      if (members.indexOf(String.valueOf(member)) < 0) {
        rest.append(member);
      }
    }
    return rest.toString();
  }

  /** The characters the escape at {@code at} stands for ({@code \\uXXXX} too), consumed. */
  private String escape() {
    char c = pattern.charAt(at + 1);
    at += 2;
    if (c == 'u' && at + 4 <= pattern.length()) {
      char code = (char) Integer.parseInt(pattern.substring(at, at + 4), 16);
      at += 4;
      return String.valueOf(code);
    }
    return switch (c) {
      case 'd' -> "0123456789";
      case 'w' -> "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
      case 's' -> " ";
      case 'S' -> "abcdefghijklmnopqrstuvwxyz0123456789";
      default -> String.valueOf(c);
    };
  }

  private char pick(String members) {
    return members.charAt(random.nextInt(members.length()));
  }

  private static String printable() {
    StringBuilder printable = new StringBuilder();
    for (char c = 0x20; c < 0x7f; c++) {
      printable.append(c);
    }
    return printable.toString();
  }
}
