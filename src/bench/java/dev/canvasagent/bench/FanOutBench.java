package dev.canvasagent.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The fan-out benchmark: one room, N browsers on Server-Sent Events, a person's changes at R per second,
 * against canvas-agent and then against its raw floor. canvas-agent runs as its own process from the
 * fat jar; the raw floor ({@link RawFloorServer}) is a bare Vert.x server in a process of its own that
 * writes the same {@code canvas:change} frames to the same streams. This driver does the same to
 * both: it opens the streams over real HTTP, sends the changes, and measures each delivery from the
 * moment its POST was sent to the moment its {@code canvas:change} arrived on a stream. It prints the
 * two side by side, with canvas-agent's share of the floor, and writes them as JSON.
 *
 * <pre>./mvnw -q -B -Pbench -DskipTests verify [-Dbench.clients=500 -Dbench.rate=1000 -Dbench.seconds=20 -Dbench.floorLoops=1]</pre>
 */
public final class FanOutBench {
  private static final long START_SECONDS = 60;
  private static final long SUBSCRIBE_SECONDS = 60;
  private static final long DRAIN_SECONDS = 10;

  private FanOutBench() {}

  public static void main(String[] args) throws Exception {
    ParentWatch.start();
    System.exit(execute());
  }

  /** Runs the benchmark on both servers, one after the other, prints and writes the report; 0 when it ran to the end. */
  static int execute() throws Exception {
    BenchSettings settings = BenchSettings.fromSystemProperties();
    Path directory = settings.output().toAbsolutePath().getParent();
    Vertx vertx = null;
    int status = 1;
    try {
      vertx = Vertx.vertx();
      JsonObject canvasAgent =
          measure(
              settings,
              vertx,
              directory.resolve("server.log"),
              log ->
                  BenchServer.start(
                      settings.jar(), settings.serverHeap(), settings.serverJvmOptions(), log));
      JsonObject floor =
          measure(
              settings,
              vertx,
              directory.resolve("raw-floor.log"),
              log ->
                  BenchServer.startRawFloor(
                      settings.serverHeap(),
                      settings.serverJvmOptions(),
                      settings.floorLoops(),
                      log));
      JsonObject report =
          new JsonObject()
              .put("benchmark", "fan-out")
              .put("canvasAgent", canvasAgent)
              .put("rawFloor", floor)
              .put("canvasAgentOfFloor", FloorComparison.of(canvasAgent, floor));
      Files.createDirectories(directory);
      Files.writeString(settings.output(), report.encodePrettily() + "\n");
      System.out.println(summary(canvasAgent, settings, "canvas-agent"));
      System.out.println(
          summary(floor, settings, "raw floor (" + settings.floorLoops() + " loop)"));
      System.out.println(FloorComparison.summary(report.getJsonObject("canvasAgentOfFloor")));
      System.out.println("report      " + settings.output() + " (server logs beside it)");
      status = 0;
    } catch (Exception e) {
      System.err.println("bench failed: " + e + " (server logs in " + directory + ")");
      e.printStackTrace();
    } finally {
      if (vertx != null) {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    }
    return status;
  }

  /** How a server under test is started, given the file its log goes to. */
  private interface Launch {
    BenchServer start(Path log) throws Exception;
  }

  /** Starts one server, measures it, and stops it, whatever happens. */
  private static JsonObject measure(BenchSettings settings, Vertx vertx, Path log, Launch launch)
      throws Exception {
    BenchServer server = launch.start(log);
    // Whatever happens to this JVM short of SIGKILL — an exception, Ctrl-C, Maven stopping — the
    // server stops too.
    Thread stop = new Thread(server::close, "bench-stop-server");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      return run(settings, server, vertx).put("serverLog", log.toString());
    } finally {
      server.close();
      Runtime.getRuntime().removeShutdownHook(stop);
    }
  }

  private static JsonObject run(BenchSettings settings, BenchServer server, Vertx vertx)
      throws Exception {
    String loadBefore = ProcCpu.loadAverage();
    int port = server.awaitPort(START_SECONDS);
    server.startSampling();
    int cores = Runtime.getRuntime().availableProcessors();

    // One connection per stream: the pool must hold every client's never-ending GET at once.
    HttpClient streams =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions()
                .setHttp1MaxSize(settings.clients())
                .setMaxWaitQueueSize(-1)
                .setEventLoopSize(cores));
    // The changes go one after another on one pipelined connection: the server reads them in the
    // order they were sent, so a change's predicted baseRevision holds (several connections would
    // race).
    HttpClient posts =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setKeepAlive(true)
                .setPipelining(true)
                .setPipeliningLimit(settings.inflight()),
            new PoolOptions().setHttp1MaxSize(1).setMaxWaitQueueSize(-1));

    MeasurementWindow window = new MeasurementWindow();
    List<SseListener> listeners = new ArrayList<>();
    long subscribing = System.nanoTime();
    for (int i = 0; i < settings.clients(); i++) {
      listeners.add(SseListener.open(streams, port, BenchSettings.ROOM, window));
    }
    Future.all(listeners.stream().map(SseListener::subscribed).toList())
        .toCompletionStage()
        .toCompletableFuture()
        .get(SUBSCRIBE_SECONDS, TimeUnit.SECONDS);
    long subscribeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - subscribing);
    Thread.sleep(1_000);
    long[] idleMemory = server.memoryKib();

    ChangeSender sender = new ChangeSender(vertx, posts, port, settings, window);
    var sent = sender.run().toCompletionStage().toCompletableFuture();
    // CPU is read at the edges of the measured window only.
    sleepUntilMicros(window, true);
    CpuTicks before = CpuTicks.now(server);
    sleepUntilMicros(window, false);
    CpuTicks after = CpuTicks.now(server);
    ChangeSender.Result result =
        sent.get(settings.seconds() + settings.warmupSeconds() + 120L, TimeUnit.SECONDS);

    long expected = result.committedMeasured() * settings.clients();
    long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
    while (received(listeners) < expected && System.nanoTime() < drainUntil) {
      Thread.sleep(100);
    }
    long[] finalMemory = server.memoryKib();
    double windowSeconds = (window.endMicros() - window.startMicros()) / 1e6;
    // Read before the driver closes its streams: a stream it ended itself is no client the server
    // dropped.
    JsonObject deliveries = deliveries(listeners, expected, windowSeconds, settings.seconds());
    streams.close();
    posts.close();

    double serverCpu = percent(after.server() - before.server(), windowSeconds);
    double driverCpu = percent(after.driver() - before.driver(), windowSeconds);
    double machineCpu =
        percent(
            after.machineBusy() - before.machineBusy(),
            (after.machineTotal() - before.machineTotal())
                / (double) cores
                / ProcCpu.TICKS_PER_SECOND);

    return new JsonObject()
        .put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString())
        .put(
            "machine",
            new JsonObject()
                .put("cores", cores)
                .put(
                    "sharedBy",
                    "the server and this driver (and whatever else runs on the machine)")
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
                .put("room", BenchSettings.ROOM)
                .put("clients", settings.clients())
                .put("targetRate", settings.rate())
                .put("seconds", settings.seconds())
                .put("warmupSeconds", settings.warmupSeconds())
                .put("inflight", settings.inflight())
                .put("shapes", settings.shapes())
                .put("floorLoops", settings.floorLoops())
                .put("serverHeap", "-Xmx" + settings.serverHeap())
                .put("serverJvmOptions", String.join(" ", settings.serverJvmOptions())))
        .put("subscribeMillis", subscribeMillis)
        .put(
            "changes",
            new JsonObject()
                .put("targetRate", settings.rate())
                .put("achievedRate", Percentiles.round(result.committedMeasured() / windowSeconds))
                .put("sentMeasured", result.sentMeasured())
                .put("committedMeasured", result.committedMeasured())
                .put("sentTotal", result.sent())
                .put("committedTotal", result.committed())
                .put("conflictsRetried", result.conflicts())
                .put("errors", result.errors())
                .put("slotsSkipped", result.skippedSlots())
                .put("maxInflight", result.maxInflight())
                .put("commitLatencyMs", new Percentiles(result.commitMicros()).toJson()))
        .put("deliveries", deliveries)
        .put(
            "server",
            new JsonObject()
                .put("pid", server.pid())
                .put("rssIdleWithClientsKib", idleMemory[0])
                .put(
                    "rssMaxKib",
                    Math.max(
                        finalMemory[0],
                        server.samples().stream()
                            .mapToLong(BenchServer.Sample::rssKib)
                            .max()
                            .orElse(-1)))
                .put("rssEndKib", finalMemory[0])
                .put("vmHwmKib", finalMemory[1])
                .put("heapUsedMaxKib", server.heapUsedMaxKib())
                .put("heapUsedEndKib", server.heapUsedLastKib())
                .put("cpuPercent", Percentiles.round(serverCpu))
                .put("slowConsumerDisconnects", server.slowConsumerDisconnects())
                .put("logWarnings", server.warnings())
                .put("timeline", timeline(server.samples(), window)))
        .put("driver", new JsonObject().put("cpuPercent", Percentiles.round(driverCpu)))
        .put("machineCpuBusyPercent", Percentiles.round(machineCpu))
        .put(
            "otherProcessesCpuPercent",
            Percentiles.round(Math.max(0, machineCpu - serverCpu - driverCpu)));
  }

  /** CPU used so far, in clock ticks: by the server, by this driver, by the whole machine (busy, and in all). */
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

  /** Every client's deliveries together: counts, latency percentiles, and the worst latency of each second. */
  private static JsonObject deliveries(
      List<SseListener> listeners, long expected, double windowSeconds, int seconds) {
    long received = 0;
    long receivedBytes = 0;
    long unparsable = 0;
    int dropped = 0;
    List<int[]> perClient = new ArrayList<>();
    int[] maxPerSecond = new int[seconds];
    for (SseListener listener : listeners) {
      perClient.add(listener.latencies());
      int[] listenerMax = listener.maxPerSecond();
      for (int second = 0; second < Math.min(listenerMax.length, seconds); second++) {
        maxPerSecond[second] = Math.max(maxPerSecond[second], listenerMax[second]);
      }
      received += listener.received();
      receivedBytes += listener.receivedBytes();
      unparsable += listener.unparsable();
      dropped += listener.ended() ? 1 : 0;
    }
    int[] all = new int[perClient.stream().mapToInt(latencies -> latencies.length).sum()];
    int at = 0;
    for (int[] latencies : perClient) {
      System.arraycopy(latencies, 0, all, at, latencies.length);
      at += latencies.length;
    }
    JsonArray maxLatencyPerSecond = new JsonArray();
    for (int max : maxPerSecond) {
      maxLatencyPerSecond.add(Percentiles.round(max / 1000.0));
    }
    return new JsonObject()
        .put("expected", expected)
        .put("received", received)
        .put("bytesPerEvent", received == 0 ? 0 : Math.round((double) receivedBytes / received))
        .put("receivedPercent", expected == 0 ? 0 : Percentiles.round(100.0 * received / expected))
        .put("perSecond", Math.round(received / windowSeconds))
        .put("clientsDroppedByServer", dropped)
        .put("unparsable", unparsable)
        .put("latencyMs", new Percentiles(all).toJson())
        .put("maxLatencyMsPerSecond", maxLatencyPerSecond);
  }

  /** The server's readings, by second from the start of the measured window (negative: before it). */
  private static JsonObject timeline(List<BenchServer.Sample> samples, MeasurementWindow window) {
    JsonArray rows = new JsonArray();
    for (BenchServer.Sample sample : samples) {
      rows.add(
          new JsonArray()
              .add(Math.floorDiv(sample.atMicros() - window.startMicros(), 1_000_000L))
              .add(sample.rssKib())
              .add(sample.serverCpuPercent())
              .add(sample.machineCpuPercent()));
    }
    return new JsonObject()
        .put(
            "columns",
            new JsonArray()
                .add("second")
                .add("rssKib")
                .add("serverCpuPercent")
                .add("machineCpuPercent"))
        .put("rows", rows);
  }

  private static long received(List<SseListener> listeners) {
    return listeners.stream().mapToLong(SseListener::received).sum();
  }

  /** Ticks of CPU over seconds of wall time, as a percentage of one core. */
  private static double percent(long ticks, double seconds) {
    return ticks < 0 || seconds <= 0
        ? Double.NaN
        : 100.0 * ticks / ProcCpu.TICKS_PER_SECOND / seconds;
  }

  private static void sleepUntilMicros(MeasurementWindow window, boolean start)
      throws InterruptedException {
    while (window.startMicros() == Long.MAX_VALUE) {
      Thread.sleep(5);
    }
    long target = start ? window.startMicros() : window.endMicros();
    long wait;
    while ((wait = target - MeasurementWindow.nowMicros()) > 0) {
      Thread.sleep(Math.max(1, wait / 1000));
    }
  }

  private static String summary(JsonObject report, BenchSettings settings, String target) {
    JsonObject changes = report.getJsonObject("changes");
    JsonObject deliveries = report.getJsonObject("deliveries");
    JsonObject latency = deliveries.getJsonObject("latencyMs");
    JsonObject commit = changes.getJsonObject("commitLatencyMs");
    JsonObject server = report.getJsonObject("server");
    JsonObject machine = report.getJsonObject("machine");
    StringBuilder out = new StringBuilder();
    line(
        out,
        "%s fan-out: 1 room, %d SSE clients, %d changes/s for %d s (after %d s warm-up), %d in flight, %d shapes",
        target,
        settings.clients(),
        settings.rate(),
        settings.seconds(),
        settings.warmupSeconds(),
        settings.inflight(),
        settings.shapes());
    line(
        out,
        "machine     %d cores shared by server and driver; %s; load before %s",
        machine.getInteger("cores"),
        machine.getString("java"),
        machine.getString("loadAverageBefore"));
    line(
        out,
        "changes     target %d/s, achieved %.1f/s (%d committed; %d conflicts retried, %d errors; %d sends not made: %d already in flight)",
        settings.rate(),
        changes.getDouble("achievedRate"),
        changes.getLong("committedMeasured"),
        changes.getLong("conflictsRetried"),
        changes.getLong("errors"),
        changes.getLong("slotsSkipped"),
        settings.inflight());
    line(
        out,
        "deliveries  %d of %d expected (%.2f%%), %d/s, %d bytes each; clients dropped by the server: %d",
        deliveries.getLong("received"),
        deliveries.getLong("expected"),
        deliveries.getDouble("receivedPercent"),
        deliveries.getLong("perSecond"),
        deliveries.getLong("bytesPerEvent"),
        deliveries.getInteger("clientsDroppedByServer"));
    line(
        out,
        "latency     POST sent -> canvas:change received: p50 %s  p90 %s  p99 %s  max %s ms",
        ms(latency, "p50"),
        ms(latency, "p90"),
        ms(latency, "p99"),
        ms(latency, "max"));
    line(
        out,
        "commit      POST round trip: p50 %s  p99 %s  max %s ms",
        ms(commit, "p50"),
        ms(commit, "p99"),
        ms(commit, "max"));
    line(
        out,
        "server      RSS max %s MiB (VmHWM %s MiB; %s MiB idle with the clients), heap used max %s MiB of %s",
        mib(server.getLong("rssMaxKib")),
        mib(server.getLong("vmHwmKib")),
        mib(server.getLong("rssIdleWithClientsKib")),
        mib(server.getLong("heapUsedMaxKib")),
        report.getJsonObject("settings").getString("serverHeap"));
    double serverCpu = server.getDouble("cpuPercent");
    double driverCpu = report.getJsonObject("driver").getDouble("cpuPercent");
    double machineCpu = report.getDouble("machineCpuBusyPercent");
    line(
        out,
        "cpu         server %.0f%%, driver %.0f%%, other processes %.0f%% (100%% = one core; %d cores)",
        serverCpu,
        driverCpu,
        Math.max(0, machineCpu - serverCpu - driverCpu),
        machine.getInteger("cores"));
    return out.toString();
  }

  private static void line(StringBuilder out, String format, Object... values) {
    out.append(String.format(Locale.ROOT, format, values)).append('\n');
  }

  private static String ms(JsonObject percentiles, String key) {
    return percentiles.containsKey(key)
        ? String.format(Locale.ROOT, "%.2f", percentiles.getDouble(key))
        : "-";
  }

  private static String mib(Long kib) {
    return kib == null || kib < 0 ? "?" : Long.toString(Math.round(kib / 1024.0));
  }
}
