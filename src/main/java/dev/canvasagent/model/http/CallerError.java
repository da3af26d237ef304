package dev.canvasagent.model.http;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.security.CredentialRedactor;
import java.util.regex.Pattern;

/**
 * What a failed provider call tells its caller, who shows it to every viewer of the room and stores
 * it with the run: the provider, its HTTP status, its error type when that is a short identifier, and
 * a correlation id — in the server's words only. The provider's own text may quote the key it was sent
 * ({@code 401 invalid x-api-key: sk-ant-…}); it goes to the operator's log line alone, redacted, under
 * the same correlation id ({@link StreamingCall}).
 */
final class CallerError {
  /** What provider error types look like ({@code authentication_error}, {@code RESOURCE_EXHAUSTED}, {@code 503}). */
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.]{0,47}");

  private CallerError() {}

  /** {@code error} as the caller may see it: same type (if it is safe), retryability and status, none of the provider's text. */
  static ModelEvent.Error of(
      String provider, int status, ModelEvent.Error error, String correlationId) {
    String type = safeType(error.errorType(), status);
    return new ModelEvent.Error(
        type,
        describe(provider, status, type) + " (correlation id " + correlationId + ")",
        error.retryable(),
        status,
        correlationId);
  }

  /**
   * The provider's error type when it is an identifier that is not a credential; otherwise {@code
   * http_<status>}. A type is provider text too: a proxy may put anything there, a key included.
   */
  static String safeType(String type, int status) {
    if (type != null
        && IDENTIFIER.matcher(type).matches()
        && CredentialRedactor.patternsOnly().redact(type).equals(type)) {
      return type;
    }
    return "http_" + status;
  }

  private static String describe(String provider, int status, String type) {
    if (type.equals("stream_timeout")) {
      return provider + " sent nothing for too long";
    }
    if (type.equals("stream_truncated")) {
      return provider + " could not be reached, or its connection or stream ended early";
    }
    if (status == 0) {
      return provider + " could not be reached or dropped the connection";
    }
    if (status / 100 == 2) {
      return provider + " reported an error in its stream";
    }
    return provider + " answered HTTP " + status;
  }
}
