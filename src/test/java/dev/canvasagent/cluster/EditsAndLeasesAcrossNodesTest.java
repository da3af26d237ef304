package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.BoardStore.BoardRevision;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.pg.PgStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.InJvmCluster;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two clustered nodes on one PostgreSQL schema: a person's board edits posted on both at once stay
 * one linear history, and a document lease taken on one node is fenced by a preemption from the other.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EditsAndLeasesAcrossNodesTest {
  static final int ROUNDS = 8;
  static final int PER_NODE = 3;

  DatabaseConfig database;
  InJvmCluster cluster;
  Vertx reader;
  Store truth;

  @BeforeAll
  void start() {
    database = TestDatabase.freshSchema();
    cluster =
        InJvmCluster.start(2, TestServer.config(Map.of()).withDatabase(Optional.of(database)));
    reader = Vertx.vertx();
    truth = Await.result(PgStore.open(reader, database));
  }

  @AfterAll
  void stop() {
    if (truth != null) {
      Await.result(truth.close());
    }
    if (reader != null) {
      Await.result(reader.close());
    }
    if (cluster != null) {
      cluster.close();
    }
    TestDatabase.drop(database);
  }

  @Test
  void personEditsPostedOnBothNodesAtOnceStayLinear() {
    String room = "linear-edits";
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    Set<String> accepted = new TreeSet<>();
    Set<Long> acceptedRevisions = new TreeSet<>();
    int refused = 0;
    for (int round = 0; round < ROUNDS; round++) {
      long base = a.board(room).getLong("revision");
      List<Future<HttpResponse<Buffer>>> sent = new ArrayList<>();
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < PER_NODE; i++) {
        for (TestServer node : List.of(a, b)) {
          String id = "shape:r" + round + "-" + (node == a ? "a" : "b") + i;
          ids.add(id);
          sent.add(change(node, room, id, round, base));
        }
      }
      int acceptedThisRound = 0;
      for (int i = 0; i < sent.size(); i++) {
        HttpResponse<Buffer> answer = Await.result(sent.get(i));
        JsonObject body = answer.bodyAsJsonObject();
        if (answer.statusCode() == 200) {
          acceptedThisRound++;
          accepted.add(ids.get(i));
          assertTrue(body.getBoolean("changed"), body.encode());
          assertTrue(
              acceptedRevisions.add(body.getLong("revision")),
              "no revision is answered twice: " + body.encode());
        } else {
          refused++;
          assertEquals(409, answer.statusCode(), answer.bodyAsString());
          assertEquals(
              "REVISION_CONFLICT", body.getJsonObject("error").getString("code"), body.encode());
          assertTrue(body.getLong("revision") > base, "the conflict names where the room is now");
        }
      }
      assertEquals(
          1, acceptedThisRound, "all on one base revision: exactly one is committed per round");
    }
    assertEquals(ROUNDS * (2 * PER_NODE - 1), refused);

    Board stored = Await.result(truth.boards().load(room));
    assertEquals(ROUNDS, stored.revision());
    List<BoardRevision> history = Await.result(truth.boards().revisions(room, 0, 10_000));
    List<Long> numbers = history.stream().map(BoardRevision::revision).toList();
    List<Long> linear = new ArrayList<>();
    for (long n = 1; n <= ROUNDS; n++) {
      linear.add(n);
    }
    assertEquals(linear, numbers, "revisions 1..n, each once");
    assertEquals(new TreeSet<>(linear), acceptedRevisions, "each accepted change is one revision");
    assertEquals(accepted, new TreeSet<>(stored.records().keySet()), "every accepted change once");
    for (TestServer node : List.of(a, b)) {
      JsonObject served = node.board(room);
      assertEquals(stored.revision(), served.getLong("revision"));
      assertEquals(stored.records(), Board.fromJson(served).records());
      Board held = node.boards().held(room).orElse(null);
      if (held != null) {
        assertEquals(stored.revision(), held.revision(), "the held board is the store's");
        assertEquals(stored.records(), held.records());
      }
    }
  }

  @Test
  void aLeaseTakenOnOneNodeIsFencedByAPreemptionFromTheOther() {
    TestServer a = cluster.node(0);
    TestServer b = cluster.node(1);
    String text = "# Notes\n\none\ntwo\n";
    HttpResponse<Buffer> created =
        post(a, "/api/docs", new JsonObject().put("content", text).put("title", "Notes"));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String docId = created.bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> checkedOut =
        post(a, "/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject());
    assertEquals(200, checkedOut.statusCode(), checkedOut.bodyAsString());
    JsonObject lease = checkedOut.bodyAsJsonObject();
    JsonObject leased =
        new JsonObject()
            .put("lease_id", lease.getString("lease_id"))
            .put("canvas_epoch", lease.getLong("canvas_epoch"));

    HttpResponse<Buffer> heldOnB =
        post(b, "/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject());
    assertEquals(409, heldOnB.statusCode(), heldOnB.bodyAsString());
    assertEquals("LOCK_NOT_AVAILABLE", code(heldOnB));

    HttpResponse<Buffer> preempted =
        post(b, "/api/docs/" + docId + "/lease/preempt", new JsonObject());
    assertEquals(200, preempted.statusCode(), preempted.bodyAsString());

    HttpResponse<Buffer> staleWrite =
        post(
            a,
            "/api/docs/" + docId + "/tools/canvas_delete_lines",
            leased.copy().put("start_line", 3).put("end_line", 3));
    assertEquals(409, staleWrite.statusCode(), staleWrite.bodyAsString());
    assertEquals("STALE_EPOCH", code(staleWrite));
    HttpResponse<Buffer> withoutEpoch =
        post(
            a,
            "/api/docs/" + docId + "/tools/canvas_delete_lines",
            new JsonObject()
                .put("lease_id", lease.getString("lease_id"))
                .put("start_line", 3)
                .put("end_line", 3));
    assertEquals("STALE_EPOCH", code(withoutEpoch), "fenced by its grant's epoch too");
    for (TestServer node : List.of(a, b)) {
      HttpResponse<Buffer> read = node.get("/api/docs/" + docId);
      assertEquals(text, read.bodyAsJsonObject().getString("content"), "nothing written");
    }
  }

  static String code(HttpResponse<Buffer> response) {
    return response.bodyAsJsonObject().getJsonObject("error").getString("code");
  }

  static HttpResponse<Buffer> post(TestServer node, String path, JsonObject body) {
    return Await.result(
        node.http().post(path).putHeader("content-type", "application/json").sendJsonObject(body));
  }

  static Future<HttpResponse<Buffer>> change(
      TestServer node, String room, String id, int round, long base) {
    JsonObject shape =
        ShapeRecords.shape(
            id, "geo", 60 * round, 0, "a1", ShapeRecords.geoProps("rectangle", 40, 40, ""));
    return node.http()
        .post("/api/rooms/" + room + "/changes")
        .sendJsonObject(RecordDiff.putting(shape).toJson().put("baseRevision", base));
  }
}
