package dev.canvasagent.metrics;

import java.util.List;

/**
 * Every domain meter the server exports, declared once: its Micrometer name, its name in Prometheus's
 * text format, its labels (each from a closed set; never a room, session, run or document id) and
 * its help text. docs/operations.md describes them, and the Grafana dashboard names only these and
 * Vert.x's own ({@code MetricsScrapeTest}).
 */
public enum CanvasMeter {
  RUNS(
      "canvas.agent.runs",
      Kind.COUNTER,
      List.of("state", "code"),
      "Runs that ended, by end state (done, scheduled, error, canceled) and code (none, or a stop or failure code)"),
  RUN_TTFB(
      "canvas.agent.run.ttfb",
      Kind.TIMER,
      List.of(),
      "Time from a run's start to its first envelope on the room; slo.ttfbMs is a bucket boundary"),
  RUN_FIRST_APPLIED(
      "canvas.agent.run.first.applied",
      Kind.TIMER,
      List.of(),
      "Time from a run's start to its first action committed on the board; slo.ttfbMs is a bucket boundary"),
  ENVELOPES_PUBLISHED(
      "canvas.agent.envelopes.published",
      Kind.COUNTER,
      List.of("kind"),
      "Envelopes published on agent:action, by kind (final, partial)"),
  ACK_RESENDS(
      "canvas.agent.ack.resends",
      Kind.COUNTER,
      List.of(),
      "Envelopes re-sent to a room's host that had not acknowledged them in time"),
  ACK_FAILURES(
      "canvas.agent.ack.failures",
      Kind.COUNTER,
      List.of(),
      "Envelopes the host never acknowledged after every re-send (ACK_TIMEOUT)"),
  SCREENSHOT_CAPTURE(
      "canvas.agent.screenshot.capture",
      Kind.TIMER,
      List.of(),
      "Time to get a screenshot from a room's host, retries included (cache hits excluded); slo.screenshotMs is a bucket boundary"),
  HOST_APPLY(
      "canvas.agent.host.apply",
      Kind.TIMER,
      List.of(),
      "Time from publishing a final envelope to the room's host acknowledging it applied (re-sent ones excluded); slo.applyJitterMs is a bucket boundary"),
  APPLY_JITTER(
      "canvas.agent.apply.jitter",
      Kind.TIMER,
      List.of(),
      "The host's apply jitter: how much one envelope's publish-to-ack time differs from the one before it in the same session (RFC 3550's transit difference); slo.applyJitterMs is a bucket boundary"),
  SCREENSHOTS(
      "canvas.agent.screenshots",
      Kind.COUNTER,
      List.of("outcome"),
      "Screenshot requests by outcome (captured, cached, no_host, timeout, failed)"),
  SANITIZER_DROPS(
      "canvas.agent.sanitizer.drops",
      Kind.COUNTER,
      List.of("reason"),
      "Actions the sanitizer dropped, by reason (unknown_verb, schema, rejected, verb_failed, locked, duplicate)"),
  PATCH_REJECTIONS(
      "canvas.agent.patch.rejections",
      Kind.COUNTER,
      List.of("reason"),
      "Board changes the patch engine refused, by reason (revision_conflict, invalid_record, store_unavailable)"),
  LEASE_GRANTS("canvas.agent.lease.grants", Kind.COUNTER, List.of(), "Document leases checked out"),
  LEASE_PREEMPTIONS(
      "canvas.agent.lease.preemptions",
      Kind.COUNTER,
      List.of(),
      "Documents a person took back from the agent (doc.preempt)"),
  LEASE_STALE_EPOCHS(
      "canvas.agent.lease.stale.epochs",
      Kind.COUNTER,
      List.of(),
      "Document writes refused because they carried an old lease epoch (STALE_EPOCH)"),
  PROVIDER_CALLS(
      "canvas.agent.provider.calls",
      Kind.COUNTER,
      List.of("provider"),
      "Model calls by provider (debug, anthropic, openai, openai-responses, google, openai-compatible)"),
  PROVIDER_ERRORS(
      "canvas.agent.provider.errors",
      Kind.COUNTER,
      List.of("provider", "retryable"),
      "Model calls that ended in an error after any retries, by provider and whether the error was retryable"),
  PROVIDER_RETRIES(
      "canvas.agent.provider.retries",
      Kind.COUNTER,
      List.of("provider"),
      "Model calls tried again after a retryable failure, by provider"),
  OPEN_STREAMS(
      "canvas.agent.open.streams",
      Kind.GAUGE,
      List.of("transport"),
      "Streams open to clients now, by transport (sse, websocket, sockjs, mcp)"),
  RATE_LIMIT_REFUSALS(
      "canvas.agent.rate.limit.refusals",
      Kind.COUNTER,
      List.of("limit"),
      "Requests, streams and frames refused by an edge limit, by limit");

  /** How a meter appears in Prometheus's text format. */
  public enum Kind {
    COUNTER,
    TIMER,
    GAUGE
  }

  private final String name;
  private final Kind kind;
  private final List<String> labels;
  private final String help;

  CanvasMeter(String name, Kind kind, List<String> labels, String help) {
    this.name = name;
    this.kind = kind;
    this.labels = labels;
    this.help = help;
  }

  /** The Micrometer name. */
  public String meterName() {
    return name;
  }

  public Kind kind() {
    return kind;
  }

  public List<String> labels() {
    return labels;
  }

  public String help() {
    return help;
  }

  /**
   * The family's name in the Prometheus text format: counters end in {@code _total}, timers are
   * histograms in seconds ({@code _seconds_bucket}, {@code _seconds_count}, {@code _seconds_sum}).
   */
  public String prometheusName() {
    String base = name.replace('.', '_');
    return switch (kind) {
      case COUNTER -> base + "_total";
      case TIMER -> base + "_seconds";
      case GAUGE -> base;
    };
  }
}
