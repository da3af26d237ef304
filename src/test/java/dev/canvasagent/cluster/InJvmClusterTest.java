package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Two servers clustered in one JVM on one PostgreSQL: both start, see each other and answer HTTP. */
class InJvmClusterTest {

  @Test
  void two_servers_cluster_on_one_database() {
    var database = TestDatabase.freshSchema();
    try (InJvmCluster cluster =
        InJvmCluster.start(2, TestServer.config(Map.of()).withDatabase(Optional.of(database)))) {
      assertEquals(2, cluster.node(0).cluster().members().size());
      assertEquals(cluster.node(0).cluster().members(), cluster.node(1).cluster().members());
      assertTrue(cluster.node(1).cluster().clustered());
      assertEquals(200, cluster.node(0).get("/health").statusCode());
      assertEquals(200, cluster.node(1).get("/health").statusCode());
    } finally {
      TestDatabase.drop(database);
    }
  }
}
