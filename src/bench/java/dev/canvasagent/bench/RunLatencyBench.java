package dev.canvasagent.bench;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The server's own share of a run's time to first envelope. The server is the fat jar in a process of
 * its own with {@code anthropic:bench} pointed at {@link StubModel}, a loopback Anthropic Messages
 * endpoint in this process that waits a fixed first-byte delay and then streams a three-action
 * tool-call answer. Each run subscribes a room of its own over SSE, posts its request, and is timed
 * from the POST to the first {@code agent:action} envelope (partial or final) and to the first final
 * one at the SSE client; from those the delay the stub really took for that run (body received to
 * first byte; to the first tool call's last byte for the final envelope) is taken away. One phase runs
 * one run at a time, the other keeps {@code concurrency} in flight, each after unmeasured warm-up runs.
 *
 * <pre>./mvnw -q -B -Pbench -DskipTests verify -Dbench.which=run</pre>
 */
public final class RunLatencyBench {
  private static final long START_SECONDS = 60;
  private static final Pattern RUN_FINISHED =
      Pattern.compile(
          "run\\.finished roomId=bench-r(\\d+) .*firstModelEventMs=(\\d+) ttfbMs=(\\d+)");

  private RunLatencyBench() {}

  public static void main(String[] args) throws Exception {
    ParentWatch.start();
    System.exit(execute());
  }

  static int execute() throws Exception {
    RunLatencySettings settings = RunLatencySettings.fromSystemProperties();
    Path log = settings.output().toAbsolutePath().getParent().resolve("run-latency-server.log");
    String loadBefore = ProcCpu.loadAverage();
    Vertx vertx = Vertx.vertx();
    BenchServer server = null;
    StubModel stub = null;
    int status = 1;
    try {
      AnthropicWire answer = AnthropicWire.of(BenchActions.small(), 16, 48, 5);
      stub = new StubModel(vertx, answer, settings.firstByteDelayMs(), settings.eventGapMs());
      stub.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      server =
          BenchServer.start(
              settings.jar(),
              settings.serverHeap(),
              settings.serverJvmOptions(),
              Map.of(
                  "ANTHROPIC_BASE_URL",
                  stub.baseUrl(),
                  "ANTHROPIC_API_KEY",
                  "bench-stub-accepts-any-key",
                  "CANVAS_AGENT_PARTIAL_INTERVAL_MS",
                  Integer.toString(settings.partialIntervalMs()),
                  // The benchmark's answer applies three actions; the low-action rule would queue a
                  // follow-up after each run, which then ends "scheduled", and measure the
                  // follow-ups as well.
                  "CANVAS_AGENT_LOW_ACTION_THRESHOLD",
                  "0"),
              log);
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "bench-stop-server"));
      int port = server.awaitPort(START_SECONDS);
      JsonObject report = run(settings, vertx, server, stub, port, answer, loadBefore, log);
      Files.createDirectories(settings.output().toAbsolutePath().getParent());
      Files.writeString(settings.output(), report.encodePrettily() + "\n");
      System.out.println(summary(report, settings));
      status = 0;
    } catch (Exception e) {
      System.err.println("run-latency bench failed: " + e + " (server log: " + log + ")");
      e.printStackTrace();
    } finally {
      try {
        if (stub != null) {
          stub.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } finally {
        if (server != null) {
          server.close();
        }
      }
    }
    return status;
  }

  private static JsonObject run(
      RunLatencySettings settings,
      Vertx vertx,
      BenchServer server,
      StubModel stub,
      int port,
      AnthropicWire answer,
      String loadBefore,
      Path log)
      throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    int connections = Math.max(settings.concurrency(), 1) + 8;
    HttpClient streams =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions()
                .setHttp1MaxSize(connections)
                .setMaxWaitQueueSize(-1)
                .setEventLoopSize(cores));
    HttpClient posts =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions()
                .setHttp1MaxSize(connections)
                .setMaxWaitQueueSize(-1)
                .setEventLoopSize(cores));
    AtomicLong runNumbers = new AtomicLong();
    Loop loop = new Loop(vertx, streams, posts, port, settings, runNumbers);

    Phase sequentialPhase =
        phase(loop, server, 1, settings.warmupRuns(), settings.sequentialRuns());
    Phase concurrentPhase =
        phase(
            loop, server, settings.concurrency(), settings.warmupRuns(), settings.concurrentRuns());
    Map<Long, ServerRunLine> serverLines = serverLines(log);
    JsonObject sequential = analyse(sequentialPhase, stub, serverLines);
    JsonObject concurrent = analyse(concurrentPhase, stub, serverLines);

    return new JsonObject()
        .put("benchmark", "run-latency")
        .put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString())
        .put(
            "machine",
            new JsonObject()
                .put("cores", cores)
                .put(
                    "sharedBy",
                    "the server, this driver and its stub model (and whatever else runs on the machine)")
                .put(
                    "java",
                    System.getProperty("java.vm.name")
                        + " "
                        + System.getProperty("java.runtime.version"))
                .put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"))
                .put("loadAverageBefore", loadBefore)
                .put("loadAverageAfter", ProcCpu.loadAverage()))
        .put(
            "settings",
            new JsonObject()
                .put("model", RunLatencySettings.MODEL)
                .put(
                    "answer",
                    new JsonObject()
                        .put("actions", BenchActions.small().size())
                        .put("events", answer.events().size())
                        .put("bytes", answer.bytes()))
                .put("firstByteDelayMs", settings.firstByteDelayMs())
                .put("eventGapMs", settings.eventGapMs())
                .put("partialIntervalMs", settings.partialIntervalMs())
                .put("warmupRunsPerPhase", settings.warmupRuns())
                .put("serverHeap", "-Xmx" + settings.serverHeap()))
        .put("sequential", sequential)
        .put("concurrent", concurrent)
        .put("screenshot", screenshotEvidence(log))
        .put("stubRequestsWithoutTag", stub.untaggedRequests())
        .put(
            "server",
            new JsonObject()
                .put("pid", server.pid())
                .put("rssEndKib", server.memoryKib()[0])
                .put("vmHwmKib", server.memoryKib()[1])
                .put("logWarnings", server.warnings()));
  }

  /** The measured runs of one phase, how long they took, and the CPU used meanwhile. */
  private record Phase(
      int concurrency,
      List<RunProbe.Result> results,
      double seconds,
      CpuTicks before,
      CpuTicks after) {}

  /** Warm-up runs, then measured runs, both with {@code concurrency} in flight. */
  private static Phase phase(
      Loop loop, BenchServer server, int concurrency, int warmup, int measured) throws Exception {
    loop.run(concurrency, warmup);
    CpuTicks before = CpuTicks.now(server);
    long started = System.nanoTime();
    List<RunProbe.Result> results = loop.run(concurrency, measured);
    double seconds = (System.nanoTime() - started) / 1e9;
    return new Phase(concurrency, results, seconds, before, CpuTicks.now(server));
  }

  /** What the server's {@code run.finished} line says of a run: from its start to the first model event and to the first envelope published. */
  private record ServerRunLine(long firstModelEventMs, long ttfbMs) {}

  private static Map<Long, ServerRunLine> serverLines(Path log) throws IOException {
    Map<Long, ServerRunLine> lines = new HashMap<>();
    try (Stream<String> all = Files.lines(log)) {
      all.map(RUN_FINISHED::matcher)
          .filter(Matcher::find)
          .forEach(
              line ->
                  lines.put(
                      Long.parseLong(line.group(1)),
                      new ServerRunLine(
                          Long.parseLong(line.group(2)), Long.parseLong(line.group(3)))));
    }
    return lines;
  }

  /** Runs {@code count} probes keeping {@code concurrency} in flight: as one ends the next starts. */
  private record Loop(
      Vertx vertx,
      HttpClient streams,
      HttpClient posts,
      int port,
      RunLatencySettings settings,
      AtomicLong runNumbers) {
    List<RunProbe.Result> run(int concurrency, int count) throws Exception {
      if (count == 0) {
        return List.of();
      }
      List<RunProbe.Result> results = new ArrayList<>(count);
      AtomicInteger started = new AtomicInteger();
      Promise<Void> all = Promise.promise();
      vertx.runOnContext(
          go -> {
            for (int i = 0; i < Math.min(concurrency, count); i++) {
              next(started, count, results, all);
            }
          });
      all.future()
          .toCompletionStage()
          .toCompletableFuture()
          .get(60L + (long) count * settings.runTimeoutMs() / concurrency / 1000, TimeUnit.SECONDS);
      return results;
    }

    private void next(
        AtomicInteger started, int count, List<RunProbe.Result> results, Promise<Void> all) {
      if (started.getAndIncrement() >= count) {
        return;
      }
      long run = runNumbers.incrementAndGet();
      // A room of the run's own; the message's tag tells the stub which run it answers.
      RunProbe.start(
              vertx,
              streams,
              posts,
              port,
              run,
              "bench-r" + run,
              new JsonObject()
                  .put("model", RunLatencySettings.MODEL)
                  .put(
                      "message",
                      "bench-run-" + run + ": two boxes, Plan and Build, aligned at the top"),
              settings.runTimeoutMs())
          .onComplete(
              done -> {
                synchronized (results) {
                  results.add(done.result());
                  if (results.size() == count) {
                    all.tryComplete();
                  }
                }
                next(started, count, results, all);
              });
    }
  }

  /** A measured run with the stub's timing of its answer. */
  private record Timed(RunProbe.Result run, StubModel.Timing stub) {}

  private static JsonObject analyse(
      Phase phase, StubModel stub, Map<Long, ServerRunLine> serverLines) {
    List<RunProbe.Result> results = phase.results();
    double seconds = phase.seconds();
    CpuTicks before = phase.before();
    CpuTicks after = phase.after();
    int concurrency = phase.concurrency();
    List<Timed> ok = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    long retried = 0;
    long partials = 0;
    long withoutEnvelope = 0;
    for (RunProbe.Result result : results) {
      StubModel.Timing timing = stub.timing(result.run());
      if (result.problem() != null || timing == null || result.firstFinal() == 0) {
        if (problems.size() < 5) {
          problems.add(
              "run "
                  + result.run()
                  + ": "
                  + (result.problem() != null
                      ? result.problem()
                      : timing == null ? "the stub never answered it" : "no final envelope"));
        }
        withoutEnvelope += result.firstFinal() == 0 ? 1 : 0;
        continue;
      }
      retried += timing.requests() > 1 ? 1 : 0;
      partials += result.partials();
      ok.add(new Timed(result, timing));
    }
    double windowTicks =
        (after.machineTotal() - before.machineTotal())
            / (double) Runtime.getRuntime().availableProcessors();
    return new JsonObject()
        .put("concurrency", concurrency)
        .put("runs", results.size())
        .put("runsOk", ok.size())
        .put("runsFailed", results.size() - ok.size())
        .put("runsWithoutFinalEnvelope", withoutEnvelope)
        .put("problems", new JsonArray(problems))
        .put("runsRetriedByServer", retried)
        .put("partialEnvelopes", partials)
        .put("runsPerSecond", Percentiles.round(results.size() / seconds))
        .put(
            "overheadFirstEnvelopeMs",
            millis(
                ok,
                t -> t.run().firstEnvelope() - t.run().postSent() - t.stub().firstByteDelayNanos()))
        .put(
            "overheadFirstFinalMs",
            millis(
                ok,
                t -> t.run().firstFinal() - t.run().postSent() - t.stub().firstActionDelayNanos()))
        .put("stubFirstByteDelayMs", millis(ok, t -> t.stub().firstByteDelayNanos()))
        .put("stubFirstActionDelayMs", millis(ok, t -> t.stub().firstActionDelayNanos()))
        .put("postToFirstEnvelopeMs", millis(ok, t -> t.run().firstEnvelope() - t.run().postSent()))
        .put("postToFirstFinalMs", millis(ok, t -> t.run().firstFinal() - t.run().postSent()))
        .put("postAnsweredMs", millis(ok, t -> t.run().postAnswered() - t.run().postSent()))
        .put("postToCallingModelMs", millis(ok, t -> t.run().callingModel() - t.run().postSent()))
        .put("postToModelRequestMs", millis(ok, t -> t.stub().bodyReceived() - t.run().postSent()))
        .put("postToFinalStatusMs", millis(ok, t -> t.run().finished() - t.run().postSent()))
        .put(
            "serverRunStartToFirstModelEventMs",
            wholeMillis(ok, serverLines, ServerRunLine::firstModelEventMs))
        .put("serverRunStartToFirstEnvelopeMs", wholeMillis(ok, serverLines, ServerRunLine::ttfbMs))
        .put(
            "serverCpuPercent",
            Percentiles.round(percent(after.server() - before.server(), seconds)))
        .put(
            "driverCpuPercent",
            Percentiles.round(percent(after.driver() - before.driver(), seconds)))
        .put(
            "machineCpuBusyPercent",
            Percentiles.round(
                windowTicks <= 0
                    ? Double.NaN
                    : 100.0 * (after.machineBusy() - before.machineBusy()) / windowTicks));
  }

  private static JsonObject millis(List<Timed> runs, ToLongFunction<Timed> nanos) {
    int[] micros =
        runs.stream()
            .mapToLong(nanos)
            .mapToInt(value -> (int) Math.max(0, Math.min(Integer.MAX_VALUE, value / 1_000)))
            .toArray();
    return new Percentiles(micros).toJson();
  }

  /** A figure of the server's run lines, whole milliseconds as it logs them, for the runs that have one. */
  private static JsonObject wholeMillis(
      List<Timed> runs, Map<Long, ServerRunLine> lines, ToLongFunction<ServerRunLine> figure) {
    int[] micros =
        runs.stream()
            .map(timed -> lines.get(timed.run().run()))
            .filter(line -> line != null)
            .mapToInt(
                line -> (int) Math.min(Integer.MAX_VALUE / 1000, figure.applyAsLong(line)) * 1000)
            .toArray();
    return new Percentiles(micros).toJson();
  }

  /**
   * Whether a screenshot wait is in the figures: the runs have no browser host, so each capture is
   * refused at once with {@code NO_HOST} and the run goes on text-only ({@code context.text_only}).
   */
  private static JsonObject screenshotEvidence(Path log) throws IOException {
    long textOnly = 0;
    long noHost = 0;
    long timeout = 0;
    try (Stream<String> lines = Files.lines(log)) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (line.contains("context.text_only")) {
          textOnly++;
          noHost += line.contains("reason=NO_HOST") ? 1 : 0;
          timeout += line.contains("reason=SCREENSHOT_TIMEOUT") ? 1 : 0;
        }
      }
    }
    return new JsonObject()
        .put("runsTextOnly", textOnly)
        .put("noHost", noHost)
        .put("screenshotTimeout", timeout);
  }

  private record CpuTicks(long server, long driver, long machineBusy, long machineTotal) {
    static CpuTicks now(BenchServer server) {
      long[] machine = ProcCpu.machineTicks();
      return new CpuTicks(
          server.cpuTicks(),
          ProcCpu.processTicks(ProcessHandle.current().pid()),
          machine[0],
          machine[1]);
    }
  }

  private static double percent(long ticks, double seconds) {
    return ticks < 0 || seconds <= 0
        ? Double.NaN
        : 100.0 * ticks / ProcCpu.TICKS_PER_SECOND / seconds;
  }

  private static String summary(JsonObject report, RunLatencySettings settings) {
    StringBuilder out = new StringBuilder();
    JsonObject machine = report.getJsonObject("machine");
    line(
        out,
        "canvas-agent run latency: %s stub, first byte after %d ms, %d-action tool-call answer; partial interval %d ms",
        RunLatencySettings.MODEL,
        settings.firstByteDelayMs(),
        BenchActions.small().size(),
        settings.partialIntervalMs());
    line(
        out,
        "machine     %d cores shared by server, driver and stub; %s; load before %s, after %s",
        machine.getInteger("cores"),
        machine.getString("java"),
        machine.getString("loadAverageBefore"),
        machine.getString("loadAverageAfter"));
    for (String name : List.of("sequential", "concurrent")) {
      JsonObject phase = report.getJsonObject(name);
      line(
          out,
          "%-11s %d in flight: %d runs (%d ok, %d failed), %.1f runs/s; cpu server %.0f%%, driver+stub %.0f%%, all processes %.0f%% (100%% = one core)",
          name,
          phase.getInteger("concurrency"),
          phase.getInteger("runs"),
          phase.getInteger("runsOk"),
          phase.getInteger("runsFailed"),
          phase.getDouble("runsPerSecond"),
          phase.getDouble("serverCpuPercent"),
          phase.getDouble("driverCpuPercent"),
          phase.getDouble("machineCpuBusyPercent"));
      row(out, "overhead to first envelope (any)", phase.getJsonObject("overheadFirstEnvelopeMs"));
      row(out, "overhead to first final envelope", phase.getJsonObject("overheadFirstFinalMs"));
      row(out, "stub first-byte delay (measured)", phase.getJsonObject("stubFirstByteDelayMs"));
      row(out, "POST -> calling_model status", phase.getJsonObject("postToCallingModelMs"));
      row(out, "POST -> model request at stub", phase.getJsonObject("postToModelRequestMs"));
      row(out, "POST -> 202 answer", phase.getJsonObject("postAnsweredMs"));
      row(out, "POST -> final status", phase.getJsonObject("postToFinalStatusMs"));
      row(
          out,
          "server: run start -> model event",
          phase.getJsonObject("serverRunStartToFirstModelEventMs"));
      row(
          out,
          "server: run start -> 1st envelope",
          phase.getJsonObject("serverRunStartToFirstEnvelopeMs"));
      line(
          out,
          "  partial envelopes %d, runs the server retried %d",
          phase.getLong("partialEnvelopes"),
          phase.getLong("runsRetriedByServer"));
      if (!phase.getJsonArray("problems").isEmpty()) {
        line(out, "            problems: %s", phase.getJsonArray("problems").encode());
      }
    }
    JsonObject screenshot = report.getJsonObject("screenshot");
    line(
        out,
        "screenshot  %d runs text-only: %d NO_HOST at once, %d SCREENSHOT_TIMEOUT",
        screenshot.getLong("runsTextOnly"),
        screenshot.getLong("noHost"),
        screenshot.getLong("screenshotTimeout"));
    line(out, "report      %s (server log beside it)", settings.output());
    return out.toString();
  }

  private static void row(StringBuilder out, String label, JsonObject ms) {
    line(
        out,
        "  %-34s p50 %7s  p90 %7s  p99 %7s  max %7s ms",
        label,
        ms(ms, "p50"),
        ms(ms, "p90"),
        ms(ms, "p99"),
        ms(ms, "max"));
  }

  private static void line(StringBuilder out, String format, Object... values) {
    out.append(String.format(Locale.ROOT, format, values)).append('\n');
  }

  private static String ms(JsonObject percentiles, String key) {
    return percentiles.containsKey(key)
        ? String.format(Locale.ROOT, "%.2f", percentiles.getDouble(key))
        : "-";
  }
}
