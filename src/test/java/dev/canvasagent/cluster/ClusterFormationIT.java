package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ClusterProcesses;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Clustering by configuration, with the packaged jar as real processes (after {@code package}): three
 * nodes on one PostgreSQL schema form one cluster; one killed with SIGKILL is dropped by the others
 * within the failure detection time; one stopped with SIGTERM leaves at once; and a node started
 * without {@code CANVAS_AGENT_CLUSTER} is alone, starts no Hazelcast and loads none of its classes.
 */
@ExtendWith(VertxExtension.class)
class ClusterFormationIT {
  static final int FAILURE_DETECTION_MS = 4_000;

  /**
   * A member is dropped once it has been silent for the failure detection time, which Hazelcast checks
   * on its heartbeat (a second here): the wait allows that second, this test's own polling, and a
   * busy machine's slower answers.
   */
  static final long DROPPED_WITHIN_MS = FAILURE_DETECTION_MS + 3_000;

  /** {@code count} processes on {@code database}'s schema, with this test's failure detection time. */
  static ClusterProcesses startWithFailureDetection(
      Vertx vertx, int count, DatabaseConfig database) {
    return ClusterProcesses.start(
        vertx,
        count,
        database,
        Map.of("CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS", String.valueOf(FAILURE_DETECTION_MS)));
  }

  static List<String> members(JsonObject cluster) {
    return cluster.getJsonArray("members").stream().map(String.class::cast).toList();
  }

  @Test
  void threeProcessesFormOneClusterAndDropAKilledOneWithinTheFailureDetectionTime(Vertx vertx)
      throws Exception {
    DatabaseConfig database = TestDatabase.freshSchema();
    try (ClusterProcesses cluster = startWithFailureDetection(vertx, 3, database)) {
      List<String> ids = List.of(cluster.nodeId(0), cluster.nodeId(1), cluster.nodeId(2));
      assertEquals(3, ids.stream().distinct().count(), "three nodes, three ids: " + ids);
      for (int i = 0; i < 3; i++) {
        JsonObject seen = cluster.clusterOf(i);
        assertEquals(true, seen.getBoolean("clustered"), seen.encode());
        assertEquals(
            ids.stream().sorted().toList(), members(seen), "node " + i + " sees all three");
      }

      String killed = ids.get(2);
      cluster.kill(2);
      for (int survivor = 0; survivor < 2; survivor++) {
        List<String> after = cluster.awaitMembers(survivor, 2, DROPPED_WITHIN_MS);
        assertFalse(after.contains(killed), "the killed node is gone: " + after);
        assertEquals(List.of(ids.get(0), ids.get(1)).stream().sorted().toList(), after);
      }

      // A clean stop leaves the cluster: the last node is alone, and still serves.
      assertEquals(0, cluster.stop(1), "SIGTERM drains, stops cleanly and exits 0");
      assertEquals(List.of(ids.get(0)), cluster.awaitMembers(0, 1, DROPPED_WITHIN_MS));
      assertTrue(cluster.isAlive(0));
      assertEquals("up", Await.result(cluster.health(0)).getString("status"));
    } finally {
      TestDatabase.drop(database);
    }
  }

  /**
   * A frozen node (SIGSTOP) closes no connection: only its silence tells. It is dropped once it has
   * been silent for the failure detection time — not sooner (less one heartbeat interval: its last
   * heartbeat may have come up to a second before it froze), and not much later.
   */
  @Test
  void aSilentNodeIsDroppedWhenItHasBeenSilentForTheFailureDetectionTime(Vertx vertx)
      throws Exception {
    DatabaseConfig database = TestDatabase.freshSchema();
    try (ClusterProcesses cluster = startWithFailureDetection(vertx, 2, database)) {
      String survivor = cluster.nodeId(0);

      long frozenAt = System.nanoTime();
      cluster.freeze(1);
      List<String> after = cluster.awaitMembers(0, 1, DROPPED_WITHIN_MS);
      long silentMs = (System.nanoTime() - frozenAt) / 1_000_000;

      assertEquals(List.of(survivor), after);
      assertTrue(
          silentMs >= FAILURE_DETECTION_MS - 1_000,
          "dropped after " + silentMs + " ms of silence, before the failure detection time");
      cluster.thaw(1);
    } finally {
      TestDatabase.drop(database);
    }
  }

  @Test
  void aClusterPortAlreadyTakenStopsStartupWithStatusOneNamingTheCluster() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ServerProcess server =
            ServerProcess.java(
                List.of("-jar", "target/canvas-agent.jar"),
                Map.of(
                    "PORT", "0",
                    "PGHOST", "127.0.0.1",
                    "CANVAS_AGENT_CLUSTER", "hazelcast",
                    "CANVAS_AGENT_CLUSTER_PORT", String.valueOf(taken.getLocalPort()),
                    "CANVAS_AGENT_CLUSTER_MEMBERS", "127.0.0.1:" + taken.getLocalPort()))) {
      assertEquals(1, server.awaitExit());
      String output = server.remainingOutput();
      assertTrue(output.contains("startup failed: the cluster did not start: "), output);
      assertFalse(output.contains("server.started"), output);
    }
  }

  @Test
  void withoutTheSettingANodeIsAloneOpensNoHazelcastPortAndLoadsNoHazelcastClass(Vertx vertx)
      throws Exception {
    Path classes = Files.createTempFile("canvas-agent-classes", ".log");
    int unusedClusterPort = freePort();
    try (ServerProcess server =
        ServerProcess.java(
            List.of("-Xlog:class+load=info:file=" + classes, "-jar", "target/canvas-agent.jar"),
            // The port is read, checked, and left alone: nothing may listen there.
            Map.of("PORT", "0", "CANVAS_AGENT_CLUSTER_PORT", String.valueOf(unusedClusterPort)))) {
      String started = server.awaitLine(Pattern.compile("server\\.started"));
      assertTrue(started.contains(" cluster=none "), started);
      int port =
          Integer.parseInt(started.replaceFirst(".*url=http://127\\.0\\.0\\.1:(\\d+).*", "$1"));
      JsonObject health =
          Await.result(WebClient.create(vertx).get(port, "127.0.0.1", "/health").send())
              .bodyAsJsonObject();
      JsonObject cluster = health.getJsonObject("cluster");

      assertEquals(false, cluster.getBoolean("clustered"), health.encode());
      assertEquals(List.of(cluster.getString("nodeId")), members(cluster));
      assertTrue(started.contains(" node=" + cluster.getString("nodeId") + " "), started);
      assertThrows(
          ConnectException.class,
          () -> new Socket(InetAddress.getLoopbackAddress(), unusedClusterPort).close(),
          "no Hazelcast listens on CANVAS_AGENT_CLUSTER_PORT");
      server.terminate();
      assertEquals(0, server.awaitExit(), "a drained stop exits 0");
      String loaded = Files.readString(classes);
      assertTrue(loaded.contains("dev.canvasagent.App "), "the class log was written");
      assertFalse(loaded.contains("com.hazelcast."), "a Hazelcast class was loaded");
      assertFalse(loaded.contains("io.vertx.spi.cluster.hazelcast."), "the cluster manager was");
    } finally {
      Files.deleteIfExists(classes);
    }
  }

  @Test
  void hazelcastWithoutADatabaseStopsStartupNamingTheSetting() throws Exception {
    try (ServerProcess server =
        ServerProcess.java(
            List.of("-jar", "target/canvas-agent.jar"),
            Map.of(
                "PORT",
                "0",
                "CANVAS_AGENT_CLUSTER",
                "hazelcast",
                "CANVAS_AGENT_CLUSTER_MEMBERS",
                "127.0.0.1:" + freePort()))) {
      assertEquals(2, server.awaitExit());
      String output = server.remainingOutput();
      assertTrue(
          output.contains(
              "bad configuration: CANVAS_AGENT_CLUSTER = 'hazelcast': needs the PostgreSQL store"),
          output);
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
