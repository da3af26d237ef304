package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PgRunFlowTest extends RunFlowContract {
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
  void theRunsBoardRevisionsAreInPostgres() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "persist me"));
    long envelopes = events.stream().filter(e -> e.event().equals("agent:action")).count();
    String schema = database.schema();
    assertEquals(
        envelopes,
        TestDatabase.queryLong(
            database,
            "SELECT count(*) FROM "
                + schema
                + ".canvas_board_revisions WHERE room_id = '"
                + roomId
                + "'"));
    assertEquals(
        envelopes,
        TestDatabase.queryLong(
            database,
            "SELECT board_rev FROM " + schema + ".canvas_rooms WHERE id = '" + roomId + "'"));
    assertEquals(
        envelopes,
        TestDatabase.queryLong(
            database,
            "SELECT count(*) FROM "
                + schema
                + ".canvas_board_records WHERE room_id = '"
                + roomId
                + "'"));
    String sessionId = events.get(0).data().getString("sessionId");
    assertEquals(
        envelopes,
        TestDatabase.queryLong(
            database,
            "SELECT last_seq FROM "
                + schema
                + ".canvas_agent_sessions WHERE id = '"
                + sessionId
                + "'"));
    Await.result(sse.close());
  }
}
