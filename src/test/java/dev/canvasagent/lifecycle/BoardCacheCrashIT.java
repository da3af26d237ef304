package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The patch engine holds the board in memory, but the store decides: the packaged jar on PostgreSQL,
 * killed with SIGKILL while a person's changes stream in (so the kill lands between a commit and the
 * held board's update, or between the commit and its answer, for whichever change was in flight),
 * then started again on the same schema. Every change the client was told was committed is on the
 * board, once; the one change in flight is there at most once; the board is exactly its stored
 * revisions; and the restarted process takes the next change on that revision.
 */
@ExtendWith(VertxExtension.class)
class BoardCacheCrashIT {
  static final String ROOM = "crash-cache";

  /** Acknowledged changes before the kill: enough that the board is held and busy. */
  static final int ACKED_BEFORE_KILL = 40;

  DatabaseConfig database;

  @BeforeEach
  void createSchema() {
    database = TestDatabase.freshSchema();
  }

  @AfterEach
  void dropSchema() {
    TestDatabase.drop(database);
  }

  Map<String, String> environment() {
    Map<String, String> env = TestDatabase.processEnvironment(database);
    return env;
  }

  static JsonObject shape(int n) {
    return ShapeRecords.shape(
        "shape:change-" + n,
        "geo",
        (n % 20) * 60,
        (n / 20) * 60,
        "a1",
        ShapeRecords.geoProps("rectangle", 40, 40, ""));
  }

  /**
   * Sends changes one after another, each on the revision the previous answer gave, until one is not
   * answered (the process died); {@code acked} holds the ids the server said it committed.
   */
  static Future<Void> stream(
      WebClient http, int n, long revision, Set<String> acked, Promise<Void> enough) {
    return http.post("/api/rooms/" + ROOM + "/changes")
        .sendJsonObject(RecordDiff.putting(shape(n)).toJson().put("baseRevision", revision))
        .compose(
            response -> {
              assertEquals(200, response.statusCode(), response.bodyAsString());
              acked.add("shape:change-" + n);
              if (acked.size() >= ACKED_BEFORE_KILL) {
                enough.tryComplete();
              }
              return stream(
                  http, n + 1, response.bodyAsJsonObject().getLong("revision"), acked, enough);
            });
  }

  @Test
  void aKillBetweenCommitAndHeldBoardLosesNothingAndDoublesNothing(Vertx vertx) throws Exception {
    Set<String> acked = new ConcurrentSkipListSet<>();
    try (ServerProcess first = ServerProcess.java(CrashDurabilityIT.JAR, environment())) {
      WebClient http = CrashDurabilityIT.http(vertx, first.awaitStartedPort());
      Promise<Void> enough = Promise.promise();
      Future<Void> streaming = stream(http, 0, 0, acked, enough);
      Await.result(enough.future());
      first.close(); // SIGKILL, with the next change on its way
      first.awaitExit();
      assertTrue(Await.failure(streaming) != null, "the stream ends when the process dies");
      http.close();
    }
    Set<String> ackedAtKill = new TreeSet<>(acked);

    try (ServerProcess second = ServerProcess.java(CrashDurabilityIT.JAR, environment())) {
      WebClient http = CrashDurabilityIT.http(vertx, second.awaitStartedPort());
      JsonObject served =
          Await.result(http.get("/api/rooms/" + ROOM + "/board").send()).bodyAsJsonObject();
      Board board = Board.fromJson(served);
      Set<String> onBoard = new TreeSet<>(board.records().keySet());

      assertTrue(onBoard.containsAll(ackedAtKill), "every acknowledged change is there");
      Set<String> unacknowledged = new TreeSet<>(onBoard);
      unacknowledged.removeAll(ackedAtKill);
      assertTrue(
          unacknowledged.size() <= 1,
          "only the change in flight may be there unacknowledged: " + unacknowledged);
      assertEquals(onBoard.size(), board.revision(), "one revision per change, none twice");

      JsonArray revisions =
          Await.result(http.get("/api/rooms/" + ROOM + "/revisions?after=0&limit=500").send())
              .bodyAsJsonObject()
              .getJsonArray("revisions");
      Board replayed = Board.empty(ROOM);
      for (Object stored : revisions) {
        JsonObject revision = (JsonObject) stored;
        replayed =
            replayed.apply(
                RecordDiff.fromJson(revision.getJsonObject("diff")), revision.getLong("rev"));
      }
      assertEquals(board.revision(), replayed.revision());
      assertEquals(replayed.records(), board.records(), "the board is its stored revisions");

      var next =
          Await.result(
              http.post("/api/rooms/" + ROOM + "/changes")
                  .sendJsonObject(
                      RecordDiff.putting(shape(1000))
                          .toJson()
                          .put("baseRevision", board.revision())));
      assertEquals(200, next.statusCode(), next.bodyAsString());
      assertEquals(board.revision() + 1, next.bodyAsJsonObject().getLong("revision"));
      http.close();
    }
  }
}
