package dev.canvasagent.auth;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.OptionalLong;

/**
 * A token's time claim ({@code exp}, {@code nbf}, {@code iat}) as whole seconds since the epoch.
 * JSON gives it as whatever number the issuer wrote: {@code 1e300} decodes as a double, and {@code
 * 1e999} as infinity, and either cast to a long would pass as "far in the future" or overflow once
 * turned into milliseconds. Only whole numbers in the range milliseconds can hold are times here.
 */
final class NumericDate {
  /** The largest second whose millisecond still fits a {@code long}. */
  static final long MAX_SECONDS = Long.MAX_VALUE / 1000;

  private NumericDate() {}

  /** The claim's seconds, or empty when it is not a whole number between 0 and {@link #MAX_SECONDS}. */
  static OptionalLong of(Object claim) {
    long seconds;
    if (claim instanceof Integer
        || claim instanceof Long
        || claim instanceof Short
        || claim instanceof Byte) {
      seconds = ((Number) claim).longValue();
    } else if (claim instanceof Double || claim instanceof Float) {
      double value = ((Number) claim).doubleValue();
      if (!Double.isFinite(value) || value != Math.rint(value) || Math.abs(value) > MAX_SECONDS) {
        return OptionalLong.empty();
      }
      seconds = (long) value;
    } else if (claim instanceof BigInteger || claim instanceof BigDecimal) {
      try {
        seconds = new BigDecimal(claim.toString()).longValueExact();
      } catch (ArithmeticException notAWholeLong) {
        return OptionalLong.empty();
      }
    } else {
      return OptionalLong.empty();
    }
    return seconds >= 0 && seconds <= MAX_SECONDS ? OptionalLong.of(seconds) : OptionalLong.empty();
  }

  /** {@code seconds} from {@link #of}, in milliseconds: within range by construction. */
  static long millis(long seconds) {
    return Math.multiplyExact(seconds, 1000L);
  }
}
