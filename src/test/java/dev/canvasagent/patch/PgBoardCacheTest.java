package dev.canvasagent.patch;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.pg.PgStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The board cache contract on PostgreSQL: each node its own pool on one schema, as two processes would. */
class PgBoardCacheTest extends BoardCacheContract {
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
  protected Store storeFor(Vertx vertx) {
    return Await.result(PgStore.open(vertx, database));
  }
}
