package dev.canvasagent.store.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.StoreContract;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Vertx;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store contract against a real PostgreSQL, in a schema of this class's own; plus the migration itself. */
class PgStoreTest extends StoreContract {
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

  @Test
  void itIsThePostgresKind() {
    assertEquals("postgres", store.kind());
  }

  @Test
  void theMigrationCreatesTheTodosTableExactlyAsTheSeedDefinesIt() {
    List<Map<String, String>> columns =
        rows(
            "SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns"
                + " WHERE table_schema = ? AND table_name = 'canvas_agent_todos' ORDER BY ordinal_position");

    assertEquals(
        List.of(
            column("id", "uuid", "NO", "gen_random_uuid()"),
            column("session_id", "text", "NO", null),
            column("text", "text", "NO", null),
            column("status", "text", "NO", "'open'::text"),
            column("position", "integer", "NO", "0"),
            column("created_at", "timestamp with time zone", "NO", "now()"),
            column("resolved_at", "timestamp with time zone", "YES", null)),
        columns);

    List<Map<String, String>> primaryKey =
        rows(
            "SELECT k.column_name FROM information_schema.table_constraints c"
                + " JOIN information_schema.key_column_usage k"
                + " ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name"
                + " WHERE c.table_schema = ? AND c.table_name = 'canvas_agent_todos' AND c.constraint_type = 'PRIMARY KEY'");
    assertEquals(List.of(Map.of("column_name", "id")), primaryKey);

    List<Map<String, String>> checks =
        rows(
            "SELECT pg_get_constraintdef(con.oid) AS definition FROM pg_constraint con"
                + " JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace"
                + " WHERE ns.nspname = ? AND rel.relname = 'canvas_agent_todos' AND con.contype = 'c'");
    assertEquals(1, checks.size(), "one check constraint: " + checks);
    String check = checks.get(0).get("definition");
    for (String status : List.of("'open'", "'done'", "'skipped'")) {
      assertTrue(check.contains(status), check);
    }
  }

  @Test
  void theTodosTableFillsItsDefaultsAndRefusesAnUnknownStatus() {
    String table = database.schema() + ".canvas_agent_todos";
    TestDatabase.execute(
        database,
        "INSERT INTO " + table + " (session_id, text) VALUES ('todo-session', 'write tests')");

    Map<String, String> todo =
        rows(
                "SELECT id IS NOT NULL AS has_id, status, position, created_at IS NOT NULL AS has_created_at,"
                    + " resolved_at IS NULL AS unresolved FROM "
                    + table
                    + " WHERE session_id = ?",
                "todo-session")
            .get(0);
    assertEquals(
        Map.of(
            "has_id",
            "t",
            "status",
            "open",
            "position",
            "0",
            "has_created_at",
            "t",
            "unresolved",
            "t"),
        todo);

    assertThrows(
        IllegalStateException.class,
        () ->
            TestDatabase.execute(
                database,
                "INSERT INTO "
                    + table
                    + " (session_id, text, status) VALUES ('todo-session', 'nope', 'someday')"));
  }

  @Test
  void theMigrationIndexesTodosBySessionStatusAndPosition() {
    List<Map<String, String>> indexes =
        rows(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = ? AND tablename = 'canvas_agent_todos'"
                + " AND indexname = 'canvas_agent_todos_session_idx'");

    assertEquals(1, indexes.size());
    String definition = indexes.get(0).get("indexdef").replace("\"", "");
    assertFalse(definition.contains("UNIQUE"), definition);
    assertTrue(definition.endsWith("(session_id, status, position)"), definition);
  }

  @Test
  void openingTheStoreAgainOnTheSameSchemaAppliesNoMigrationAndWorks(Vertx vertx) {
    Await.result(
        store.boards().commit(roomId, 0, RecordDiff.putting(shape("shape:kept", "kept")), "agent"));
    long migrationsBefore =
        TestDatabase.queryLong(
            database, "SELECT count(*) FROM " + database.schema() + ".flyway_schema_history");

    Store reopened = Await.result(PgStore.open(vertx, database));
    try {
      assertEquals(
          migrationsBefore,
          TestDatabase.queryLong(
              database, "SELECT count(*) FROM " + database.schema() + ".flyway_schema_history"),
          "no migration applied again");
      assertEquals(
          0,
          TestDatabase.queryLong(
              database,
              "SELECT count(*) FROM "
                  + database.schema()
                  + ".flyway_schema_history WHERE NOT success"));
      Await.result(reopened.ping());
      assertEquals(
          1, Await.result(reopened.boards().load(roomId)).revision(), "the data is still there");
      assertEquals(
          2L,
          Await.result(
              reopened
                  .boards()
                  .commit(roomId, 1, RecordDiff.putting(shape("shape:more", "more")), "agent")));
    } finally {
      Await.result(reopened.close());
    }
  }

  private static Map<String, String> column(
      String name, String type, String nullable, String defaultValue) {
    Map<String, String> column = new LinkedHashMap<>();
    column.put("column_name", name);
    column.put("data_type", type);
    column.put("is_nullable", nullable);
    column.put("column_default", defaultValue);
    return column;
  }

  /** The rows of a query in this class's schema (its only parameter unless others are given), values as text. */
  private static List<Map<String, String>> rows(String sql, String... parameters) {
    try (Connection connection =
            DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
        PreparedStatement statement = connection.prepareStatement(sql)) {
      String[] values = parameters.length == 0 ? new String[] {database.schema()} : parameters;
      for (int i = 0; i < values.length; i++) {
        statement.setString(i + 1, values[i]);
      }
      try (ResultSet results = statement.executeQuery()) {
        List<Map<String, String>> rows = new ArrayList<>();
        int columns = results.getMetaData().getColumnCount();
        while (results.next()) {
          Map<String, String> row = new LinkedHashMap<>();
          for (int i = 1; i <= columns; i++) {
            row.put(results.getMetaData().getColumnLabel(i), results.getString(i));
          }
          rows.add(row);
        }
        return rows;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
