package dev.canvasagent.bridge;

/**
 * A client's allowance of messages: {@code perSecond} on average, bursts up to twice that. A flood
 * from one client is refused without slowing anyone else.
 */
final class MessageRate {
  private final double perSecond;
  private final double burst;
  private double tokens;
  private long lastNanos = System.nanoTime();

  MessageRate(int perSecond) {
    this.perSecond = perSecond;
    this.burst = perSecond * 2.0;
    this.tokens = burst;
  }

  boolean tryTake() {
    long now = System.nanoTime();
    tokens = Math.min(burst, tokens + (now - lastNanos) / 1e9 * perSecond);
    lastNanos = now;
    if (tokens < 1) {
      return false;
    }
    tokens -= 1;
    return true;
  }
}
