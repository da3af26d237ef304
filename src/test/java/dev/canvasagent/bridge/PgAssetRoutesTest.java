package dev.canvasagent.bridge;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.TestDatabase;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class PgAssetRoutesTest extends AssetRoutesContract {
  static DatabaseConfig schema;

  @BeforeAll
  static void createSchema() {
    schema = TestDatabase.freshSchema();
  }

  @AfterAll
  static void dropSchema() {
    if (schema != null) {
      TestDatabase.drop(schema);
    }
  }

  @Override
  protected Optional<DatabaseConfig> database() {
    return Optional.of(schema);
  }
}
