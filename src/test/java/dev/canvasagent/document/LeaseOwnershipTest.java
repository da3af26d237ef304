package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Finding L4: a document lease belongs to the subject that checked it out. With auth on, over HTTP,
 * against the memory store and PostgreSQL: readers see who holds a lease but never its id, another
 * editor cannot write (or renew, or release) under it, the holder is named by the server, and a
 * revision records the token's subject.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeaseOwnershipTest {
  static final String ROOM = "lease-owners";
  static final String TEXT = "# Plan\n\nfirst\nsecond\n";

  /** One server per store, each on a Vert.x of its own: two servers on one event bus would share consumers. */
  final Map<String, TestServer> servers = new LinkedHashMap<>();

  final Map<String, Vertx> vertxes = new LinkedHashMap<>();
  DatabaseConfig database;
  TestTokens tokens;
  String alice;
  String bob;
  String viewer;

  @BeforeAll
  void start() {
    database = TestDatabase.freshSchema();
    for (String store : List.of("memory", "postgresql")) {
      Vertx vertx = Vertx.vertx();
      vertxes.put(store, vertx);
      servers.put(
          store,
          TestServer.start(
              vertx,
              TestServer.config(TestTokens.ENVIRONMENT)
                  .withDatabase(
                      store.equals("memory") ? Optional.empty() : Optional.of(database))));
    }
    tokens = new TestTokens(vertxes.get("memory"));
    alice = tokens.token("alice", Role.EDITOR, ROOM);
    bob = tokens.token("bob", Role.EDITOR, ROOM);
    viewer = tokens.token("victor", Role.VIEWER, ROOM);
  }

  @AfterAll
  void stop() {
    servers.values().forEach(server -> Await.result(server.stop()));
    vertxes.values().forEach(vertx -> Await.result(vertx.close()));
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  static Stream<String> stores() {
    return Stream.of("memory", "postgresql");
  }

  HttpResponse<Buffer> send(
      String store, HttpMethod method, String path, String token, JsonObject body) {
    HttpRequest<Buffer> request =
        servers
            .get(store)
            .http()
            .request(method, path)
            .putHeader("authorization", TestTokens.bearer(token));
    return Await.result(body == null ? request.send() : request.sendJsonObject(body));
  }

  JsonObject ok(HttpResponse<Buffer> response) {
    assertTrue(response.statusCode() < 300, response.statusCode() + " " + response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  static void refused(HttpResponse<Buffer> response, int status, String code) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    assertEquals(
        code,
        response.bodyAsJsonObject().getJsonObject("error").getString("code"),
        response.bodyAsString());
  }

  String create(String store) {
    return ok(send(
            store,
            HttpMethod.POST,
            "/api/docs",
            alice,
            new JsonObject().put("roomId", ROOM).put("content", TEXT)))
        .getString("id");
  }

  HttpResponse<Buffer> tool(
      String store, String token, String docId, String tool, JsonObject args) {
    return send(store, HttpMethod.POST, "/api/docs/" + docId + "/tools/" + tool, token, args);
  }

  JsonObject checkOut(String store, String token, String docId) {
    return ok(tool(store, token, docId, "canvas_check_out", new JsonObject()));
  }

  static JsonObject leased(JsonObject lease) {
    return new JsonObject()
        .put("lease_id", lease.getString("lease_id"))
        .put("canvas_epoch", lease.getLong("canvas_epoch"));
  }

  JsonObject document(String store, String token, String docId) {
    return ok(send(store, HttpMethod.GET, "/api/docs/" + docId, token, null));
  }

  JsonObject revisions(String store, String docId) {
    return ok(send(store, HttpMethod.GET, "/api/docs/" + docId + "/revisions", viewer, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void aReaderSeesWhoHoldsTheLeaseButNeverItsId(String store) {
    String docId = create(store);
    SseClient room =
        Await.result(
            SseClient.connect(
                vertxes.get(store),
                servers.get(store).port(),
                "/api/rooms/" + ROOM + "/events",
                Map.of("authorization", TestTokens.bearer(viewer))));
    JsonObject lease = checkOut(store, alice, docId);
    String leaseId = lease.getString("lease_id");
    assertTrue(
        leaseId != null && !leaseId.isEmpty(),
        "the holder's own check-out answers the id: " + lease.encode());

    HttpResponse<Buffer> read = send(store, HttpMethod.GET, "/api/docs/" + docId, viewer, null);
    JsonObject shown = ok(read).getJsonObject("lease");
    assertFalse(
        read.bodyAsString().contains(leaseId),
        "a viewer's GET shows no lease id: " + read.bodyAsString());
    assertTrue(shown.getBoolean("held"));
    assertEquals("alice", shown.getString("holder"), "who holds it");
    assertTrue(shown.getLong("expires_at") > 0, "until when");
    assertTrue(shown.getLong("held_since") > 0, "since when");
    assertEquals(lease.getLong("canvas_epoch"), shown.getLong("canvas_epoch"));
    assertFalse(
        send(store, HttpMethod.GET, "/api/docs/" + docId, bob, null)
            .bodyAsString()
            .contains(leaseId),
        "nor another editor's");

    List<SseClient.SseEvent> events =
        Await.result(
            room.awaitEvent(
                event ->
                    "doc:lease".equals(event.event())
                        && docId.equals(event.data().getString("docId"))
                        && "held".equals(event.data().getString("state"))));
    SseClient.SseEvent held = events.get(events.size() - 1);
    assertFalse(
        held.data().encode().contains(leaseId),
        "doc:lease shows no lease id: " + held.data().encode());
    assertEquals("alice", held.data().getString("holder"));
    Await.result(room.close());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void anotherEditorCannotWriteRenewOrReleaseUnderTheLeaseAndNothingChanges(String store) {
    String docId = create(store);
    JsonObject lease = checkOut(store, alice, docId);
    JsonObject before = document(store, alice, docId);
    int revisions = revisions(store, docId).getJsonArray("revisions").size();

    refused(
        tool(
            store,
            bob,
            docId,
            "canvas_replace_lines",
            leased(lease)
                .put("start_line", 3)
                .put("end_line", 3)
                .put("new_content", "bob was here")),
        409,
        "LOCK_NOT_OWNED");
    refused(tool(store, bob, docId, "canvas_undo", leased(lease)), 409, "LOCK_NOT_OWNED");
    refused(tool(store, bob, docId, "canvas_renew_lease", leased(lease)), 409, "LOCK_NOT_OWNED");
    refused(tool(store, bob, docId, "canvas_check_in", leased(lease)), 409, "LOCK_NOT_OWNED");

    JsonObject after = document(store, alice, docId);
    assertEquals(before.getString("content"), after.getString("content"));
    assertEquals(before.getString("revisionId"), after.getString("revisionId"));
    assertEquals(
        before.getJsonObject("lease"),
        after.getJsonObject("lease"),
        "still alice's, neither renewed nor released");
    assertEquals(revisions, revisions(store, docId).getJsonArray("revisions").size());

    ok(
        tool(
            store,
            alice,
            docId,
            "canvas_replace_lines",
            leased(lease).put("start_line", 3).put("end_line", 3).put("new_content", "alice")));
    assertEquals(
        TEXT.replace("first", "alice"),
        document(store, bob, docId).getString("content"),
        "the holder still may");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void theServerNamesTheHolderAndAClaimedOneIsRefused(String store) {
    String docId = create(store);
    HttpResponse<Buffer> claimed =
        tool(
            store,
            bob,
            docId,
            "canvas_check_out",
            new JsonObject().put("holder", "document agent " + docId));
    refused(claimed, 400, "INVALID_REQUEST");
    JsonObject free = document(store, viewer, docId);
    assertFalse(
        free.getJsonObject("lease").getBoolean("held"), "a refused check-out takes nothing");
    assertFalse(free.encode().contains("document agent"), free.encode());

    JsonObject lease = checkOut(store, bob, docId);
    assertEquals("bob", lease.getString("holder"), "the check-out answers whom the server named");
    assertEquals("bob", document(store, viewer, docId).getJsonObject("lease").getString("holder"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void aRevisionWrittenByAToolCallRecordsTheTokensSubject(String store) {
    String docId = create(store);
    JsonObject lease = checkOut(store, alice, docId);
    ok(
        tool(
            store,
            alice,
            docId,
            "canvas_replace_lines",
            leased(lease).put("start_line", 4).put("end_line", 4).put("new_content", "2nd")));
    JsonObject history = revisions(store, docId);
    JsonObject newest = history.getJsonArray("revisions").getJsonObject(0);
    assertEquals("alice", newest.getString("author"), history.encodePrettily());
    assertEquals("alice", newest.getString("subject"), history.encodePrettily());
    assertEquals(
        "alice",
        history.getJsonArray("diffs").getJsonObject(0).getString("author"),
        history.encodePrettily());
  }
}
