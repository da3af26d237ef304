package dev.canvasagent.model.http;

/**
 * How a provider call behaves: how many times a failure before any event is tried again, the
 * longest pause before a try (a provider's {@code Retry-After} included), and how long the call may
 * go without a byte.
 */
public record Limits(int retries, long retryMaxDelayMs, long idleTimeoutMs) {}
