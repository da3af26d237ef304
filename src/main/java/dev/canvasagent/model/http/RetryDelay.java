package dev.canvasagent.model.http;

import io.vertx.core.MultiMap;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * How long to wait before the next try: the provider's own hint when it sent one ({@code
 * retry-after-ms}, as the OpenAI and Anthropic SDKs read it, or {@code Retry-After} in seconds or
 * as an HTTP date), else exponential backoff from {@link #BASE_MS}; never more than the cap.
 */
final class RetryDelay {
  static final long BASE_MS = 500;

  private RetryDelay() {}

  /** {@code retry} counts from 1; {@code headers} may be null (no HTTP answer, e.g. a dropped connection). */
  static long millis(int retry, MultiMap headers, long capMs, long nowMs) {
    Long hinted = headers == null ? null : hint(headers, nowMs);
    long delay = hinted != null ? hinted : BASE_MS << Math.min(retry - 1, 10);
    return Math.max(0, Math.min(delay, capMs));
  }

  private static Long hint(MultiMap headers, long nowMs) {
    String millis = headers.get("retry-after-ms");
    if (millis != null) {
      try {
        return (long) Math.ceil(Double.parseDouble(millis.strip()));
      } catch (NumberFormatException ignored) {
        // fall through to Retry-After
      }
    }
    String after = headers.get("retry-after");
    if (after == null) {
      return null;
    }
    try {
      return (long) Math.ceil(Double.parseDouble(after.strip()) * 1000);
    } catch (NumberFormatException notSeconds) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(after.strip(), DateTimeFormatter.RFC_1123_DATE_TIME);
        return Duration.ofMillis(at.toInstant().toEpochMilli() - nowMs).toMillis();
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }
}
