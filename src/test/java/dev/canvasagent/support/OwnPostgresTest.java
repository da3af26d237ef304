package dev.canvasagent.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.canvasagent.config.DatabaseConfig;
import org.junit.jupiter.api.Test;

class OwnPostgresTest {
  @Test
  void aClusterOfItsOwnStopsAndStartsAgainOnTheSamePort() {
    try (OwnPostgres cluster = OwnPostgres.start()) {
      DatabaseConfig config = cluster.config("public");
      TestDatabase.execute(config, "CREATE TABLE kept (n int)");
      TestDatabase.execute(config, "INSERT INTO kept VALUES (7)");

      cluster.stopServer();
      assertThrows(IllegalStateException.class, () -> TestDatabase.queryLong(config, "SELECT 1"));

      cluster.startServer();
      assertEquals(7, TestDatabase.queryLong(config, "SELECT n FROM kept"));
    }
  }
}
