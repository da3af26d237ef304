package dev.canvasagent.store.pg;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.AssetStore;
import dev.canvasagent.store.AssetStoreContract;
import dev.canvasagent.store.Store;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

class PgAssetStoreTest extends AssetStoreContract {
  static DatabaseConfig database;
  Store store;

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
  protected AssetStore createAssets(Vertx vertx) {
    store = Await.result(PgStore.open(vertx, database));
    return store.assets();
  }

  @AfterEach
  void close() {
    Await.result(store.close());
  }
}
