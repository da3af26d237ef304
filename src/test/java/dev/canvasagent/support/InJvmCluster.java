package dev.canvasagent.support;

import dev.canvasagent.cluster.HazelcastNode;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Servers clustered in this JVM: each on a clustered Vert.x of its own (Hazelcast over TCP/IP on
 * loopback), all with one configuration (the same PostgreSQL schema). For tests of what crosses
 * nodes that need no process of their own; crash and kill tests start fat jars instead
 * ({@link ClusterProcesses}).
 */
public final class InJvmCluster implements AutoCloseable {
  private final List<Vertx> vertxes = new ArrayList<>();
  private final List<TestServer> servers = new ArrayList<>();
  private final List<String> members = new ArrayList<>();
  private AppConfig config;

  private InJvmCluster() {}

  /** {@code nodes} servers with {@code config}, started one after the other, each seeing all. */
  public static InJvmCluster start(int nodes, AppConfig config) {
    return start(nodes, config, vertx -> List.of());
  }

  /** As {@link #start(int, AppConfig)}, each node with model providers of the test's own (made on its Vert.x). */
  public static InJvmCluster start(
      int nodes,
      AppConfig config,
      java.util.function.Function<Vertx, List<dev.canvasagent.model.ModelProvider>> providers) {
    InJvmCluster cluster = new InJvmCluster();
    cluster.config = config;
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      ports.add(freePort());
    }
    cluster.members.addAll(ports.stream().map(port -> "127.0.0.1:" + port).toList());
    try {
      for (int port : ports) {
        cluster.startNode(port, providers);
      }
    } catch (Exception failed) {
      cluster.close();
      throw new IllegalStateException("the in-JVM cluster did not start: " + failed, failed);
    }
    return cluster;
  }

  /**
   * One more node, joining the running cluster (scaling out): it names every member so far and
   * itself; the others accept it without naming it. Its index is the next one.
   */
  public TestServer join() {
    int port = freePort();
    members.add("127.0.0.1:" + port);
    try {
      startNode(port, vertx -> List.of());
    } catch (Exception failed) {
      throw new IllegalStateException("the node did not join: " + failed, failed);
    }
    return servers.get(servers.size() - 1);
  }

  private void startNode(
      int port,
      java.util.function.Function<Vertx, List<dev.canvasagent.model.ModelProvider>> providers)
      throws Exception {
    HazelcastNode.Started node =
        HazelcastNode.start(
                new VertxOptions(),
                new HazelcastNode.Settings(
                    "canvas-agent-test-" + members.get(0).substring("127.0.0.1:".length()),
                    "127.0.0.1",
                    port,
                    List.copyOf(members),
                    "127.0.0.1",
                    0,
                    10_000))
            .await(60, TimeUnit.SECONDS);
    vertxes.add(node.vertx());
    servers.add(TestServer.start(node.vertx(), config, providers.apply(node.vertx()), node.view()));
  }

  public TestServer node(int index) {
    return servers.get(index);
  }

  public Vertx vertx(int index) {
    return vertxes.get(index);
  }

  public int size() {
    return servers.size();
  }

  /** Stops node {@code index} as a clean shutdown would: its server, then its leaving the cluster. */
  public void stop(int index) {
    Await.result(servers.get(index).stop());
    vertxes.get(index).close().await();
  }

  @Override
  public void close() {
    for (int i = servers.size() - 1; i >= 0; i--) {
      try {
        Await.result(servers.get(i).stop());
      } catch (RuntimeException alreadyStopped) {
        // stopped by the test, or never fully started
      }
    }
    for (Vertx vertx : vertxes) {
      try {
        vertx.close().await(30, TimeUnit.SECONDS);
      } catch (Exception alreadyClosed) {
        // closed by the test
      }
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
