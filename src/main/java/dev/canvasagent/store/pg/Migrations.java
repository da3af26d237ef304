package dev.canvasagent.store.pg;

import dev.canvasagent.config.DatabaseConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the versioned migrations of {@code sql/} (on the classpath as {@code db/migration}) with
 * Flyway. Flyway speaks JDBC, which blocks, so it runs once at startup on a worker thread.
 */
final class Migrations {
  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);

  private Migrations() {}

  static Future<Void> apply(Vertx vertx, DatabaseConfig config) {
    return vertx
        .executeBlocking(
            () -> {
              MigrateResult result =
                  Flyway.configure()
                      .dataSource(config.jdbcUrl(), config.user(), config.password())
                      .schemas(config.schema())
                      .createSchemas(true)
                      .locations("classpath:db/migration")
                      .load()
                      .migrate();
              LOG.atInfo()
                  .addKeyValue("schema", config.schema())
                  .addKeyValue("applied", result.migrationsExecuted)
                  .addKeyValue("version", result.targetSchemaVersion)
                  .log("store.migrated");
              return null;
            })
        .mapEmpty();
  }
}
