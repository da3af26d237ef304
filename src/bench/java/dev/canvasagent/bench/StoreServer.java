package dev.canvasagent.bench;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.TestDatabase;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link BenchServer} on one store: {@code pg}, a schema of its own on the tests' PostgreSQL
 * ({@link TestDatabase}), or {@code memory} ({@code database} null). {@link #close} stops the server
 * and then drops the schema; it runs again, harmlessly, when this JVM stops (a shutdown hook).
 */
record StoreServer(BenchServer server, DatabaseConfig database) implements AutoCloseable {

  static StoreServer start(
      String store,
      Path jar,
      String heap,
      List<String> jvmOptions,
      Map<String, String> environment,
      Path log)
      throws IOException {
    DatabaseConfig database = store.equals("pg") ? TestDatabase.freshSchema() : null;
    Map<String, String> env = new HashMap<>(environment);
    if (database != null) {
      env.putAll(environment(database));
    }
    try {
      BenchServer server = BenchServer.start(jar, heap, jvmOptions, env, log);
      StoreServer started = new StoreServer(server, database);
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "bench-stop-server"));
      return started;
    } catch (IOException | RuntimeException e) {
      if (database != null) {
        TestDatabase.drop(database);
      }
      throw e;
    }
  }

  /** What points the server at {@code database}: the {@code PG*} variables and the schema. */
  static Map<String, String> environment(DatabaseConfig database) {
    return Map.of(
        "PGHOST", database.host(),
        "PGPORT", Integer.toString(database.port()),
        "PGDATABASE", database.database(),
        "PGUSER", database.user(),
        "PGPASSWORD", database.password(),
        "CANVAS_AGENT_DB_SCHEMA", database.schema());
  }

  @Override
  public void close() {
    // Both steps may run twice: BenchServer.close returns at once the second time, and the schema
    // is dropped "if exists".
    try {
      server.close();
    } finally {
      if (database != null) {
        TestDatabase.drop(database);
      }
    }
  }
}
