package dev.canvasagent.security;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The HTTP fuzz pass of {@link FuzzTest} against the PostgreSQL store, a quarter of the cases: here
 * the state compared around each refusal also holds a hash of every row of every table in the
 * server's schema, so a refused request that wrote anything at all is caught.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgFuzzTest {
  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  Connection connection;
  String tablesQuery;

  @BeforeAll
  void start() throws SQLException {
    database = TestDatabase.freshSchema();
    vertx = Vertx.vertx();
    server =
        TestServer.start(
            vertx,
            TestServer.config(FuzzTest.ENVIRONMENT).withDatabase(java.util.Optional.of(database)));
    connection =
        DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
    tablesQuery = tablesQuery();
  }

  @AfterAll
  void stop() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (server != null) {
      Await.result(server.stop());
    }
    Await.result(vertx.close());
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  @Test
  void everyJsonEndpointAnswersBelow500AndARefusalWritesNoRow() {
    int cases = Math.max(1, FuzzTest.casesPerTarget() / 4);
    FuzzTest.httpPass(
            vertx, server, "fuzz-pg", new Random(FuzzTest.seed() + 3), cases, this::tables)
        .assertNone();
  }

  /** One query: per table of the schema, a hash of all its rows. */
  private String tablesQuery() throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                    + database.schema()
                    + "' AND table_type = 'BASE TABLE' ORDER BY table_name")) {
      while (rows.next()) {
        tables.add(rows.getString(1));
      }
    }
    return String.join(
        " UNION ALL ",
        tables.stream()
            .map(
                table ->
                    "SELECT '"
                        + table
                        + "', md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))"
                        + " FROM "
                        + database.schema()
                        + "."
                        + table
                        + " t"
                        + wholeAllowancesLeftOut(table))
            .toList());
  }

  /**
   * The run limits' table holds a key per allowance not yet whole again, plus whole ones the sweep
   * has not reached: a whole allowance is the same as none, whether its row is there or gone (a run
   * taken and given back leaves none), so only the spent ones are compared.
   */
  static String wholeAllowancesLeftOut(String table) {
    return table.equals("canvas_rate_limits")
        ? " WHERE t.full_again_at > (extract(epoch FROM clock_timestamp()) * 1e9)::bigint"
        : "";
  }

  /** The tables' hashes, read on the test thread. */
  private Map<String, String> tables() {
    Map<String, String> hashes = new TreeMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(tablesQuery)) {
      while (rows.next()) {
        hashes.put("table " + rows.getString(1), rows.getString(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return hashes;
  }
}
