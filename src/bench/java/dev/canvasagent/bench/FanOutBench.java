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
import java.util.Arrays;
import java.util.BitSet;
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
  private static final long IDLE_SECONDS = 3;

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
    return measure(settings, vertx, List.of(server), new int[] {settings.clients()})
        .put("serverLog", log.toString());
  }

  /**
   * Measures servers already started (each has logged {@code server.started} or soon will): every
   * client's stream goes to one of them, {@code clientsPerServer[i]} to server {@code i} (together
   * {@code bench.clients}); the changes go to the first. Stops them all, whatever happens.
   */
  static JsonObject measure(
      BenchSettings settings, Vertx vertx, List<BenchServer> servers, int[] clientsPerServer)
      throws Exception {
    if (clientsPerServer.length != servers.size()
        || Arrays.stream(clientsPerServer).sum() != settings.clients()) {
      throw new IllegalArgumentException(
          Arrays.toString(clientsPerServer)
              + " clients for "
              + servers.size()
              + " servers do not add up to bench.clients="
              + settings.clients());
    }
    // Whatever happens to this JVM short of SIGKILL — an exception, Ctrl-C, Maven stopping — the
    // servers stop too.
    Thread stop = new Thread(() -> servers.forEach(BenchServer::close), "bench-stop-server");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      return run(settings, servers, clientsPerServer, vertx);
    } finally {
      servers.forEach(BenchServer::close);
      Runtime.getRuntime().removeShutdownHook(stop);
    }
  }

  private static JsonObject run(
      BenchSettings settings, List<BenchServer> servers, int[] clientsPerServer, Vertx vertx)
      throws Exception {
    String loadBefore = ProcCpu.loadAverage();
    int[] ports = new int[servers.size()];
    for (int i = 0; i < servers.size(); i++) {
      ports[i] = servers.get(i).awaitPort(START_SECONDS);
    }
    servers.forEach(BenchServer::startSampling);
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
    List<List<SseListener>> listenersByServer = new ArrayList<>();
    servers.forEach(server -> listenersByServer.add(new ArrayList<>()));
    List<SseListener> listeners = new ArrayList<>();
    long subscribing = System.nanoTime();
    for (int server = 0; server < servers.size(); server++) {
      for (int i = 0; i < clientsPerServer[server]; i++) {
        SseListener listener = SseListener.open(streams, ports[server], BenchSettings.ROOM, window);
        listeners.add(listener);
        listenersByServer.get(server).add(listener);
      }
    }
    Future.all(listeners.stream().map(SseListener::subscribed).toList())
        .toCompletionStage()
        .toCompletableFuture()
        .get(SUBSCRIBE_SECONDS, TimeUnit.SECONDS);
    long subscribeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - subscribing);
    Thread.sleep(1_000);
    List<long[]> idleMemory = servers.stream().map(BenchServer::memoryKib).toList();
    // What the servers spend with the clients connected and no change sent (timers, a cluster's
    // heartbeats): the part of their CPU that does not grow with the rate.
    long idleStart = System.nanoTime();
    CpuTicks idleBefore = CpuTicks.now(servers);
    Thread.sleep(TimeUnit.SECONDS.toMillis(IDLE_SECONDS));
    CpuTicks idleAfter = CpuTicks.now(servers);
    double idleSeconds = (System.nanoTime() - idleStart) / 1e9;

    ChangeSender sender = new ChangeSender(vertx, posts, ports[0], settings, window);
    var sent = sender.run().toCompletionStage().toCompletableFuture();
    // CPU is read at the edges of the measured window only.
    sleepUntilMicros(window, true);
    CpuTicks before = CpuTicks.now(servers);
    sleepUntilMicros(window, false);
    CpuTicks after = CpuTicks.now(servers);
    ChangeSender.Result result =
        sent.get(settings.seconds() + settings.warmupSeconds() + 120L, TimeUnit.SECONDS);

    BitSet committed = result.committedMeasuredSeqs();
    long expected = (long) committed.cardinality() * settings.clients();
    long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
    while (received(listeners) < expected && System.nanoTime() < drainUntil) {
      Thread.sleep(100);
    }
    List<long[]> finalMemory = servers.stream().map(BenchServer::memoryKib).toList();
    double windowSeconds = (window.endMicros() - window.startMicros()) / 1e6;
    // Read before the driver closes its streams: a stream it ended itself is no client the server
    // dropped.
    JsonObject deliveries = deliveries(listeners, committed, windowSeconds, settings.seconds());
    List<JsonObject> deliveriesByServer =
        listenersByServer.stream()
            .map(group -> deliveries(group, committed, windowSeconds, settings.seconds()))
            .toList();
    streams.close();
    posts.close();

    double driverCpu = percent(after.driver() - before.driver(), windowSeconds);
    double machineCpu =
        percent(
            after.machineBusy() - before.machineBusy(),
            (after.machineTotal() - before.machineTotal())
                / (double) cores
                / ProcCpu.TICKS_PER_SECOND);
    List<JsonObject> serverReports = new ArrayList<>();
    double serversCpu = 0;
    for (int i = 0; i < servers.size(); i++) {
      double cpu = percent(after.servers()[i] - before.servers()[i], windowSeconds);
      serversCpu += cpu;
      double idleCpu = percent(idleAfter.servers()[i] - idleBefore.servers()[i], idleSeconds);
      serverReports.add(
          server(servers.get(i), idleMemory.get(i), finalMemory.get(i), cpu, window)
              .put("idleCpuPercent", Percentiles.round(idleCpu)));
    }

    JsonObject report =
        new JsonObject()
            .put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString())
            .put(
                "machine",
                new JsonObject()
                    .put("cores", cores)
                    .put(
                        "sharedBy",
                        (servers.size() == 1 ? "the server" : servers.size() + " servers")
                            + " and this driver (and whatever else runs on the machine)")
                    .put(
                        "java",
                        System.getProperty("java.vm.name")
                            + " "
                            + System.getProperty("java.runtime.version"))
                    .put(
                        "os",
                        System.getProperty("os.name") + " " + System.getProperty("os.version"))
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
                    .put(
                        "achievedRate",
                        Percentiles.round(result.committedMeasured() / windowSeconds))
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
            .put("driver", new JsonObject().put("cpuPercent", Percentiles.round(driverCpu)))
            .put("machineCpuBusyPercent", Percentiles.round(machineCpu))
            .put(
                "otherProcessesCpuPercent",
                Percentiles.round(Math.max(0, machineCpu - serversCpu - driverCpu)));
    if (servers.size() == 1) {
      return report.put("server", serverReports.get(0));
    }
    JsonArray nodes = new JsonArray();
    for (int i = 0; i < servers.size(); i++) {
      nodes.add(
          new JsonObject()
              .put("node", i)
              .put("clients", listenersByServer.get(i).size())
              .put(
                  "changesArrive",
                  i == 0 ? "as the driver's POSTs" : "over the clustered event bus")
              .put("deliveries", deliveriesByServer.get(i))
              .put("server", serverReports.get(i)));
    }
    return report
        .put("nodes", nodes)
        .put(
            "servers",
            new JsonObject()
                .put("cpuPercent", Percentiles.round(serversCpu))
                .put("rssMaxKib", sum(serverReports, "rssMaxKib"))
                .put("rssIdleWithClientsKib", sum(serverReports, "rssIdleWithClientsKib"))
                .put("heapUsedMaxKib", sum(serverReports, "heapUsedMaxKib"))
                .put("slowConsumerDisconnects", sum(serverReports, "slowConsumerDisconnects"))
                .put("logWarnings", sum(serverReports, "logWarnings")));
  }

  /** One server's memory, CPU and log counts over the run. */
  private static JsonObject server(
      BenchServer server,
      long[] idleMemory,
      long[] finalMemory,
      double cpuPercent,
      MeasurementWindow window) {
    return new JsonObject()
        .put("pid", server.pid())
        .put("rssIdleWithClientsKib", idleMemory[0])
        .put(
            "rssMaxKib",
            Math.max(
                finalMemory[0],
                server.samples().stream().mapToLong(BenchServer.Sample::rssKib).max().orElse(-1)))
        .put("rssEndKib", finalMemory[0])
        .put("vmHwmKib", finalMemory[1])
        .put("heapUsedMaxKib", server.heapUsedMaxKib())
        .put("heapUsedEndKib", server.heapUsedLastKib())
        .put("cpuPercent", Percentiles.round(cpuPercent))
        .put("slowConsumerDisconnects", server.slowConsumerDisconnects())
        .put("logWarnings", server.warnings())
        .put("timeline", timeline(server.samples(), window));
  }

  private static long sum(List<JsonObject> reports, String key) {
    return reports.stream().mapToLong(report -> report.getLong(key)).sum();
  }

  /**
   * CPU used so far, in clock ticks: by each server, by this driver, by the whole machine (busy, and
   * in all).
   */
  private record CpuTicks(long[] servers, long driver, long machineBusy, long machineTotal) {
    static CpuTicks now(List<BenchServer> servers) {
      long[] machine = ProcCpu.machineTicks();
      return new CpuTicks(
          servers.stream().mapToLong(BenchServer::cpuTicks).toArray(),
          ProcCpu.processTicks(ProcessHandle.current().pid()),
          machine[0],
          machine[1]);
    }
  }

  /**
   * Some clients' deliveries together: counts, latency percentiles, and the worst latency of each
   * second. Each client must have received each committed measured change ({@code committed}, by
   * {@code meta.seq}) once: what it missed, what it got that was never committed, and what it got
   * twice are counted apart, and none of them is a delivery.
   */
  private static JsonObject deliveries(
      List<SseListener> listeners, BitSet committed, double windowSeconds, int seconds) {
    long expected = (long) committed.cardinality() * listeners.size();
    long received = 0;
    long receivedBytes = 0;
    long unparsable = 0;
    long duplicates = 0;
    long missing = 0;
    long unexpected = 0;
    int clientsMissingChanges = 0;
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
      duplicates += listener.duplicates();
      dropped += listener.ended() ? 1 : 0;
      BitSet seen = listener.seen();
      BitSet notSeen = (BitSet) committed.clone();
      notSeen.andNot(seen);
      missing += notSeen.cardinality();
      clientsMissingChanges += notSeen.isEmpty() ? 0 : 1;
      seen.andNot(committed);
      unexpected += seen.cardinality();
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
        .put("clients", listeners.size())
        .put("expected", expected)
        .put("received", received)
        .put("bytesPerEvent", received == 0 ? 0 : Math.round((double) receivedBytes / received))
        .put("receivedPercent", expected == 0 ? 0 : Percentiles.round(100.0 * received / expected))
        .put("perSecond", Math.round(received / windowSeconds))
        .put("missing", missing)
        .put("clientsMissingChanges", clientsMissingChanges)
        .put("duplicates", duplicates)
        .put("unexpected", unexpected)
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

  static String summary(JsonObject report, BenchSettings settings, String target) {
    JsonObject changes = report.getJsonObject("changes");
    JsonObject deliveries = report.getJsonObject("deliveries");
    JsonObject commit = changes.getJsonObject("commitLatencyMs");
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
        "machine     %d cores shared by %s; %s; load before %s",
        machine.getInteger("cores"),
        report.containsKey("nodes") ? "the servers and the driver" : "server and driver",
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
    deliveryLines(out, "", deliveries);
    line(
        out,
        "commit      POST round trip: p50 %s  p99 %s  max %s ms",
        ms(commit, "p50"),
        ms(commit, "p99"),
        ms(commit, "max"));
    double driverCpu = report.getJsonObject("driver").getDouble("cpuPercent");
    double machineCpu = report.getDouble("machineCpuBusyPercent");
    if (!report.containsKey("nodes")) {
      JsonObject server = report.getJsonObject("server");
      serverLine(out, "server     ", server, report);
      double serverCpu = server.getDouble("cpuPercent");
      line(
          out,
          "cpu         server %.0f%% (%.0f%% idle with the clients), driver %.0f%%, other processes %.0f%% (100%% = one core; %d cores)",
          serverCpu,
          server.getDouble("idleCpuPercent"),
          driverCpu,
          Math.max(0, machineCpu - serverCpu - driverCpu),
          machine.getInteger("cores"));
      return out.toString();
    }
    for (Object entry : report.getJsonArray("nodes")) {
      JsonObject node = (JsonObject) entry;
      String name = "node " + node.getInteger("node");
      line(
          out,
          "%-11s %d clients; changes arrive %s",
          name,
          node.getInteger("clients"),
          node.getString("changesArrive"));
      deliveryLines(out, "  ", node.getJsonObject("deliveries"));
      serverLine(out, "  server   ", node.getJsonObject("server"), report);
      line(
          out,
          "  cpu       %.0f%% (%.0f%% idle with the clients, before the changes)",
          node.getJsonObject("server").getDouble("cpuPercent"),
          node.getJsonObject("server").getDouble("idleCpuPercent"));
    }
    JsonObject servers = report.getJsonObject("servers");
    line(
        out,
        "cpu         servers %.0f%% together, driver %.0f%%, other processes %s%% (100%% = one core; %d cores)",
        servers.getDouble("cpuPercent"),
        driverCpu,
        String.format(Locale.ROOT, "%.0f", report.getDouble("otherProcessesCpuPercent")),
        machine.getInteger("cores"));
    line(
        out,
        "memory      servers' RSS max %s MiB together (%s MiB idle with the clients)",
        mib(servers.getLong("rssMaxKib")),
        mib(servers.getLong("rssIdleWithClientsKib")));
    return out.toString();
  }

  /** Deliveries and their latency, of all clients or of one node's. */
  private static void deliveryLines(StringBuilder out, String indent, JsonObject deliveries) {
    JsonObject latency = deliveries.getJsonObject("latencyMs");
    line(
        out,
        "%s%d of %d expected (%.2f%%), %d/s, %d bytes each; missing %d (on %d clients), duplicates %d; clients dropped by the server: %d",
        label(indent + "deliveries"),
        deliveries.getLong("received"),
        deliveries.getLong("expected"),
        deliveries.getDouble("receivedPercent"),
        deliveries.getLong("perSecond"),
        deliveries.getLong("bytesPerEvent"),
        deliveries.getLong("missing"),
        deliveries.getInteger("clientsMissingChanges"),
        deliveries.getLong("duplicates"),
        deliveries.getInteger("clientsDroppedByServer"));
    line(
        out,
        "%sPOST sent -> canvas:change received: p50 %s  p90 %s  p99 %s  max %s ms",
        label(indent + "latency"),
        ms(latency, "p50"),
        ms(latency, "p90"),
        ms(latency, "p99"),
        ms(latency, "max"));
  }

  /** A line's label, padded to the summary's column (and at least one space after it). */
  private static String label(String label) {
    return String.format(Locale.ROOT, "%-12s", label + " ");
  }

  private static void serverLine(
      StringBuilder out, String label, JsonObject server, JsonObject report) {
    line(
        out,
        "%s RSS max %s MiB (VmHWM %s MiB; %s MiB idle with the clients), heap used max %s MiB of %s",
        label,
        mib(server.getLong("rssMaxKib")),
        mib(server.getLong("vmHwmKib")),
        mib(server.getLong("rssIdleWithClientsKib")),
        mib(server.getLong("heapUsedMaxKib")),
        report.getJsonObject("settings").getString("serverHeap"));
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
