package dev.canvasagent.bench;

import dev.canvasagent.config.DatabaseConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Servers for the fan-out benchmark on one PostgreSQL schema: fat jars, each a process of its own
 * ({@link BenchServer}), either one node alone or {@code n} nodes clustered on loopback with {@code
 * CANVAS_AGENT_CLUSTER=hazelcast} (as {@code docs/cluster.md} starts them, and as the tests'
 * {@code ClusterProcesses} does). Each clustered node gets free ports for Hazelcast and its event
 * bus, and the cluster a name of its own, so that no other cluster on the machine joins it.
 */
final class BenchCluster {
  /** Each JVM's start, then Hazelcast's join (about five seconds), one node after another. */
  static final long FORM_SECONDS = 120;

  private static final long POLL_MS = 200;

  private BenchCluster() {}

  /** One node, not clustered, on {@code database}'s schema; its log to {@code log}. */
  static BenchServer alone(BenchSettings settings, DatabaseConfig database, Path log)
      throws IOException {
    return BenchServer.start(
        settings.jar(),
        settings.serverHeap(),
        settings.serverJvmOptions(),
        StoreServer.environment(database),
        log);
  }

  /**
   * {@code count} nodes clustered on {@code database}'s schema, started one after another (each joins
   * the ones before it); returns once every node's {@code /health} lists all of them. Node {@code i}
   * logs to {@code cluster-node-<i>.log} in {@code directory}. If they do not form, every node started is stopped and the failure names
   * the logs.
   */
  static List<BenchServer> clustered(
      BenchSettings settings, DatabaseConfig database, int count, Vertx vertx, Path directory)
      throws Exception {
    List<Integer> clusterPorts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      clusterPorts.add(freePort());
    }
    List<String> members = clusterPorts.stream().map(port -> "127.0.0.1:" + port).toList();
    List<BenchServer> servers = new ArrayList<>();
    List<Integer> httpPorts = new ArrayList<>();
    // Until the measurement takes them over, the nodes stop with this JVM, however it stops.
    Thread stop =
        new Thread(
            () -> {
              synchronized (servers) {
                servers.forEach(BenchServer::close);
              }
            },
            "bench-stop-cluster");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      for (int i = 0; i < count; i++) {
        Map<String, String> env = new HashMap<>(StoreServer.environment(database));
        env.put("CANVAS_AGENT_CLUSTER", "hazelcast");
        env.put("CANVAS_AGENT_CLUSTER_MEMBERS", String.join(",", members));
        env.put("CANVAS_AGENT_CLUSTER_HOST", "127.0.0.1");
        env.put("CANVAS_AGENT_CLUSTER_PORT", String.valueOf(clusterPorts.get(i)));
        env.put("CANVAS_AGENT_CLUSTER_NAME", "canvas-agent-bench-" + clusterPorts.get(0));
        env.put("CANVAS_AGENT_EVENTBUS_PORT", "0");
        BenchServer server =
            BenchServer.start(
                settings.jar(),
                settings.serverHeap(),
                settings.serverJvmOptions(),
                env,
                directory.resolve("cluster-node-" + i + ".log"));
        synchronized (servers) {
          servers.add(server);
        }
        // The next node joins this one only once it is up (the first forms the cluster alone).
        httpPorts.add(server.awaitPort(FORM_SECONDS));
      }
      HttpClient http = vertx.createHttpClient();
      try {
        for (int port : httpPorts) {
          awaitMembers(vertx, http, port, count)
              .toCompletionStage()
              .toCompletableFuture()
              .get(FORM_SECONDS + 10, TimeUnit.SECONDS);
        }
      } finally {
        http.close();
      }
      return servers;
    } catch (Exception e) {
      stop.run();
      throw new IllegalStateException(
          "the cluster of "
              + count
              + " did not form ("
              + e
              + "); see "
              + directory.resolve("cluster-node-*.log"),
          e);
    } finally {
      Runtime.getRuntime().removeShutdownHook(stop);
    }
  }

  /** Asks {@code /health} every {@value #POLL_MS} ms, on a Vert.x timer, until it lists {@code count} members. */
  private static Future<Void> awaitMembers(Vertx vertx, HttpClient http, int port, int count) {
    Promise<Void> formed = Promise.promise();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FORM_SECONDS);
    poll(vertx, http, port, count, deadline, formed);
    return formed.future();
  }

  private static void poll(
      Vertx vertx, HttpClient http, int port, int count, long deadline, Promise<Void> formed) {
    http.request(HttpMethod.GET, port, "127.0.0.1", "/health")
        .compose(request -> request.send().compose(response -> response.body()))
        .map(body -> new JsonObject(body).getJsonObject("cluster").getJsonArray("members").size())
        .onComplete(
            members -> {
              if (members.succeeded() && members.result() == count) {
                formed.complete();
              } else if (System.nanoTime() > deadline) {
                formed.fail(
                    "node on port "
                        + port
                        + " did not list "
                        + count
                        + " members within "
                        + FORM_SECONDS
                        + " s (last: "
                        + (members.succeeded() ? members.result() : members.cause())
                        + ")");
              } else {
                vertx.setTimer(POLL_MS, again -> poll(vertx, http, port, count, deadline, formed));
              }
            });
  }

  /** A port free on loopback now; the node that gets it binds it a moment later. */
  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
