package dev.canvasagent.model.gemini;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.OpenToolCall;
import dev.canvasagent.model.ProviderErrors;
import dev.canvasagent.model.StreamNormalizer;
import dev.canvasagent.model.sse.SseDecoder;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Turns a Gemini {@code streamGenerateContent?alt=sse} stream into {@link ModelEvent}s.
 *
 * <p>Gemini sends each {@code functionCall} whole, without an id: the normalizer generates a unique
 * id, emits start, one synthetic delta holding {@code args} re-serialized compactly, and end at once.
 * Thought parts ({@code thought: true}) are never text. There is no sentinel: the stream succeeds
 * when input ends after a chunk with {@code finishReason}; {@code STOP} with calls is reported as
 * {@code tool_calls}. An {@code {"error":…}} payload is terminal.
 *
 * <p>Vertex with {@code streamFunctionCallArguments} streams a call instead: {@code {name,
 * willContinue:true}} opens it (start at once), {@code partialArgs} entries set its values by
 * {@code jsonPath}, and {@code {}} closes it (one synthetic delta holding the assembled arguments,
 * then end); a missing close is implied by the next call or by {@code finishReason}.
 */
public final class GeminiStreamNormalizer implements StreamNormalizer {

  private final Consumer<ModelEvent> sink;

  /** How the ids this normalizer makes up begin (Gemini usually sends none); never sent back to Gemini. */
  public static final String GENERATED_ID_PREFIX = "gemini_";

  private final String idPrefix =
      GENERATED_ID_PREFIX + UUID.randomUUID().toString().substring(0, 8) + "_";
  private int callCount;
  private String finishReason;
  private long inputTokens = -1;
  private long outputTokens = -1;
  private boolean finished;
  private OpenToolCall streaming;
  private PartialArguments streamingArguments;

  public GeminiStreamNormalizer(Consumer<ModelEvent> sink) {
    this.sink = sink;
  }

  /** One SSE event of the response body. */
  @Override
  public void accept(SseDecoder.Event event) {
    if (finished) {
      return;
    }
    JsonObject chunk;
    try {
      chunk = new JsonObject(event.data());
    } catch (DecodeException | ClassCastException e) {
      fail(
          new ModelEvent.Error(
              "invalid_response", "chunk is not a JSON object: " + e.getMessage(), false));
      return;
    }
    if (chunk.getValue("error") instanceof JsonObject error) {
      String status = error.getValue("status") instanceof String s ? s : null;
      Object code = error.getValue("code");
      String type = status != null ? status : code != null ? String.valueOf(code) : "api_error";
      String message = error.getValue("message") instanceof String m ? m : error.encode();
      fail(ProviderErrors.inBand(type, message, code));
      return;
    }
    readUsage(chunk.getValue("usageMetadata"));
    if (chunk.getValue("candidates") instanceof JsonArray candidates
        && !candidates.isEmpty()
        && candidates.getValue(0) instanceof JsonObject candidate) {
      applyCandidate(candidate);
    } else if (chunk.getValue("promptFeedback") instanceof JsonObject feedback
        && feedback.getValue("blockReason") instanceof String blockReason) {
      finishReason = blockReason;
    }
  }

  /** End of input: successful only after a chunk with {@code finishReason}. */
  @Override
  public void end() {
    if (finished) {
      return;
    }
    if (finishReason == null) {
      fail(ProviderErrors.truncated());
      return;
    }
    finished = true;
    if (inputTokens >= 0 || outputTokens >= 0) {
      sink.accept(new ModelEvent.Usage(Math.max(inputTokens, 0), Math.max(outputTokens, 0)));
    }
    sink.accept(new ModelEvent.Stop(mapStopReason(finishReason)));
  }

  private void applyCandidate(JsonObject candidate) {
    if (candidate.getValue("content") instanceof JsonObject content
        && content.getValue("parts") instanceof JsonArray parts) {
      for (Object item : parts) {
        if (item instanceof JsonObject part && !finished) {
          applyPart(part);
        }
      }
    }
    if (candidate.getValue("finishReason") instanceof String reason && !finished) {
      closeStreamingCall();
      finishReason = reason;
    }
  }

  private void applyPart(JsonObject part) {
    if (Boolean.TRUE.equals(part.getValue("thought"))) {
      return;
    }
    if (part.getValue("text") instanceof String text && !text.isEmpty()) {
      sink.accept(new ModelEvent.TextDelta(text));
    }
    if (part.getValue("functionCall") instanceof JsonObject call) {
      applyFunctionCall(
          call, part.getValue("thoughtSignature") instanceof String s && !s.isEmpty() ? s : null);
    }
  }

  private void applyFunctionCall(JsonObject call, String signature) {
    String name = call.getValue("name") instanceof String s && !s.isEmpty() ? s : null;
    JsonArray partialArgs = call.getValue("partialArgs") instanceof JsonArray a ? a : null;
    if (streaming != null && (name != null || partialArgs == null)) {
      closeStreamingCall(); // {} closes it; a new name means its close never came
      if (name == null || finished) {
        return;
      }
    }
    if (streaming != null) {
      applyPartialArgs(partialArgs);
      return;
    }
    if (name == null) {
      return; // a close with no call open
    }
    int ordinal = callCount++;
    String id = call.getValue("id") instanceof String s && !s.isEmpty() ? s : idPrefix + ordinal;
    OpenToolCall opened = OpenToolCall.started(ordinal, id, name, sink);
    // Gemini 3 refuses a conversation whose function calls come back without their signatures
    opened.sign(signature);
    if (Boolean.TRUE.equals(call.getValue("willContinue")) || partialArgs != null) {
      streaming = opened;
      streamingArguments = new PartialArguments();
      applyPartialArgs(partialArgs);
      return;
    }
    if (call.getValue("args") instanceof JsonObject args) {
      opened.append(args.encode(), true);
    }
    end(opened);
  }

  private void applyPartialArgs(JsonArray entries) {
    if (entries == null) {
      return;
    }
    for (Object entry : entries) {
      if (entry instanceof JsonObject value) {
        try {
          streamingArguments.apply(value);
        } catch (IllegalArgumentException e) {
          fail(
              new ModelEvent.Error(
                  "invalid_tool_arguments",
                  "partialArgs of "
                      + streaming.name()
                      + " ("
                      + streaming.callId()
                      + "): "
                      + e.getMessage(),
                  false));
          return;
        }
      }
    }
  }

  private void closeStreamingCall() {
    if (streaming == null || finished) {
      return;
    }
    OpenToolCall call = streaming;
    streaming = null;
    call.append(streamingArguments.toJson().encode(), true);
    end(call);
  }

  private void end(OpenToolCall call) {
    ModelEvent.Error invalid = call.end(null);
    if (invalid != null) {
      fail(invalid);
    }
  }

  private void readUsage(Object value) {
    if (value instanceof JsonObject usage) {
      if (usage.getValue("promptTokenCount") instanceof Number n) {
        inputTokens = n.longValue();
      }
      if (usage.getValue("candidatesTokenCount") instanceof Number n) {
        outputTokens = n.longValue();
      }
    }
  }

  private String mapStopReason(String raw) {
    return switch (raw) {
      case "STOP" -> callCount > 0 ? "tool_calls" : "end_turn";
      case "MAX_TOKENS" -> "max_tokens";
      case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY" ->
          "content_filter";
      default -> "other";
    };
  }

  private void fail(ModelEvent.Error error) {
    finished = true;
    sink.accept(error);
  }
}
