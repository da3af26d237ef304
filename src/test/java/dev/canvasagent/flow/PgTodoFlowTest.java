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

class PgTodoFlowTest extends TodoFlowContract {
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
  void theTodosAreRowsOfCanvasAgentTodos() {
    SseClient sse = server.events(roomId);
    List<SseEvent> events =
        runToEnd(sse, new JsonObject().put("roomId", roomId).put("message", "/todos persist"));
    String sessionId = events.get(0).data().getString("sessionId");
    String table = database.schema() + ".canvas_agent_todos WHERE session_id = '" + sessionId + "'";
    assertEquals(2, TestDatabase.queryLong(database, "SELECT count(*) FROM " + table));
    assertEquals(
        1,
        TestDatabase.queryLong(
            database,
            "SELECT count(*) FROM " + table + " AND status = 'done' AND resolved_at IS NOT NULL"));
    Await.result(sse.close());
  }
}
