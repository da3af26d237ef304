package dev.canvasagent.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.config.DatabaseConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A cluster of fat-jar servers ({@code java -jar target/canvas-agent.jar}, after {@code package}), each
 * an operating-system process of its own, clustered on loopback with {@code CANVAS_AGENT_CLUSTER=
 * hazelcast} on one PostgreSQL schema: for what only real processes show (a node killed with SIGKILL,
 * one that leaves cleanly). Each node gets free ports for HTTP, Hazelcast and the event bus, and a
 * cluster name of its own, so clusters that other test runs start on this machine never join it.
 *
 * <p>{@link #start} returns once every node's {@code /health} lists all of them. A node's output is
 * kept whole, and every failure message of this class ends with all of it ({@link #logs()}).
 */
public final class ClusterProcesses implements AutoCloseable {
  static final List<String> JAR =
      List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-jar", "target/canvas-agent.jar");

  /** How long a cluster has to form: each JVM's start, and Hazelcast's join, one node after another. */
  public static final long FORM_MS = 90_000;

  static final long POLL_MS = 100;

  private final Vertx vertx;
  private final Optional<String> adminToken;
  private final List<Node> nodes = new ArrayList<>();

  /** One server process: its HTTP port, its Hazelcast port, and a client for its HTTP API. */
  private record Node(ServerProcess process, int httpPort, int clusterPort, WebClient http) {}

  private ClusterProcesses(Vertx vertx, Optional<String> adminToken) {
    this.vertx = vertx;
    this.adminToken = adminToken;
  }

  /**
   * {@code count} nodes on {@code database}'s schema, started one after another (each joins the ones
   * before it), with {@code environment} over the cluster's own settings (e.g. {@code
   * CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS}, or a fake model's delay).
   */
  public static ClusterProcesses start(
      Vertx vertx, int count, DatabaseConfig database, Map<String, String> environment) {
    return start(vertx, count, database, environment, Optional.empty());
  }

  /**
   * As {@link #start(Vertx, int, DatabaseConfig, Map)}, for nodes with auth on ({@code environment}
   * sets their secret or key): {@code /health} shows its {@code cluster} only to an admin, so every
   * {@link #health} sends {@code adminToken}.
   */
  public static ClusterProcesses start(
      Vertx vertx,
      int count,
      DatabaseConfig database,
      Map<String, String> environment,
      Optional<String> adminToken) {
    ClusterProcesses cluster = new ClusterProcesses(vertx, adminToken);
    List<Integer> clusterPorts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      clusterPorts.add(freePort());
    }
    List<String> members = clusterPorts.stream().map(port -> "127.0.0.1:" + port).toList();
    try {
      for (int port : clusterPorts) {
        Map<String, String> env = new HashMap<>(TestDatabase.processEnvironment(database));
        env.put("CANVAS_AGENT_CLUSTER", "hazelcast");
        env.put("CANVAS_AGENT_CLUSTER_MEMBERS", String.join(",", members));
        env.put("CANVAS_AGENT_CLUSTER_HOST", "127.0.0.1");
        env.put("CANVAS_AGENT_CLUSTER_PORT", String.valueOf(port));
        env.put("CANVAS_AGENT_CLUSTER_NAME", "canvas-agent-it-" + clusterPorts.get(0));
        env.put("CANVAS_AGENT_EVENTBUS_PORT", "0");
        env.putAll(environment);
        ServerProcess process = ServerProcess.java(JAR, env);
        // Added before it has started, so that close() ends it whatever happens next.
        cluster.nodes.add(new Node(process, -1, port, null));
        int httpPort = process.awaitStartedPort();
        process.keepReading();
        cluster.nodes.set(
            cluster.nodes.size() - 1,
            new Node(
                process,
                httpPort,
                port,
                WebClient.create(
                    vertx,
                    new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(httpPort))));
      }
      for (int i = 0; i < count; i++) {
        cluster.awaitMembers(i, count, FORM_MS);
      }
    } catch (Exception | AssertionError failed) {
      String logs = cluster.logs();
      cluster.close();
      throw new IllegalStateException(
          "the cluster of " + count + " processes did not form: " + failed + "\n" + logs, failed);
    }
    return cluster;
  }

  public int size() {
    return nodes.size();
  }

  /** {@code http://127.0.0.1:<port>} of node {@code index}. */
  public String baseUrl(int index) {
    return "http://127.0.0.1:" + httpPort(index);
  }

  public int httpPort(int index) {
    return nodes.get(index).httpPort();
  }

  /** Node {@code index}'s Hazelcast port (in every node's {@code CANVAS_AGENT_CLUSTER_MEMBERS}). */
  public int clusterPort(int index) {
    return nodes.get(index).clusterPort();
  }

  /** A client of node {@code index}'s HTTP API (host and port set). */
  public WebClient http(int index) {
    return nodes.get(index).http();
  }

  public boolean isAlive(int index) {
    return nodes.get(index).process().isAlive();
  }

  /** Node {@code index}'s {@code /health} answer. */
  public Future<JsonObject> health(int index) {
    HttpRequest<Buffer> request = http(index).get("/health");
    adminToken.ifPresent(request::bearerTokenAuthentication);
    return request
        .send()
        .map(
            response -> {
              if (response.statusCode() != 200) {
                throw new IllegalStateException(
                    "/health answered " + response.statusCode() + ": " + response.bodyAsString());
              }
              return response.bodyAsJsonObject();
            });
  }

  /** The {@code cluster} of node {@code index}'s {@code /health}: {@code {clustered, nodeId, members}}. */
  public JsonObject clusterOf(int index) {
    return Await.result(health(index)).getJsonObject("cluster");
  }

  /** Node {@code index}'s id, as its {@code /health} gives it. */
  public String nodeId(int index) {
    return clusterOf(index).getString("nodeId");
  }

  /**
   * Waits until node {@code index}'s {@code /health} lists {@code count} members, asking every {@value
   * #POLL_MS} ms on a Vert.x timer for at most {@code withinMs}; returns them. Fails naming what it
   * saw last, with every node's log.
   */
  public List<String> awaitMembers(int index, int count, long withinMs) {
    return awaitMembers(index, members -> members.size() == count, withinMs, count + " members");
  }

  /** As {@link #awaitMembers(int, int, long)}, until the members are what {@code wanted} accepts. */
  public List<String> awaitMembers(
      int index, Predicate<List<String>> wanted, long withinMs, String what) {
    Promise<List<String>> seen = Promise.promise();
    List<String> last = new ArrayList<>();
    poll(index, wanted, System.nanoTime() + withinMs * 1_000_000, last, seen);
    try {
      return Await.result(seen.future(), withinMs / 1000 + 30);
    } catch (RuntimeException | AssertionError failed) {
      throw new AssertionError(
          "node "
              + index
              + " did not list "
              + what
              + " within "
              + withinMs
              + " ms; last seen: "
              + last
              + "\n"
              + logs(),
          failed);
    }
  }

  private void poll(
      int index,
      Predicate<List<String>> wanted,
      long deadline,
      List<String> last,
      Promise<List<String>> seen) {
    health(index)
        .map(
            health ->
                health.getJsonObject("cluster").getJsonArray("members").stream()
                    .map(String.class::cast)
                    .toList())
        .onComplete(
            answer -> {
              if (answer.succeeded()) {
                synchronized (last) {
                  last.clear();
                  last.addAll(answer.result());
                }
                if (wanted.test(answer.result())) {
                  seen.complete(answer.result());
                  return;
                }
              }
              if (System.nanoTime() > deadline) {
                seen.fail(answer.failed() ? answer.cause() : new IllegalStateException("not yet"));
              } else {
                vertx.setTimer(POLL_MS, id -> poll(index, wanted, deadline, last, seen));
              }
            });
  }

  /** SIGKILL: node {@code index} dies at once, leaving nothing behind but what it stored. */
  public void kill(int index) throws InterruptedException {
    ServerProcess process = nodes.get(index).process();
    process.close();
    process.awaitExit();
  }

  /**
   * SIGSTOP: node {@code index} stops answering but closes nothing, as a frozen host or a cut network
   * would; the others drop it only once it has been silent for the failure detection time. {@link
   * #close()} kills it.
   */
  public void freeze(int index) throws IOException, InterruptedException {
    signal(index, "-STOP");
  }

  /** SIGCONT: a frozen node {@code index} runs again. */
  public void thaw(int index) throws IOException, InterruptedException {
    signal(index, "-CONT");
  }

  private void signal(int index, String signal) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", signal, String.valueOf(nodes.get(index).process().pid()))
            .inheritIO()
            .start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill " + signal + " failed for node " + index);
    }
  }

  /** SIGTERM: node {@code index} stops cleanly and leaves the cluster; returns its exit status. */
  public int stop(int index) throws InterruptedException {
    ServerProcess process = nodes.get(index).process();
    process.terminate();
    return process.awaitExit();
  }

  /** Every node's output so far, each under a line that names it. */
  public String logs() {
    StringBuilder logs = new StringBuilder();
    for (int i = 0; i < nodes.size(); i++) {
      logs.append("---- node ")
          .append(i)
          .append(" (Hazelcast port ")
          .append(nodes.get(i).clusterPort())
          .append(nodes.get(i).process().isAlive() ? ", running" : ", exited")
          .append(") ----\n")
          .append(nodes.get(i).process().output())
          .append('\n');
    }
    return logs.toString();
  }

  /**
   * Posts {@code message} to {@code sessionId} in {@code roomId} through node {@code index}, as a page
   * does: the answer of the run it accepted ({@code 202} asserted), with its {@code runId}.
   */
  public JsonObject postRun(int index, String roomId, String sessionId, String message) {
    HttpResponse<Buffer> accepted =
        Await.result(
            http(index)
                .post("/api/canvas-agent/run")
                .sendJsonObject(
                    new JsonObject()
                        .put("roomId", roomId)
                        .put("sessionId", sessionId)
                        .put("message", message)));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    return accepted.bodyAsJsonObject();
  }

  /** Kills whatever still runs. */
  @Override
  public void close() {
    for (Node node : nodes) {
      node.process().close();
      if (node.http() != null) {
        node.http().close();
      }
    }
  }

  /**
   * Ends what a process test started, in the reverse order: the cluster, the Vert.x its clients ran
   * on, its schema. Any of them may be null: a start that failed part-way leaves the rest to end.
   */
  public static void closeAll(ClusterProcesses cluster, Vertx vertx, DatabaseConfig database) {
    if (cluster != null) {
      cluster.close();
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  /** A port free on loopback now; the process that gets it binds it a moment later. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
