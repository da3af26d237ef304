package dev.canvasagent.model;

import java.util.Set;

/** The normalized error events every stream normalizer emits, with one retryable rule (README rule 8). */
public final class ProviderErrors {
  private static final Set<String> RETRYABLE_TYPES =
      Set.of(
          "overloaded_error",
          "rate_limit_error",
          "api_error",
          "server_error",
          "InternalServerError",
          "UNAVAILABLE",
          "RESOURCE_EXHAUSTED",
          "INTERNAL",
          "unavailable_error",
          "stream_truncated",
          // OpenAI's code for rate limiting, beside rule 8's list.
          "rate_limit_exceeded");

  private ProviderErrors() {}

  /** An in-band provider error; {@code code} is the provider's code (number, numeric text or null). */
  public static ModelEvent.Error inBand(String errorType, String message, Object code) {
    return new ModelEvent.Error(errorType, message, isRetryable(errorType, code));
  }

  /** End of input before the stream's terminal marker. */
  public static ModelEvent.Error truncated() {
    return new ModelEvent.Error(
        "stream_truncated", "stream ended before its terminal marker", true);
  }

  public static boolean isRetryable(String errorType, Object code) {
    if (errorType != null && RETRYABLE_TYPES.contains(errorType)) {
      return true;
    }
    if (code instanceof Number number) {
      return number.longValue() >= 500;
    }
    if (code instanceof String text && text.matches("\\d{3,}")) {
      return Long.parseLong(text) >= 500;
    }
    return false;
  }
}
