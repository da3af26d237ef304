package dev.canvasagent.board;

/**
 * Fractional-indexing keys as tldraw orders shapes with them (the base-62 scheme of David Greenspan's
 * "Implementing Fractional Indexing"): an integer part whose head letter gives its length
 * ({@code a0}, {@code a1}, {@code b10}, {@code Zz}), then an optional fraction with no trailing zero.
 * Keys compare as plain strings.
 */
public final class FractionalIndex {
  private static final String DIGITS =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  private static final String SMALLEST_INTEGER = "A" + "0".repeat(26);

  private FractionalIndex() {}

  /** A key strictly between {@code below} and {@code above}; either may be null for "no bound". */
  public static String between(String below, String above) {
    if (below != null) {
      validate(below);
    }
    if (above != null) {
      validate(above);
    }
    if (below != null && above != null && below.compareTo(above) >= 0) {
      throw new IllegalArgumentException(below + " is not below " + above);
    }
    if (below == null && above == null) {
      return "a0";
    }
    if (below == null) {
      String integer = integerPart(above);
      String fraction = above.substring(integer.length());
      if (integer.equals(SMALLEST_INTEGER)) {
        return integer + midpoint("", fraction);
      }
      if (integer.compareTo(above) < 0) {
        return integer;
      }
      String decremented = decrementInteger(integer);
      if (decremented == null) {
        throw new IllegalArgumentException("cannot go below " + above);
      }
      return decremented;
    }
    String integer = integerPart(below);
    String fraction = below.substring(integer.length());
    if (above == null) {
      String incremented = incrementInteger(integer);
      return incremented == null ? integer + midpoint(fraction, null) : incremented;
    }
    String aboveInteger = integerPart(above);
    if (integer.equals(aboveInteger)) {
      return integer + midpoint(fraction, above.substring(aboveInteger.length()));
    }
    String incremented = incrementInteger(integer);
    if (incremented == null) {
      throw new IllegalArgumentException("cannot go above " + below);
    }
    return incremented.compareTo(above) < 0 ? incremented : integer + midpoint(fraction, null);
  }

  /** A key above {@code below} (null: the first key). */
  public static String after(String below) {
    return between(below, null);
  }

  public static boolean isValid(String key) {
    try {
      validate(key);
      return true;
    } catch (IllegalArgumentException invalid) {
      return false;
    }
  }

  private static void validate(String key) {
    if (key.isEmpty()) {
      throw new IllegalArgumentException("empty index key");
    }
    if (key.equals(SMALLEST_INTEGER)) {
      throw new IllegalArgumentException("invalid index key: " + key);
    }
    for (int i = 0; i < key.length(); i++) {
      if (DIGITS.indexOf(key.charAt(i)) < 0) {
        throw new IllegalArgumentException("invalid index key: " + key);
      }
    }
    String integer = integerPart(key);
    if (key.length() > integer.length() && key.endsWith("0")) {
      throw new IllegalArgumentException("invalid index key (trailing zero): " + key);
    }
  }

  private static String integerPart(String key) {
    int length = integerLength(key.charAt(0));
    if (length > key.length()) {
      throw new IllegalArgumentException("invalid index key: " + key);
    }
    return key.substring(0, length);
  }

  private static int integerLength(char head) {
    if (head >= 'a' && head <= 'z') {
      return head - 'a' + 2;
    }
    if (head >= 'A' && head <= 'Z') {
      return 'Z' - head + 2;
    }
    throw new IllegalArgumentException("invalid index key head: " + head);
  }

  private static String midpoint(String below, String above) {
    if (above != null) {
      int common = 0;
      while (common < above.length() && charAtOrZero(below, common) == above.charAt(common)) {
        common++;
      }
      if (common > 0) {
        return above.substring(0, common)
            + midpoint(
                below.length() > common ? below.substring(common) : "", above.substring(common));
      }
    }
    int digitBelow = below.isEmpty() ? 0 : DIGITS.indexOf(below.charAt(0));
    int digitAbove = above != null ? DIGITS.indexOf(above.charAt(0)) : DIGITS.length();
    if (digitAbove - digitBelow > 1) {
      return String.valueOf(DIGITS.charAt((int) Math.round(0.5 * (digitBelow + digitAbove))));
    }
    if (above != null && above.length() > 1) {
      return above.substring(0, 1);
    }
    return DIGITS.charAt(digitBelow) + midpoint(below.isEmpty() ? "" : below.substring(1), null);
  }

  private static char charAtOrZero(String s, int i) {
    return i < s.length() ? s.charAt(i) : '0';
  }

  private static String incrementInteger(String integer) {
    char head = integer.charAt(0);
    char[] digits = integer.substring(1).toCharArray();
    boolean carry = true;
    for (int i = digits.length - 1; carry && i >= 0; i--) {
      int next = DIGITS.indexOf(digits[i]) + 1;
      if (next == DIGITS.length()) {
        digits[i] = '0';
      } else {
        digits[i] = DIGITS.charAt(next);
        carry = false;
      }
    }
    String rest = new String(digits);
    if (!carry) {
      return head + rest;
    }
    if (head == 'Z') {
      return "a0";
    }
    if (head == 'z') {
      return null;
    }
    char nextHead = (char) (head + 1);
    rest = nextHead > 'a' ? rest + "0" : rest.substring(0, rest.length() - 1);
    return nextHead + rest;
  }

  private static String decrementInteger(String integer) {
    char head = integer.charAt(0);
    char[] digits = integer.substring(1).toCharArray();
    char largest = DIGITS.charAt(DIGITS.length() - 1);
    boolean borrow = true;
    for (int i = digits.length - 1; borrow && i >= 0; i--) {
      int previous = DIGITS.indexOf(digits[i]) - 1;
      if (previous == -1) {
        digits[i] = largest;
      } else {
        digits[i] = DIGITS.charAt(previous);
        borrow = false;
      }
    }
    String rest = new String(digits);
    if (!borrow) {
      return head + rest;
    }
    if (head == 'a') {
      return "Z" + largest;
    }
    if (head == 'A') {
      return null;
    }
    char previousHead = (char) (head - 1);
    rest = previousHead < 'Z' ? rest + largest : rest.substring(0, rest.length() - 1);
    return previousHead + rest;
  }
}
