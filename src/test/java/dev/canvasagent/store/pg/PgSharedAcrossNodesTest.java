package dev.canvasagent.store.pg;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.SharedAcrossNodesContract;
import dev.canvasagent.store.Store;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class PgSharedAcrossNodesTest extends SharedAcrossNodesContract {
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
  protected Store createStore(Vertx vertx) {
    return Await.result(PgStore.open(vertx, database));
  }

  @Override
  protected int keysKept(dev.canvasagent.store.RateLimits.Allowance allowance) {
    return (int)
        TestDatabase.queryLong(
            database,
            "SELECT count(*) FROM "
                + database.schema()
                + ".canvas_rate_limits WHERE limit_name = '"
                + allowance.limit()
                + "' AND key = '"
                + allowance.key()
                + "'");
  }
}
