package dev.canvasagent.support;

import dev.canvasagent.config.DatabaseConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The real PostgreSQL the suite runs against: 127.0.0.1:5432, database {@code test}, user
 * {@code postgres} unless {@code CANVAS_AGENT_TEST_PG*} says otherwise. Each user gets a schema of
 * its own, dropped afterwards. Without a database a test is skipped locally, but never under
 * {@code CI=true}: there it fails.
 */
public final class TestDatabase {
  private TestDatabase() {}

  public static DatabaseConfig freshSchema() {
    String host = env("CANVAS_AGENT_TEST_PGHOST", "127.0.0.1");
    int port = Integer.parseInt(env("CANVAS_AGENT_TEST_PGPORT", "5432"));
    String database = env("CANVAS_AGENT_TEST_PGDATABASE", "test");
    String user = env("CANVAS_AGENT_TEST_PGUSER", "postgres");
    String password = env("CANVAS_AGENT_TEST_PGPASSWORD", "");
    String schema =
        "t_"
            + UUID.randomUUID()
                .toString()
                .replace("-", "")
                .substring(0, 16)
                .toLowerCase(Locale.ROOT);
    DatabaseConfig config = new DatabaseConfig(host, port, database, user, password, schema, 4, 64);
    requireReachable(config);
    return config;
  }

  /**
   * The environment a server process needs to use {@code config}'s schema, on a port of its own
   * choosing ({@code PORT=0}); a map the caller may add to.
   */
  public static java.util.Map<String, String> processEnvironment(DatabaseConfig config) {
    java.util.Map<String, String> env = new java.util.HashMap<>();
    env.put("PORT", "0");
    env.put("PGHOST", config.host());
    env.put("PGPORT", String.valueOf(config.port()));
    env.put("PGDATABASE", config.database());
    env.put("PGUSER", config.user());
    env.put("PGPASSWORD", config.password());
    env.put("CANVAS_AGENT_DB_SCHEMA", config.schema());
    return env;
  }

  public static void drop(DatabaseConfig config) {
    execute(config, "DROP SCHEMA IF EXISTS " + config.schema() + " CASCADE");
  }

  /** Runs one statement over JDBC, on the test thread. */
  public static void execute(DatabaseConfig config, String sql) {
    try (Connection connection =
            DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The single long value of a query, over JDBC, on the test thread. */
  public static long queryLong(DatabaseConfig config, String sql) {
    try (Connection connection =
            DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
        Statement statement = connection.createStatement();
        var rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The first column of every row of a query, as text, over JDBC, on the test thread. */
  public static java.util.List<String> queryStrings(DatabaseConfig config, String sql) {
    try (Connection connection =
            DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
        Statement statement = connection.createStatement();
        var rows = statement.executeQuery(sql)) {
      java.util.List<String> values = new java.util.ArrayList<>();
      while (rows.next()) {
        values.add(rows.getString(1));
      }
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void requireReachable(DatabaseConfig config) {
    DriverManager.setLoginTimeout(5);
    try (Connection connection =
        DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password())) {
      connection.isValid(5);
    } catch (SQLException unreachable) {
      boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
      String why = "PostgreSQL is not reachable at " + config + ": " + unreachable.getMessage();
      if (ci) {
        throw new IllegalStateException(why + " (CI=true: database tests may not be skipped)");
      }
      Assumptions.abort(why);
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
