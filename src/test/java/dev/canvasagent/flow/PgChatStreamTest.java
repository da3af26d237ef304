package dev.canvasagent.flow;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.TestDatabase;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class PgChatStreamTest extends ChatStreamContract {
  static DatabaseConfig database;

  @BeforeAll
  static void createSchema() {
    database = TestDatabase.freshSchema();
  }

  @AfterAll
  static void dropSchema() {
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  @Override
  Optional<DatabaseConfig> database() {
    return Optional.of(database);
  }
}
