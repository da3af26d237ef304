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

  record ToolCallEnd(int ordinal, String callId, String name, JsonObject arguments) implements ModelEvent {}

  record Usage(long inputTokens, long outputTokens) implements ModelEvent {}

  record Stop(String reason) implements ModelEvent {}

  record Error(String errorType, String message, boolean retryable) implements ModelEvent {}
}
