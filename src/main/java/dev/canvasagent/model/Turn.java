package dev.canvasagent.model;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * One turn of a conversation after a request's first user turn: what a multi-step tool loop sends
 * back to the model. Each provider renders turns in its own wire format; the call ids are the
 * provider's own, so results can be matched to the calls they answer.
 */
public sealed interface Turn {
  /** A later user message, as plain text. */
  record User(String text) implements Turn {
    public User {
      Objects.requireNonNull(text, "text");
    }
  }

  /** What the model answered: its text (possibly empty) and its finished tool calls, in order. */
  record Assistant(String text, List<ToolCall> calls) implements Turn {
    public Assistant {
      text = text == null ? "" : text;
      calls = List.copyOf(calls);
    }
  }

  /** The results of an assistant turn's tool calls, in the order of the calls. */
  record ToolResults(List<ToolResult> results) implements Turn {
    public ToolResults {
      results = List.copyOf(results);
    }
  }

  /**
   * A finished tool call: the provider's call id, the tool's name, its parsed arguments, and the
   * provider's opaque token to send back with it ({@code signature}, Gemini's {@code
   * thoughtSignature}), or null.
   */
  record ToolCall(String callId, String name, JsonObject arguments, String signature) {
    public ToolCall {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(name, "name");
      arguments = arguments == null ? new JsonObject() : arguments;
    }

    public ToolCall(String callId, String name, JsonObject arguments) {
      this(callId, name, arguments, null);
    }
  }

  /**
   * The outcome of one call: either {@code result} (a JSON object) or {@code error} (a message the
   * model reads), never both.
   */
  record ToolResult(String callId, String name, JsonObject result, String error) {
    public ToolResult {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(name, "name");
      if ((result == null) == (error == null)) {
        throw new IllegalArgumentException("a tool result has either a result or an error");
      }
    }

    public static ToolResult success(ToolCall call, JsonObject result) {
      return new ToolResult(call.callId(), call.name(), result, null);
    }

    public static ToolResult failure(ToolCall call, String error) {
      return new ToolResult(call.callId(), call.name(), null, error);
    }

    public boolean isError() {
      return error != null;
    }

    /** The result as text, for providers that take a string: the compact JSON, or {@code Error: …}. */
    public String text() {
      return isError() ? "Error: " + error : result.encode();
    }
  }
}
