package dev.canvasagent.bench;

import java.time.Instant;

/**
 * The measured span, in epoch microseconds of the send time a change carries: changes sent before it
 * (warm-up) or after it are delivered but not counted. Set once by the driver, read by every client.
 */
final class MeasurementWindow {
  private volatile long startMicros = Long.MAX_VALUE;
  private volatile long endMicros = Long.MAX_VALUE;

  void set(long startMicros, long endMicros) {
    this.endMicros = endMicros;
    this.startMicros = startMicros;
  }

  boolean contains(long sentAtMicros) {
    return sentAtMicros >= startMicros && sentAtMicros < endMicros;
  }

  /** The measured second a send time falls in, counting from 0. */
  int second(long sentAtMicros) {
    return (int) ((sentAtMicros - startMicros) / 1_000_000);
  }

  long startMicros() {
    return startMicros;
  }

  long endMicros() {
    return endMicros;
  }

  /** Wall-clock time in microseconds since the epoch; sender and receivers read the same clock. */
  static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }
}
