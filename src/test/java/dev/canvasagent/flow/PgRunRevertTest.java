package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PgRunRevertTest extends RunRevertContract {
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
  Optional<DatabaseConfig> database() {
    return Optional.of(database);
  }

  @Test
  void eachRevisionOfTheRunRecordsItsRunAndNoOtherDoes() {
    assertEquals(200, personChange(putting(box("shape:p", 0))).statusCode());
    SseClient sse = server.events(roomId);
    String runId = runToEnd(sse, List.of(create("a", 0), create("b", 200)));
    Await.result(sse.close());
    String revisions =
        database.schema() + ".canvas_board_revisions WHERE room_id = '" + roomId + "'";
    assertEquals(
        2,
        TestDatabase.queryLong(
            database, "SELECT count(*) FROM " + revisions + " AND run_id = '" + runId + "'"));
    assertEquals(
        1,
        TestDatabase.queryLong(
            database, "SELECT count(*) FROM " + revisions + " AND run_id IS NULL"));
    assertEquals(200, revert(runId).statusCode());
    assertEquals(
        2,
        TestDatabase.queryLong(
            database, "SELECT count(*) FROM " + revisions + " AND run_id IS NULL"));
  }
}
