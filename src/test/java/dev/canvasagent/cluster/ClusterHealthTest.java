package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code /health}'s {@code cluster}: this node's id and the members it sees, alone or clustered. */
class ClusterHealthTest {

  @Test
  void aNodeAloneReportsItselfAsItsOnlyMemberNotClustered() {
    Vertx vertx = Vertx.vertx();
    try {
      TestServer server = TestServer.start(vertx, Optional.empty());
      JsonObject cluster = server.get("/health").bodyAsJsonObject().getJsonObject("cluster");

      assertEquals(false, cluster.getBoolean("clustered"));
      assertEquals(server.cluster().nodeId(), cluster.getString("nodeId"));
      assertEquals(
          new JsonArray(List.of(server.cluster().nodeId())), cluster.getJsonArray("members"));
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void clusteredNodesEachReportTheirOwnIdAndTheSameMembers() {
    var database = TestDatabase.freshSchema();
    try (InJvmCluster cluster =
        InJvmCluster.start(2, TestServer.config(Map.of()).withDatabase(Optional.of(database)))) {
      JsonObject first = cluster.node(0).get("/health").bodyAsJsonObject().getJsonObject("cluster");
      JsonObject second =
          cluster.node(1).get("/health").bodyAsJsonObject().getJsonObject("cluster");
      List<String> ids =
          java.util.stream.Stream.of(
                  cluster.node(0).cluster().nodeId(), cluster.node(1).cluster().nodeId())
              .sorted()
              .toList();

      assertEquals(true, first.getBoolean("clustered"));
      assertEquals(cluster.node(0).cluster().nodeId(), first.getString("nodeId"));
      assertEquals(cluster.node(1).cluster().nodeId(), second.getString("nodeId"));
      assertEquals(new JsonArray(ids), first.getJsonArray("members"));
      assertEquals(new JsonArray(ids), second.getJsonArray("members"));
    } finally {
      TestDatabase.drop(database);
    }
  }
}
