package dev.canvasagent.config;

import static dev.canvasagent.config.Check.matching;
import static dev.canvasagent.config.Check.text;
import static dev.canvasagent.config.Check.textOrEmpty;
import static dev.canvasagent.config.Check.whole;

import io.vertx.pgclient.PgConnectOptions;
import java.util.List;
import java.util.Optional;

/** {@code database}: the PostgreSQL store, by URL or by the libpq variables; neither set, the memory store. */
final class DatabaseSettings {
  /** The URL holds the password. */
  static final Setting URL =
      Setting.secret(
          "database.url",
          "DATABASE_URL",
          textOrEmpty(),
          "",
          "`postgresql://user:password@host:port/db`; set (or `PGHOST`) → PostgreSQL store.");

  static final Setting HOST =
      Setting.of(
          "database.host",
          "PGHOST",
          textOrEmpty(),
          "",
          "PostgreSQL host; set (or `DATABASE_URL`) → PostgreSQL store.");
  static final Setting PORT =
      Setting.of("database.port", "PGPORT", whole(1, 65_535), 5432, "PostgreSQL port (1–65535).");
  static final Setting NAME =
      Setting.of("database.name", "PGDATABASE", text(), "postgres", "Database name.");
  static final Setting USER =
      Setting.of("database.user", "PGUSER", text(), "postgres", "Database user.");
  static final Setting PASSWORD =
      Setting.secret(
          "database.password",
          "PGPASSWORD",
          textOrEmpty(),
          "",
          "Database password. Secret: never logged or shown in errors.");
  static final Setting SCHEMA =
      Setting.of(
          "database.schema",
          "CANVAS_AGENT_DB_SCHEMA",
          matching("[a-z_][a-z0-9_]{0,62}", "canvas_agent", "must be a lower-case SQL identifier"),
          "public",
          "Schema for the tables (created and migrated at startup).");
  static final Setting POOL_SIZE =
      Setting.of(
          "database.poolSize",
          "CANVAS_AGENT_DB_POOL_SIZE",
          whole(1, 100),
          8,
          "Connections in the shared pool.");
  static final Setting MAX_WAIT_QUEUE_SIZE =
      Setting.of(
          "database.maxWaitQueueSize",
          "CANVAS_AGENT_DB_MAX_WAIT_QUEUE",
          whole(1, 10_000),
          64,
          "Requests that may wait for a connection; more fail at once.");

  static final List<Setting> ALL =
      List.of(URL, HOST, PORT, NAME, USER, PASSWORD, SCHEMA, POOL_SIZE, MAX_WAIT_QUEUE_SIZE);

  private DatabaseSettings() {}

  static Optional<DatabaseConfig> read(ConfigValues values) {
    String url = values.text(URL);
    String host = values.text(HOST);
    // Every value is checked, whether or not a database is configured to use it.
    int port = values.whole(PORT);
    String name = values.text(NAME);
    String user = values.text(USER);
    String password = values.text(PASSWORD);
    String schema = values.text(SCHEMA);
    int poolSize = values.whole(POOL_SIZE);
    int waitQueue = values.whole(MAX_WAIT_QUEUE_SIZE);
    if (url.isEmpty() && host.isEmpty()) {
      return Optional.empty();
    }
    if (!url.isEmpty()) {
      PgConnectOptions parsed = parseUrl(values, url);
      return Optional.of(
          new DatabaseConfig(
              parsed.getHost(),
              parsed.getPort(),
              parsed.getDatabase(),
              parsed.getUser(),
              parsed.getPassword() == null ? "" : parsed.getPassword(),
              schema,
              poolSize,
              waitQueue));
    }
    return Optional.of(
        new DatabaseConfig(host, port, name, user, password, schema, poolSize, waitQueue));
  }

  private static PgConnectOptions parseUrl(ConfigValues values, String url) {
    if (!url.startsWith("postgres://") && !url.startsWith("postgresql://")) {
      throw values.bad(URL, "must start with postgresql:// or postgres://");
    }
    try {
      return PgConnectOptions.fromUri(url);
    } catch (RuntimeException e) {
      // Not e.getMessage(): it quotes the whole URI, password included.
      throw values.bad(URL, "is not a PostgreSQL connection URI");
    }
  }
}
