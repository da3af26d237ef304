package dev.canvasagent.model.openai;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.OpenToolCall;
import dev.canvasagent.model.ProviderErrors;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.model.sse.SseDecoder;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns the server-sent events of an OpenAI Responses stream into {@link ModelEvent}s.
 *
 * <p>Each {@code function_call} output item is a tool call keyed by its {@code output_index}; its id
 * is the item's {@code call_id}. Argument deltas are accumulated as text and parsed once at {@code
 * response.output_item.done}, whose {@code item.arguments} is authoritative. The stream succeeds at
 * {@code response.completed} or {@code response.incomplete}; an {@code error} event or {@code
 * response.failed}, or the end of input before a terminal event ({@code stream_truncated}), ends it
 * with an {@link ModelEvent.Error}. Calls still open then are never ended.
 */
public final class ResponsesStreamNormalizer implements StreamNormalizer {

  private final Consumer<ModelEvent> sink;
  private final Map<Integer, OpenToolCall> openCalls = new HashMap<>();
  private int nextOrdinal;
  private int completedCalls;
  private boolean finished;

  public ResponsesStreamNormalizer(Consumer<ModelEvent> sink) {
    this.sink = sink;
  }

  @Override
  public void accept(SseDecoder.Event event) {
    if (finished) {
      return;
    }
    JsonObject data;
    try {
      data = new JsonObject(event.data());
    } catch (DecodeException | ClassCastException e) {
      fail("invalid_event", "Unparseable event data: " + e.getMessage(), false);
      return;
    }
    int outputIndex = data.getInteger("output_index", -1);
    switch (data.getString("type", event.event())) {
      case "response.output_item.added" -> addItem(outputIndex, data.getJsonObject("item"));
      case "response.function_call_arguments.delta" ->
          argumentsDelta(outputIndex, data.getString("delta", ""));
      case "response.output_item.done" -> itemDone(outputIndex, data.getJsonObject("item"));
      case "response.output_text.delta" -> {
        String text = data.getString("delta", "");
        if (!text.isEmpty()) {
          sink.accept(new ModelEvent.TextDelta(text));
        }
      }
      case "response.completed" ->
          succeed(
              data.getJsonObject("response", new JsonObject()),
              completedCalls > 0 ? "tool_calls" : "end_turn",
              "completed");
      case "response.incomplete" -> {
        JsonObject response = data.getJsonObject("response", new JsonObject());
        JsonObject details = response.getJsonObject("incomplete_details", new JsonObject());
        String raw = details.getString("reason", "incomplete");
        String reason =
            switch (raw) {
              case "max_output_tokens" -> "max_tokens";
              case "content_filter" -> "content_filter";
              default -> "other";
            };
        succeed(response, reason, raw);
      }
      case "error" -> {
        JsonObject error =
            data.getJsonObject("error", data); // recorded streams nest it, the SDK type does not
        failWith(error);
      }
      case "response.failed" ->
          failWith(
              data.getJsonObject("response", new JsonObject())
                  .getJsonObject("error", new JsonObject()));
      default -> {} // created, in_progress, reasoning, text done events, and types added later
    }
  }

  /** End of input: anything short of a terminal response event is a retryable truncation. */
  @Override
  public void end() {
    if (!finished) {
      fail("stream_truncated", "The stream ended before response.completed", true);
    }
  }

  private void addItem(int outputIndex, JsonObject item) {
    if (item == null || !"function_call".equals(item.getString("type"))) {
      return;
    }
    openCalls.put(
        outputIndex,
        OpenToolCall.started(
            nextOrdinal++, item.getString("call_id"), item.getString("name"), sink));
    argumentsDelta(outputIndex, item.getString("arguments", ""));
  }

  private void argumentsDelta(int outputIndex, String fragment) {
    OpenToolCall call = openCalls.get(outputIndex);
    if (call != null) {
      call.append(fragment);
    }
  }

  private void itemDone(int outputIndex, JsonObject item) {
    OpenToolCall call = openCalls.remove(outputIndex);
    if (call == null || item == null) {
      return;
    }
    ModelEvent.Error invalid = call.end(item.getString("arguments"));
    if (invalid != null) {
      fail(invalid.errorType(), invalid.message(), false);
      return;
    }
    completedCalls++;
  }

  private void succeed(JsonObject response, String reason, String rawReason) {
    finished = true;
    JsonObject usage = response.getJsonObject("usage");
    if (usage != null) {
      sink.accept(
          new ModelEvent.Usage(
              usage.getLong("input_tokens", 0L),
              usage.getLong("output_tokens", 0L),
              usage
                  .getJsonObject("input_tokens_details", new JsonObject())
                  .getLong("cached_tokens", 0L),
              0,
              usage
                  .getJsonObject("output_tokens_details", new JsonObject())
                  .getLong("reasoning_tokens", 0L)));
    }
    sink.accept(new ModelEvent.Stop(reason, rawReason));
  }

  private void failWith(JsonObject error) {
    Object code = error.getValue("code");
    String errorType =
        error.getString("type") != null
            ? error.getString("type")
            : code != null ? String.valueOf(code) : "error";
    boolean retryable =
        ProviderErrors.isRetryable(errorType, code)
            || (code instanceof String text && ProviderErrors.isRetryable(text, null));
    fail(errorType, error.getString("message", errorType), retryable);
  }

  private void fail(String errorType, String message, boolean retryable) {
    finished = true;
    sink.accept(new ModelEvent.Error(errorType, message, retryable));
  }
}
