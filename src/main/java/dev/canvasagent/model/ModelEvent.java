package dev.canvasagent.model;

import io.vertx.core.json.JsonObject;

/**
 * The one stream every provider is normalized to: text, tool calls (start, argument fragments, end
 * with parsed arguments), usage, and exactly one terminal {@link Stop} or {@link Error}.
 */
public sealed interface ModelEvent {
  record TextDelta(String text) implements ModelEvent {}

  record ToolCallStart(int ordinal, String callId, String name) implements ModelEvent {}

  /**
   * A raw argument-text fragment. {@code synthetic} marks a fragment the normalizer produced itself
   * (Gemini sends whole argument objects; the normalizer re-serializes them as one fragment).
   */
  record ToolCallDelta(int ordinal, String callId, String argumentsDelta, boolean synthetic)
      implements ModelEvent {
    public ToolCallDelta(int ordinal, String callId, String argumentsDelta) {
      this(ordinal, callId, argumentsDelta, false);
    }
  }

  /**
   * A finished call. {@code signature} is an opaque token the provider wants back with this call
   * when the conversation continues (Gemini's {@code thoughtSignature}), or null.
   */
  record ToolCallEnd(
      int ordinal, String callId, String name, JsonObject arguments, String signature)
      implements ModelEvent {
    public ToolCallEnd(int ordinal, String callId, String name, JsonObject arguments) {
      this(ordinal, callId, name, arguments, null);
    }
  }

  /**
   * Token counts as the provider reported them (last value wins). Cache reads and writes and
   * reasoning tokens are 0 when the provider sent none; whether {@code inputTokens} includes cached
   * tokens and {@code outputTokens} reasoning tokens follows the provider's own semantics.
   */
  record Usage(
      long inputTokens,
      long outputTokens,
      long cacheReadTokens,
      long cacheWriteTokens,
      long reasoningTokens)
      implements ModelEvent {
    public Usage(long inputTokens, long outputTokens) {
      this(inputTokens, outputTokens, 0, 0, 0);
    }
  }

  /**
   * {@code reason} is one of {@code end_turn}, {@code tool_calls}, {@code max_tokens}, {@code
   * stop_sequence}, {@code content_filter}, {@code refusal}, {@code pause_turn}, {@code other};
   * {@code rawReason} is the provider's own word for it.
   */
  record Stop(String reason, String rawReason) implements ModelEvent {
    public Stop(String reason) {
      this(reason, reason);
    }
  }

  /**
   * The call failed. As a provider's normalizer reads it, {@code message} is the provider's own text;
   * what leaves a provider call is told only in the server's words ({@code model/http/CallerError}):
   * the provider's text may quote its API key, and a caller shows this error to every viewer and
   * stores it with the run. {@code providerStatus} is the provider's HTTP status (0: no answer, or a
   * model that is not called over HTTP); {@code correlationId} names the operator's log line that has
   * the provider's text, or is null.
   */
  record Error(
      String errorType, String message, boolean retryable, int providerStatus, String correlationId)
      implements ModelEvent {
    public Error(String errorType, String message, boolean retryable) {
      this(errorType, message, retryable, 0, null);
    }
  }
}
