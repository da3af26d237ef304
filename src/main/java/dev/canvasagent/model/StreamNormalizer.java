package dev.canvasagent.model;

import dev.canvasagent.model.sse.SseDecoder;

/**
 * Turns one provider's server-sent events into {@link ModelEvent}s: {@link #accept} every event of
 * the response body, then {@link #end} once the body ended. Exactly one terminal event follows in
 * all, a {@code stream_truncated} error when the body ended before the provider's terminal marker.
 */
public interface StreamNormalizer {
  void accept(SseDecoder.Event event);

  void end();
}
