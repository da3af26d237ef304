package dev.canvasagent.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The domain's meters of one Vert.x instance ({@link CanvasMeter}), in that instance's Prometheus
 * registry ({@link NodeRegistry}). Several nodes may run in one JVM (the tests' clusters), so there is
 * no global registry: each Vert.x holds its own {@code CanvasMetrics} in its local shared data, and
 * {@link #of(Vertx)} finds it. Label values come from closed sets the callers pass; every method is
 * cheap and never blocks (counters and timers are lock-free).
 */
public final class CanvasMetrics implements Shareable {
  private static final String LOCAL_MAP = "canvas-agent.meters";
  private static final String KEY = "canvas";

  /** The service-level objectives that are histogram bucket boundaries. */
  public record Objectives(long ttfbMs, long screenshotMs, long applyJitterMs) {
    /** Seed 000's: first envelope within 200 ms, a screenshot within 150 ms. */
    public static final Objectives DEFAULT = new Objectives(200, 150, 50);
  }

  /** A stream's transport, the {@code transport} label of {@link CanvasMeter#OPEN_STREAMS}. */
  public enum Transport {
    SSE,
    WEBSOCKET,
    SOCKJS,
    MCP;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The {@code outcome}s of {@link CanvasMeter#SCREENSHOTS}. */
  public static final List<String> SCREENSHOT_OUTCOMES =
      List.of("captured", "cached", "no_host", "timeout", "failed");

  /** The {@code reason}s of {@link CanvasMeter#SANITIZER_DROPS}. */
  public static final List<String> DROP_REASONS =
      List.of("unknown_verb", "schema", "rejected", "verb_failed", "locked", "duplicate");

  /** The {@code reason}s of {@link CanvasMeter#PATCH_REJECTIONS} (failure codes, lower case). */
  public static final List<String> REJECTION_REASONS =
      List.of("revision_conflict", "invalid_record", "store_unavailable");

  /** The {@code limit}s of {@link CanvasMeter#RATE_LIMIT_REFUSALS}, the edge's limits by setting. */
  public static final List<String> RATE_LIMITS =
      List.of(
          "runs_per_minute",
          "room_runs_per_minute",
          "requests_per_second",
          "unauthenticated_requests_per_second",
          "room_messages_per_second",
          "screenshot_bytes_per_minute",
          "connections_per_address",
          "rooms_per_client",
          "tcp_connections_per_address");

  private final PrometheusMeterRegistry registry;
  private final Objectives objectives;
  private final Timer ttfb;
  private final Timer firstApplied;
  private final Timer screenshotCapture;
  private final Timer hostApply;
  private final Timer applyJitter;
  private final Map<Transport, AtomicInteger> openStreams = new EnumMap<>(Transport.class);

  private CanvasMetrics(PrometheusMeterRegistry registry, Objectives objectives) {
    this.registry = registry;
    this.objectives = objectives;
    this.ttfb =
        timer(CanvasMeter.RUN_TTFB, objectives.ttfbMs(), 25, 50, 100, 500, 1000, 2000, 5000);
    this.firstApplied =
        timer(
            CanvasMeter.RUN_FIRST_APPLIED, objectives.ttfbMs(), 25, 50, 100, 500, 1000, 2000, 5000);
    this.screenshotCapture =
        timer(
            CanvasMeter.SCREENSHOT_CAPTURE,
            objectives.screenshotMs(),
            50,
            100,
            250,
            500,
            1000,
            2500);
    this.hostApply =
        timer(CanvasMeter.HOST_APPLY, objectives.applyJitterMs(), 10, 25, 100, 250, 500, 1000);
    this.applyJitter =
        timer(CanvasMeter.APPLY_JITTER, objectives.applyJitterMs(), 5, 10, 25, 100, 250, 500);
    // Known label values start at zero, so a rate or an alert sees the series before its first
    // event.
    for (String kind : List.of("final", "partial")) {
      counter(CanvasMeter.ENVELOPES_PUBLISHED, "kind", kind);
    }
    for (String outcome : SCREENSHOT_OUTCOMES) {
      counter(CanvasMeter.SCREENSHOTS, "outcome", outcome);
    }
    for (String reason : DROP_REASONS) {
      counter(CanvasMeter.SANITIZER_DROPS, "reason", reason);
    }
    for (String reason : REJECTION_REASONS) {
      counter(CanvasMeter.PATCH_REJECTIONS, "reason", reason);
    }
    for (String limit : RATE_LIMITS) {
      counter(CanvasMeter.RATE_LIMIT_REFUSALS, "limit", limit);
    }
    for (CanvasMeter meter :
        List.of(
            CanvasMeter.ACK_RESENDS,
            CanvasMeter.ACK_FAILURES,
            CanvasMeter.LEASE_GRANTS,
            CanvasMeter.LEASE_PREEMPTIONS,
            CanvasMeter.LEASE_STALE_EPOCHS)) {
      counter(meter);
    }
    for (Transport transport : Transport.values()) {
      AtomicInteger open = new AtomicInteger();
      openStreams.put(transport, open);
      Gauge.builder(CanvasMeter.OPEN_STREAMS.meterName(), open, AtomicInteger::get)
          .description(CanvasMeter.OPEN_STREAMS.help())
          .tag("transport", transport.label())
          .register(registry);
    }
  }

  /**
   * This Vert.x instance's meters, with the default objectives if {@link #of(Vertx, Objectives)} did
   * not make them first. The registry is the one {@link NodeRegistry} gave the instance, with Vert.x's
   * own meters in it; a Vert.x built without it (a unit test's) gets a registry of its own, the domain's
   * meters only.
   */
  public static CanvasMetrics of(Vertx vertx) {
    return of(vertx, Objectives.DEFAULT);
  }

  /**
   * As {@link #of(Vertx)}, made with {@code objectives} as bucket boundaries if this Vert.x has none
   * yet ({@code CanvasAgent} asks first, with the configured ones).
   */
  public static CanvasMetrics of(Vertx vertx, Objectives objectives) {
    LocalMap<String, CanvasMetrics> map = vertx.sharedData().getLocalMap(LOCAL_MAP);
    return map.computeIfAbsent(
        KEY, absent -> new CanvasMetrics(NodeRegistry.registryOf(vertx), objectives));
  }

  /** The registry the meters are in, Vert.x's own too when the instance was built with them. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  public Objectives objectives() {
    return objectives;
  }

  /** The registry's meters in Prometheus's text format (version 0.0.4). */
  public String scrape() {
    return registry.scrape();
  }

  /** A run ended in {@code state} (its wire name) with {@code code} (null: none). */
  public void runEnded(String state, String code) {
    counter(CanvasMeter.RUNS, "state", state, "code", code == null ? "none" : code).increment();
  }

  /** The run's first envelope went out {@code millis} after it started. */
  public void firstEnvelope(long millis) {
    ttfb.record(millis, TimeUnit.MILLISECONDS);
  }

  /** The run's first action was committed {@code millis} after it started. */
  public void firstApplied(long millis) {
    firstApplied.record(millis, TimeUnit.MILLISECONDS);
  }

  public void envelopePublished(boolean partial) {
    counter(CanvasMeter.ENVELOPES_PUBLISHED, "kind", partial ? "partial" : "final").increment();
  }

  public void ackResent() {
    counter(CanvasMeter.ACK_RESENDS).increment();
  }

  public void ackFailed() {
    counter(CanvasMeter.ACK_FAILURES).increment();
  }

  /**
   * The host acknowledged an envelope {@code applyNanos} after it was published; {@code jitterNanos}
   * is how much that differs from the session's envelope before (negative: none before).
   */
  public void hostApplied(long applyNanos, long jitterNanos) {
    hostApply.record(applyNanos, TimeUnit.NANOSECONDS);
    if (jitterNanos >= 0) {
      applyJitter.record(jitterNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** A screenshot request ended with {@code outcome} (a label of {@link CanvasMeter#SCREENSHOTS}). */
  public void screenshot(String outcome) {
    counter(CanvasMeter.SCREENSHOTS, "outcome", outcome).increment();
  }

  /** A host answered a screenshot request {@code millis} after it was first asked. */
  public void screenshotCaptured(long millis) {
    screenshotCapture.record(millis, TimeUnit.MILLISECONDS);
  }

  public void sanitizerDrop(String reason) {
    counter(CanvasMeter.SANITIZER_DROPS, "reason", reason).increment();
  }

  public void patchRejected(String reason) {
    counter(CanvasMeter.PATCH_REJECTIONS, "reason", reason).increment();
  }

  public void leaseGranted() {
    counter(CanvasMeter.LEASE_GRANTS).increment();
  }

  public void leasePreempted() {
    counter(CanvasMeter.LEASE_PREEMPTIONS).increment();
  }

  public void staleEpochRefused() {
    counter(CanvasMeter.LEASE_STALE_EPOCHS).increment();
  }

  /** A provider this node may call: its series start at zero. */
  public void providerKnown(String provider) {
    counter(CanvasMeter.PROVIDER_CALLS, "provider", provider);
    counter(CanvasMeter.PROVIDER_RETRIES, "provider", provider);
    for (boolean retryable : List.of(true, false)) {
      counter(
          CanvasMeter.PROVIDER_ERRORS,
          "provider",
          provider,
          "retryable",
          Boolean.toString(retryable));
    }
  }

  public void providerCall(String provider) {
    counter(CanvasMeter.PROVIDER_CALLS, "provider", provider).increment();
  }

  public void providerRetry(String provider) {
    counter(CanvasMeter.PROVIDER_RETRIES, "provider", provider).increment();
  }

  public void providerError(String provider, boolean retryable) {
    counter(
            CanvasMeter.PROVIDER_ERRORS,
            "provider",
            provider,
            "retryable",
            Boolean.toString(retryable))
        .increment();
  }

  /**
   * A stream of {@code transport} opened; the returned action, run once when it closes, counts it
   * out (running it again does nothing).
   */
  public Runnable streamOpened(Transport transport) {
    AtomicInteger open = openStreams.get(transport);
    open.incrementAndGet();
    AtomicBoolean closed = new AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        open.decrementAndGet();
      }
    };
  }

  /** A request, stream or frame was refused by the edge limit {@code limit}. */
  public void rateLimited(String limit) {
    counter(CanvasMeter.RATE_LIMIT_REFUSALS, "limit", limit).increment();
  }

  private Counter counter(CanvasMeter meter, String... tags) {
    return Counter.builder(meter.meterName())
        .description(meter.help())
        .tags(tags)
        .register(registry);
  }

  /** A histogram in seconds whose buckets are {@code bucketsMs} and the objective. */
  private Timer timer(CanvasMeter meter, long objectiveMs, long... bucketsMs) {
    TreeSet<Long> all = new TreeSet<>();
    all.add(objectiveMs);
    for (long bucket : bucketsMs) {
      all.add(bucket);
    }
    return Timer.builder(meter.meterName())
        .description(meter.help())
        .serviceLevelObjectives(all.stream().map(Duration::ofMillis).toArray(Duration[]::new))
        .register((MeterRegistry) registry);
  }
}
