package dev.canvasagent.bench;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The fan-out benchmark over two clustered nodes (issue 19), against one node, in one run on one
 * machine. Both measurements use the fan-out's driver, settings and measurements ({@link
 * FanOutBench}): one room, {@code bench.clients} SSE clients, the changes posted to the first node at
 * {@code bench.rate}. First one node alone ({@code CANVAS_AGENT_CLUSTER} unset) with every client;
 * then two nodes clustered on loopback (Hazelcast), the first half of the clients on node 0, which
 * takes the changes, the second half ({@code bench.secondNodeClients}) on node 1, which gets each
 * change over the clustered event bus.
 * Both on PostgreSQL (a cluster needs it), each on a fresh schema. A delivery is matched to its change
 * by the change's own number ({@code meta.seq}), not by the event id, and counted once, on the client
 * that got it; each client must get each committed change once.
 *
 * <pre>./mvnw -q -B -Pbench -DskipTests verify -Dbench.which=fanout-cluster [-Dbench.clients=100 -Dbench.rate=50]</pre>
 */
final class FanOutClusterBench {
  static final int NODES = 2;

  private FanOutClusterBench() {}

  /** Runs one node, then two, prints both and how they compare, writes the report; 0 when it ran to the end. */
  static int execute() throws Exception {
    BenchSettings settings = BenchSettings.fromSystemProperties();
    int secondNodeClients = secondNodeClients(settings);
    int[] split = {settings.clients() - secondNodeClients, secondNodeClients};
    Path output = settings.output().toAbsolutePath().resolveSibling("fanout-cluster.json");
    Path directory = output.getParent();
    Files.createDirectories(directory);
    Vertx vertx = null;
    int status = 1;
    try {
      vertx = Vertx.vertx();
      Vertx driver = vertx;
      JsonObject oneNode =
          onSchema(
              database -> {
                Path log = directory.resolve("cluster-alone.log");
                BenchServer server = BenchCluster.alone(settings, database, log);
                return FanOutBench.measure(
                        settings, driver, List.of(server), new int[] {settings.clients()})
                    .put("store", "postgres")
                    .put("serverLog", log.toString());
              });
      JsonObject twoNodes =
          onSchema(
              database ->
                  FanOutBench.measure(
                          settings,
                          driver,
                          BenchCluster.clustered(settings, database, NODES, driver, directory),
                          split)
                      .put("store", "postgres")
                      .put("serverLogs", directory.resolve("cluster-node-<i>.log").toString()));
      JsonObject comparison = compare(oneNode, twoNodes);
      JsonObject report =
          new JsonObject()
              .put("benchmark", "fan-out over " + NODES + " clustered nodes")
              .put("oneNode", oneNode)
              .put("twoNodes", twoNodes)
              .put("twoNodesOfOne", comparison);
      Files.writeString(output, report.encodePrettily() + "\n");
      System.out.println(FanOutBench.summary(oneNode, settings, "one node (postgres)"));
      System.out.println(
          FanOutBench.summary(twoNodes, settings, NODES + " clustered nodes (postgres)"));
      System.out.println(summary(comparison));
      System.out.println("report      " + output + " (server logs beside it)");
      status = complete(oneNode) && complete(twoNodes) ? 0 : 1;
      if (status != 0) {
        System.err.println(
            "bench: a client missed a change or got one twice (deliveries.missing, .duplicates)");
      }
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

  /**
   * {@code bench.secondNodeClients}: how many of the clients stream from the second node (half by
   * default). With 1, the second node's CPU is almost all the cost of receiving each change over the
   * bus: the per-hop cost, measured directly.
   */
  static int secondNodeClients(BenchSettings settings) {
    int second = BenchProperties.number("bench.secondNodeClients", settings.clients() / 2);
    if (second < 1 || second >= settings.clients()) {
      throw new IllegalArgumentException(
          "bench.secondNodeClients must be 1 to bench.clients - 1 ("
              + (settings.clients() - 1)
              + "), not "
              + second
              + ": each node needs a client for the change to cross the cluster");
    }
    return second;
  }

  /** A measurement on a schema of its own, dropped afterwards whatever happens. */
  private interface OnSchema {
    JsonObject measure(DatabaseConfig database) throws Exception;
  }

  private static JsonObject onSchema(OnSchema measurement) throws Exception {
    DatabaseConfig database = TestDatabase.freshSchema();
    Thread drop = new Thread(() -> TestDatabase.drop(database), "bench-drop-schema");
    Runtime.getRuntime().addShutdownHook(drop);
    try {
      return measurement.measure(database);
    } finally {
      TestDatabase.drop(database);
      Runtime.getRuntime().removeShutdownHook(drop);
    }
  }

  /** Every client got every committed change, once. */
  private static boolean complete(JsonObject report) {
    JsonObject deliveries = report.getJsonObject("deliveries");
    return deliveries.getLong("missing") == 0
        && deliveries.getLong("duplicates") == 0
        && deliveries.getLong("unexpected") == 0;
  }

  /**
   * Two nodes against one: deliveries per second, latency, and the servers' CPU per change and per
   * delivery (what the paper estimate of N nodes in docs/performance.md starts from).
   */
  static JsonObject compare(JsonObject oneNode, JsonObject twoNodes) {
    JsonObject one = oneNode.getJsonObject("deliveries");
    JsonObject two = twoNodes.getJsonObject("deliveries");
    double oneCpu = oneNode.getJsonObject("server").getDouble("cpuPercent");
    double twoCpu = twoNodes.getJsonObject("servers").getDouble("cpuPercent");
    double oneRate = oneNode.getJsonObject("changes").getDouble("achievedRate");
    double twoRate = twoNodes.getJsonObject("changes").getDouble("achievedRate");
    JsonObject perChange =
        new JsonObject()
            .put("oneNode", cpuMicros(oneCpu, oneRate))
            .put("twoNodesTogether", cpuMicros(twoCpu, twoRate));
    // Less what each server spent idle with its clients: what the changes cost.
    JsonObject aboveIdle =
        new JsonObject().put("oneNode", cpuMicros(busy(oneNode.getJsonObject("server")), oneRate));
    double twoBusy = 0;
    for (Object entry : twoNodes.getJsonArray("nodes")) {
      JsonObject node = (JsonObject) entry;
      JsonObject server = node.getJsonObject("server");
      String name = "node" + node.getInteger("node");
      perChange.put(name, cpuMicros(server.getDouble("cpuPercent"), twoRate));
      aboveIdle.put(name, cpuMicros(busy(server), twoRate));
      twoBusy += busy(server);
    }
    aboveIdle.put("twoNodesTogether", cpuMicros(twoBusy, twoRate));
    return new JsonObject()
        .put(
            "deliveriesPerSecondPercent",
            Percentiles.round(100.0 * two.getLong("perSecond") / one.getLong("perSecond")))
        .put("p50Ratio", ratio(two, one, "p50"))
        .put("p99Ratio", ratio(two, one, "p99"))
        .put("sustainedByBoth", sustained(oneNode) && sustained(twoNodes))
        .put("serverCpuMicrosPerChange", perChange)
        .put("serverCpuMicrosPerChangeAboveIdle", aboveIdle)
        .put(
            "serverCpuMicrosPerDelivery",
            new JsonObject()
                .put("oneNode", cpuMicros(oneCpu, one.getLong("perSecond")))
                .put("twoNodesTogether", cpuMicros(twoCpu, two.getLong("perSecond"))));
  }

  /** A server's CPU in the measured window less its CPU idle with the clients (% of one core). */
  private static double busy(JsonObject server) {
    return server.getDouble("cpuPercent") - server.getDouble("idleCpuPercent");
  }

  /** CPU (% of one core) spent per event at {@code perSecond} events a second, in µs. */
  private static double cpuMicros(double cpuPercent, double perSecond) {
    return perSecond <= 0 ? Double.NaN : Percentiles.round(cpuPercent / 100 * 1e6 / perSecond);
  }

  private static double ratio(JsonObject two, JsonObject one, String percentile) {
    double of = one.getJsonObject("latencyMs").getDouble(percentile, Double.NaN);
    return Percentiles.round(two.getJsonObject("latencyMs").getDouble(percentile, Double.NaN) / of);
  }

  /** As {@link FloorComparison}: ≥ 99% of the target rate committed, ≥ 99.9% of it delivered. */
  private static boolean sustained(JsonObject report) {
    JsonObject changes = report.getJsonObject("changes");
    return changes.getDouble("achievedRate") >= 0.99 * changes.getInteger("targetRate")
        && report.getJsonObject("deliveries").getDouble("receivedPercent") >= 99.9;
  }

  static String summary(JsonObject comparison) {
    JsonObject perChange = comparison.getJsonObject("serverCpuMicrosPerChange");
    JsonObject perDelivery = comparison.getJsonObject("serverCpuMicrosPerDelivery");
    JsonObject aboveIdle = comparison.getJsonObject("serverCpuMicrosPerChangeAboveIdle");
    return String.format(
        Locale.ROOT,
        "2 of 1      deliveries/s %.1f%% of one node's; p50 %.2f×, p99 %.2f× (%s)%n"
            + "cpu/change  one node %.0f µs; two nodes %.0f µs together (node 0 %.0f, node 1 %.0f)%n"
            + "  above idle one node %.0f µs; two nodes %.0f µs together (node 0 %.0f, node 1 %.0f)%n"
            + "cpu/deliv.  one node %.1f µs; two nodes %.1f µs",
        comparison.getDouble("deliveriesPerSecondPercent"),
        comparison.getDouble("p50Ratio"),
        comparison.getDouble("p99Ratio"),
        comparison.getBoolean("sustainedByBoth")
            ? "the rate sustained by both"
            : "the rate not sustained by both: the latencies are the wait behind the backlog",
        perChange.getDouble("oneNode"),
        perChange.getDouble("twoNodesTogether"),
        perChange.getDouble("node0"),
        perChange.getDouble("node1"),
        aboveIdle.getDouble("oneNode"),
        aboveIdle.getDouble("twoNodesTogether"),
        aboveIdle.getDouble("node0"),
        aboveIdle.getDouble("node1"),
        perDelivery.getDouble("oneNode"),
        perDelivery.getDouble("twoNodesTogether"));
  }
}
