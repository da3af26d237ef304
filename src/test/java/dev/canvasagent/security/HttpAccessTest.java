package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code /api} route (the table {@link #ROUTES}) against every token that must not get in: none,
 * an expired one, a malformed or forged one, a viewer's where an editor is needed, another room's and
 * another document's. Each is answered 401 (with {@code WWW-Authenticate}), 403, or 404 for a session
 * or document named by id that the token does not reach (as for one that does not exist), and changes nothing:
 * the store's tables, what an admin reads back, and the bus (no command is sent, so no run starts) are
 * the same after as before. Then a viewer reads, and an editor of a room and an admin may use every
 * route. PostgreSQL, so the store itself can be compared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HttpAccessTest {
  static final String ROOM = "access-a";
  static final String OTHER_ROOM = "access-b";
  static final String TOOL = "canvas_check_out";
  static final String DOCUMENT_TEXT = "teh first line\nthe second line\n";

  /** A 1×1 PNG: what an upload sends and an asset route answers. */
  static final Buffer PNG =
      Buffer.buffer(
          Base64.getDecoder()
              .decode(
                  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="));

  /** What a route asks of a token in the room, session or document it touches. */
  enum Need {
    TOKEN,
    VIEWER,
    EDITOR,
    /** An admin's token, whatever the room: every other role is refused 403 before the id is looked at. */
    ADMIN
  }

  /** How a client opens it: a request, or a stream a browser keeps open. */
  enum Kind {
    PLAIN,
    EVENTS,
    WEBSOCKET,
    /** A file's bytes as the body, not JSON. */
    UPLOAD,
    /** Bytes an {@code <img>} fetches: the token may come as {@code ?access_token=}. */
    ASSET
  }

  /**
   * One route as the router declares it ({@code :roomId}, {@code :sessionId}, {@code :docId},
   * {@code :tool} filled in from a {@link Target}), what it needs, what it answers one who may, and
   * the body such a person sends.
   */
  record Route(
      String method,
      String path,
      String query,
      Need need,
      Kind kind,
      int allowed,
      Function<Target, JsonObject> body) {
    String name() {
      return method + " " + path;
    }

    /** The code of a session or document the route looks up by id and does not find; null for a route that names its room. */
    String lookedUp() {
      if (need == Need.ADMIN) {
        return null;
      }
      if (path.contains(":sessionId") || path.equals("/api/canvas-agent/cancel")) {
        return "SESSION_NOT_FOUND";
      }
      return path.contains(":docId") || path.equals("/api/canvas-agent/edit-request")
          ? "NOT_FOUND"
          : null;
    }

    String uri(Target target) {
      String uri =
          path.replace(":roomId", target.roomId)
              .replace(":sessionId", target.sessionId)
              .replace(":docId", target.docId)
              .replace(":runId", target.runId)
              .replace(":assetId", target.assetId)
              .replace(":tool", TOOL);
      return query == null ? uri : uri + "?" + query.replace(":roomId", target.roomId);
    }

    @Override
    public String toString() {
      return name();
    }
  }

  static Route route(String method, String path, Need need, int allowed) {
    return new Route(method, path, null, need, Kind.PLAIN, allowed, null);
  }

  static Route route(
      String method, String path, Need need, int allowed, Function<Target, JsonObject> body) {
    return new Route(method, path, null, need, Kind.PLAIN, allowed, body);
  }

  /**
   * Every {@code /api} route, one row each; {@link #theTableHasARowForEveryRouteTheServerDeclares}
   * fails on a route without one. In an order one person could use them in one room: the last rows
   * start work that goes on after the answer.
   */
  static final List<Route> ROUTES =
      List.of(
          route("GET", "/api/catalog", Need.TOKEN, 200),
          route("GET", "/api/docs/tools", Need.TOKEN, 200),
          route("GET", "/api/rooms/:roomId/board", Need.VIEWER, 200),
          route("GET", "/api/rooms/:roomId/revisions", Need.VIEWER, 200),
          route(
              "POST",
              "/api/rooms/:roomId/changes",
              Need.EDITOR,
              200,
              target ->
                  new JsonObject()
                      .put("baseRevision", target.boardRevision())
                      .put(
                          "put",
                          new JsonArray()
                              .add(
                                  TestShapes.geo(
                                      "person-" + UUID.randomUUID(), 500, 500, 40, 40)))),
          route(
              "POST",
              "/api/rooms/:roomId/transcript",
              Need.EDITOR,
              201,
              target -> new JsonObject().put("speaker", "ana").put("text", "make the box blue")),
          new Route("POST", "/api/rooms/:roomId/assets", null, Need.EDITOR, Kind.UPLOAD, 201, null),
          new Route(
              "GET",
              "/api/rooms/:roomId/assets/:assetId",
              null,
              Need.VIEWER,
              Kind.ASSET,
              200,
              null),
          new Route("GET", "/api/rooms/:roomId/events", null, Need.VIEWER, Kind.EVENTS, 200, null),
          new Route("GET", "/api/rooms/:roomId/ws", null, Need.VIEWER, Kind.WEBSOCKET, 101, null),
          route(
              "POST",
              "/api/sessions",
              Need.EDITOR,
              201,
              target -> new JsonObject().put("roomId", target.roomId).put("title", "another")),
          new Route("GET", "/api/sessions", "roomId=:roomId", Need.VIEWER, Kind.PLAIN, 200, null),
          route("GET", "/api/sessions/:sessionId", Need.VIEWER, 200),
          route("GET", "/api/sessions/:sessionId/todos", Need.VIEWER, 200),
          route("GET", "/api/admin/rooms/:roomId", Need.ADMIN, 200),
          route("GET", "/api/admin/sessions/:sessionId", Need.ADMIN, 200),
          route(
              "PATCH",
              "/api/sessions/:sessionId",
              Need.EDITOR,
              200,
              target -> new JsonObject().put("title", "renamed")),
          route(
              "POST",
              "/api/docs",
              Need.EDITOR,
              201,
              target -> new JsonObject().put("roomId", target.roomId).put("content", "notes\n")),
          route("GET", "/api/docs/:docId", Need.VIEWER, 200),
          route("GET", "/api/docs/:docId/revisions", Need.VIEWER, 200),
          route(
              "PUT",
              "/api/docs/:docId",
              Need.EDITOR,
              200,
              target ->
                  new JsonObject()
                      .put("content", DOCUMENT_TEXT + "a third line\n")
                      .put("baseRevisionId", target.documentRevision())),
          route(
              "POST", "/api/docs/:docId/tools/:tool", Need.EDITOR, 200, target -> new JsonObject()),
          route("POST", "/api/docs/:docId/lease/preempt", Need.EDITOR, 200),
          route(
              "POST",
              "/api/canvas-agent/runs/:runId/revert",
              Need.EDITOR,
              200,
              target -> new JsonObject().put("roomId", target.roomId)),
          route(
              "POST",
              "/api/canvas-agent/edit-request",
              Need.EDITOR,
              200,
              target ->
                  new JsonObject()
                      .put("canvas_session_id", target.docId)
                      .put("instruction", "/doc-fix teh => the")
                      .put("model", "debug/fake")),
          route(
              "POST",
              "/api/docs/:docId/agent",
              Need.EDITOR,
              202,
              target ->
                  new JsonObject()
                      .put("instruction", "/doc-fix second => 2nd")
                      .put("model", "debug/fake")),
          route(
              "POST",
              "/api/canvas-agent/run",
              Need.EDITOR,
              202,
              target ->
                  new JsonObject()
                      .put("roomId", target.roomId)
                      .put("message", "a box for the roadmap")),
          route(
              "POST",
              "/api/canvas-agent/cancel",
              Need.EDITOR,
              200,
              target -> new JsonObject().put("sessionId", target.sessionId)),
          route("DELETE", "/api/sessions/:sessionId", Need.EDITOR, 200));

  /** The bus addresses a refused request may still use: the look-ups that find a session's or a document's room. */
  static final Set<String> LOOKUPS =
      Set.of(
          Address.SCHEDULER_SESSION_ROOM.address(),
          Address.DOC_ROOM.address(),
          Address.DOC_AGENT_SESSION_DOCUMENT.address());

  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  TestTokens tokens;
  String admin;
  Target here;
  Target there;
  final Queue<String> sent = new ConcurrentLinkedQueue<>();
  volatile boolean recording;
  final Handler<DeliveryContext<Object>> interceptor =
      delivery -> {
        if (recording) {
          sent.add(delivery.message().address());
        }
        delivery.next();
      };

  /** A room with a session that has run, a document and a transcript line: what the routes touch. */
  final class Target {
    final String roomId;
    final String sessionId;
    final String runId;
    final String docId;
    final String assetId;

    Target(String roomId) {
      this.roomId = roomId;
      SseClient events =
          Await.result(
              SseClient.connect(
                  vertx,
                  server.port(),
                  "/api/rooms/" + roomId + "/events",
                  Map.of("authorization", TestTokens.bearer(admin))));
      HttpResponse<Buffer> run =
          send(
              HttpMethod.POST,
              "/api/canvas-agent/run",
              admin,
              new JsonObject().put("roomId", roomId).put("message", "a box for the roadmap"));
      assertEquals(202, run.statusCode(), run.bodyAsString());
      sessionId = run.bodyAsJsonObject().getString("sessionId");
      runId = run.bodyAsJsonObject().getString("runId");
      Await.result(
          events.awaitEvent(
              event ->
                  "agent:status".equals(event.event())
                      && sessionId.equals(event.data().getString("sessionId"))
                      && Set.of("done", "error", "canceled")
                          .contains(event.data().getString("state"))));
      Await.result(events.close());
      HttpResponse<Buffer> said =
          send(
              HttpMethod.POST,
              "/api/rooms/" + roomId + "/transcript",
              admin,
              new JsonObject().put("speaker", "bo").put("text", "start with the roadmap"));
      assertEquals(201, said.statusCode(), said.bodyAsString());
      HttpResponse<Buffer> created =
          send(
              HttpMethod.POST,
              "/api/docs",
              admin,
              new JsonObject().put("roomId", roomId).put("content", DOCUMENT_TEXT));
      assertEquals(201, created.statusCode(), created.bodyAsString());
      docId = created.bodyAsJsonObject().getString("id");
      HttpResponse<Buffer> uploaded =
          Await.result(
              server
                  .http()
                  .post("/api/rooms/" + roomId + "/assets")
                  .putHeader("authorization", TestTokens.bearer(admin))
                  .putHeader("content-type", "image/png")
                  .sendBuffer(PNG));
      assertEquals(201, uploaded.statusCode(), uploaded.bodyAsString());
      assetId = uploaded.bodyAsJsonObject().getString("assetId");
    }

    long boardRevision() {
      return read("/api/rooms/" + roomId + "/board").getLong("revision");
    }

    String documentRevision() {
      return read("/api/docs/" + docId).getString("revisionId");
    }

    /** Everything an admin can read about it. */
    JsonObject readBack() {
      JsonObject state = new JsonObject();
      for (String path :
          List.of(
              "/api/rooms/" + roomId + "/board",
              "/api/rooms/" + roomId + "/revisions",
              "/api/sessions?roomId=" + roomId,
              "/api/sessions/" + sessionId,
              "/api/sessions/" + sessionId + "/todos",
              "/api/docs/" + docId,
              "/api/docs/" + docId + "/revisions")) {
        state.put(path, read(path));
      }
      return state;
    }
  }

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    server =
        TestServer.start(
            vertx, TestServer.config(TestTokens.ENVIRONMENT).withDatabase(Optional.of(database)));
    tokens = new TestTokens(vertx);
    admin = tokens.admin();
    here = new Target(ROOM);
    there = new Target(OTHER_ROOM);
    vertx.eventBus().addOutboundInterceptor(interceptor);
  }

  @AfterAll
  void stop() {
    if (server != null) {
      vertx.eventBus().removeOutboundInterceptor(interceptor);
      Await.result(server.stop());
      Await.result(vertx.close());
    }
    if (database != null) {
      TestDatabase.drop(database);
    }
  }

  static Stream<Route> routes() {
    return ROUTES.stream();
  }

  /** How a request presents (or fails to present) a token: its headers and query. */
  record Credential(String name, List<Map.Entry<String, String>> headers, String query) {
    static Credential bearer(String name, String token) {
      return header(name, TestTokens.bearer(token));
    }

    static Credential header(String name, String authorization) {
      return new Credential(name, List.of(Map.entry("authorization", authorization)), null);
    }

    static Credential none() {
      return new Credential("no token", List.of(), null);
    }

    Map<String, String> headerMap() {
      return headers.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  record Refusal(Credential credential, int status, String code) {}

  /** Every way of not presenting one valid token, and the code it earns; all 401. */
  List<Refusal> unauthenticated(Route route) {
    String valid = tokens.editor(ROOM);
    long now = System.currentTimeMillis() / 1000;
    JsonObject claims =
        new JsonObject()
            .put("sub", "odd")
            .put("role", "editor")
            .put("rooms", new JsonArray().add(ROOM))
            .put("exp", now + 3600);
    List<Refusal> refusals =
        new ArrayList<>(
            List.of(
                new Refusal(Credential.none(), 401, "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("expired", tokens.expired(ROOM)), 401, "TOKEN_EXPIRED"),
                new Refusal(
                    new Credential(
                        "two Authorization headers",
                        List.of(
                            Map.entry("authorization", TestTokens.bearer(valid)),
                            Map.entry("authorization", TestTokens.bearer(valid))),
                        null),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    new Credential(
                        "a header and access_token",
                        List.of(Map.entry("authorization", TestTokens.bearer(valid))),
                        "access_token=" + valid),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.header("the Basic scheme", "Basic dXNlcjpwYXNzd29yZA=="),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.header("Bearer without a token", "Bearer"), 401, "UNAUTHENTICATED"),
                new Refusal(
                    Credential.header("Bearer and blanks", "Bearer    "), 401, "UNAUTHENTICATED"),
                new Refusal(
                    Credential.header("a token without Bearer", valid), 401, "UNAUTHENTICATED"),
                new Refusal(Credential.bearer("not a JWT", "not-a-jwt"), 401, "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("a cut signature", valid.substring(0, valid.length() - 3)),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "another secret's signature",
                        signed("HS256", "another-secret-of-at-least-32-bytes-000", claims)),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "HS512 with the right secret", signed("HS512", TestTokens.SECRET, claims)),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("alg none", unsigned(claims)), 401, "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("no exp", tokens.signed(without(claims, "exp"))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("exp null", tokens.signed(claims.copy().put("exp", null))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "exp not a number", tokens.signed(claims.copy().put("exp", "tomorrow"))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "nbf not a number", tokens.signed(claims.copy().put("nbf", "now"))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "an unknown role", tokens.signed(claims.copy().put("role", "owner"))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("no role", tokens.signed(without(claims, "role"))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("no sub", tokens.signed(without(claims, "sub"))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "rooms not a list", tokens.signed(claims.copy().put("rooms", ROOM))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "not valid yet", tokens.signed(claims.copy().put("nbf", now + 600))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "issued in the future", tokens.signed(claims.copy().put("iat", now + 600))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("too long", "x".repeat(9_000)), 401, "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer("exp 1e300", tokens.signed(claims.copy().put("exp", 1e300))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "exp past a long's milliseconds",
                        tokens.signed(claims.copy().put("exp", 9_300_000_000_000_000L))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "exp a fraction", tokens.signed(claims.copy().put("exp", now + 3600.5))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "exp past the longest lifetime",
                        tokens.signed(claims.copy().put("exp", now + 400L * 24 * 3600))),
                    401,
                    "UNAUTHENTICATED"),
                new Refusal(
                    Credential.bearer(
                        "a crit header",
                        signedWithHeader(
                            claims,
                            new JsonObject()
                                .put("crit", new JsonArray().add("urn:x:bound"))
                                .put("urn:x:bound", true))),
                    401,
                    "UNAUTHENTICATED")));
    if (route.kind() == Kind.PLAIN || route.kind() == Kind.UPLOAD) {
      refusals.add(
          new Refusal(
              new Credential("access_token off the streams", List.of(), "access_token=" + valid),
              401,
              "UNAUTHENTICATED"));
    }
    return refusals;
  }

  /** Valid tokens that do not reach this route's room, session or document. */
  List<Refusal> forbidden(Route route) {
    if (route.need() == Need.TOKEN) {
      return List.of();
    }
    List<Refusal> refusals =
        new ArrayList<>(
            List.of(
                outOfReach(
                    route,
                    Credential.bearer("another room's editor", tokens.editor(OTHER_ROOM)),
                    Role.EDITOR),
                outOfReach(
                    route,
                    Credential.bearer(
                        "another document's editor", tokens.forDocuments(Role.EDITOR, there.docId)),
                    Role.EDITOR),
                outOfReach(
                    route,
                    Credential.bearer("another room's viewer", tokens.viewer(OTHER_ROOM)),
                    Role.VIEWER)));
    if (route.need() == Need.ADMIN) {
      refusals.add(
          new Refusal(
              Credential.bearer("the room's editor", tokens.editor(ROOM)), 403, "FORBIDDEN"));
    }
    if (route.need() == Need.EDITOR || route.need() == Need.ADMIN) {
      refusals.add(
          new Refusal(
              Credential.bearer("the room's viewer", tokens.viewer(ROOM)), 403, "FORBIDDEN"));
      refusals.add(
          new Refusal(
              Credential.bearer(
                  "the document's viewer", tokens.forDocuments(Role.VIEWER, here.docId)),
              403,
              "FORBIDDEN"));
    }
    return refusals;
  }

  /**
   * A token that does not reach the route's target: 403 where the request names the room itself, or
   * the role falls short; where it names a session or document by id, 404 as for one that does not
   * exist, so that ids say nothing about other rooms (docs/security.md, L3).
   */
  static Refusal outOfReach(Route route, Credential credential, Role role) {
    boolean roleSuffices = route.need() == Need.VIEWER || role == Role.EDITOR;
    return roleSuffices && route.lookedUp() != null
        ? new Refusal(credential, 404, route.lookedUp())
        : new Refusal(credential, 403, "FORBIDDEN");
  }

  @Order(1)
  @ParameterizedTest(name = "{0}")
  @MethodSource("routes")
  void withoutATokenThatReachesItARouteAnswers401Or403Or404AndChangesNothing(Route route) {
    JsonObject before = state();
    List<Refusal> refusals = new ArrayList<>(unauthenticated(route));
    refusals.addAll(forbidden(route));
    for (Refusal refusal : refusals) {
      JsonObject body = route.body() == null ? null : route.body().apply(here);
      sent.clear();
      recording = true;
      HttpResponse<Buffer> response = request(route, here, refusal.credential(), body);
      recording = false;
      String what = route + " with " + refusal.credential() + ": ";
      assertEquals(refusal.status(), response.statusCode(), what + response.bodyAsString());
      assertEquals(
          refusal.code(),
          response.bodyAsJsonObject().getJsonObject("error").getString("code"),
          what + response.bodyAsString());
      if (refusal.status() == 401) {
        String challenge = response.getHeader("WWW-Authenticate");
        assertTrue(
            challenge != null && challenge.startsWith("Bearer"),
            what + "WWW-Authenticate is " + challenge);
        assertEquals(
            refusal.code().equals("TOKEN_EXPIRED"),
            challenge.contains("error=\"invalid_token\""),
            what + challenge);
      }
      List<String> commands =
          sent.stream().filter(address -> !LOOKUPS.contains(address) && !isReply(address)).toList();
      assertEquals(List.of(), commands, what + "nothing but a room look-up may go on the bus");
    }
    assertEquals(before, state(), route + ": a refused request changes nothing");

    if (route.need() == Need.ADMIN) {
      // An admin reads, and reading changes nothing either.
      assertEquals(route.allowed(), use(route, here, admin), route + " with an admin's token");
      assertEquals(before, state(), route + ": reading changes nothing");
    }
    if (route.need() == Need.TOKEN || route.need() == Need.VIEWER) {
      // A viewer's token suffices here, and reading changes nothing either.
      assertEquals(
          route.allowed(),
          use(route, here, tokens.viewer(ROOM)),
          route + " with the room's viewer");
      if (route.path().startsWith("/api/docs/:docId") || route.need() == Need.TOKEN) {
        assertEquals(
            route.allowed(),
            use(route, here, tokens.forDocuments(Role.VIEWER, here.docId)),
            route + " with the document's viewer");
      }
      assertEquals(before, state(), route + ": reading changes nothing");
    }
  }

  static boolean isReply(String address) {
    return !address.contains(".") || address.startsWith("__vertx.");
  }

  @Order(2)
  @Test
  void aTokenForOneRoomReachesNoOtherThroughTheBodyOrTheQuery() {
    JsonObject before = state();
    String otherEditor = tokens.editor(OTHER_ROOM);
    // A session of a room the token does not reach is, to it, no session at all.
    refused(
        send(
            HttpMethod.POST,
            "/api/canvas-agent/run",
            otherEditor,
            new JsonObject()
                .put("roomId", OTHER_ROOM)
                .put("sessionId", here.sessionId)
                .put("message", "into the other room's session")),
        404,
        "SESSION_NOT_FOUND");
    refused(
        send(
            HttpMethod.GET,
            "/api/sessions/" + here.sessionId + "?roomId=" + OTHER_ROOM,
            otherEditor,
            null),
        404,
        "SESSION_NOT_FOUND");
    refused(
        send(
            HttpMethod.PATCH,
            "/api/sessions/" + here.sessionId + "?roomId=" + OTHER_ROOM,
            otherEditor,
            new JsonObject().put("title", "mine now")),
        404,
        "SESSION_NOT_FOUND");
    // A token that reaches both rooms learns nothing new from the mismatch.
    refused(
        send(
            HttpMethod.GET,
            "/api/sessions/" + here.sessionId + "?roomId=" + OTHER_ROOM,
            tokens.editor(ROOM, OTHER_ROOM),
            null),
        409,
        "SESSION_ROOM_MISMATCH");
    // A document without a room becomes a room of its own, which only an every-room token could
    // use.
    refused(
        send(
            HttpMethod.POST,
            "/api/docs",
            tokens.editor(ROOM),
            new JsonObject().put("content", "loose\n")),
        403,
        "FORBIDDEN");
    assertEquals(before, state());
  }

  @Order(3)
  @Test
  void aDocumentsTokenCannotNameItsAgentSessionAfterAnotherDocument() {
    // The document agent's sessions share one namespace, and a document's own session is named
    // after it.
    HttpResponse<Buffer> squat =
        send(
            HttpMethod.POST,
            "/api/docs/" + there.docId + "/agent",
            tokens.forDocuments(Role.EDITOR, there.docId),
            new JsonObject()
                .put("instruction", "/doc-fix teh => the")
                .put("model", "debug/fake")
                .put("sessionId", here.docId));
    refused(squat, 400, "INVALID_REQUEST");
    HttpResponse<Buffer> own =
        send(
            HttpMethod.POST,
            "/api/docs/" + here.docId + "/agent",
            tokens.editor(ROOM),
            new JsonObject().put("instruction", "/doc-fix teh => the").put("model", "debug/fake"));
    assertEquals(202, own.statusCode(), own.bodyAsString());
    assertEquals(here.docId, own.bodyAsJsonObject().getString("sessionId"));
  }

  @Order(4)
  @Test
  void healthIsPublicAndAnUnknownApiPathStillWantsAToken() {
    HttpResponse<Buffer> health = Await.result(server.http().get("/health").send());
    assertEquals(200, health.statusCode(), health.bodyAsString());
    assertEquals(
        new JsonObject().put("ok", true).put("status", "up"),
        health.bodyAsJsonObject(),
        "an anonymous probe learns up or down, not the server's activity");
    for (String token : List.of(tokens.editor(ROOM), tokens.viewer(ROOM), "not-a-jwt")) {
      HttpResponse<Buffer> asSomeone =
          Await.result(
              server
                  .http()
                  .get("/health")
                  .putHeader("Authorization", TestTokens.bearer(token))
                  .send());
      assertEquals(
          new JsonObject().put("ok", true).put("status", "up"),
          asSomeone.bodyAsJsonObject(),
          "only an admin sees the counters");
    }
    HttpResponse<Buffer> asAdmin =
        Await.result(
            server
                .http()
                .get("/health")
                .putHeader("Authorization", TestTokens.bearer(tokens.admin()))
                .send());
    assertEquals(200, asAdmin.statusCode());
    assertTrue(
        asAdmin
            .bodyAsJsonObject()
            .getJsonObject("verticles")
            .getJsonObject("bridge")
            .containsKey("clients"),
        asAdmin.bodyAsString());
    refused(Await.result(server.http().get("/api/nothing-here").send()), 401, "UNAUTHENTICATED");
    refused(send(HttpMethod.GET, "/api/nothing-here", tokens.viewer(ROOM), null), 404, "NOT_FOUND");
  }

  @Order(5)
  @Test
  void theTableHasARowForEveryRouteTheServerDeclares() throws IOException {
    // The router is built inside BridgeVerticle and not reachable from here, so its declarations
    // are read from the source: a route added anywhere without a row in ROUTES fails this test.
    // A path may be a literal or a String constant of the same file, which is read in its place.
    Pattern declaration =
        Pattern.compile(
            "router\\s*\\.\\s*(get|post|put|patch|delete|head|options|route)(WithRegex)?\\((\"[^\"]*\"|[A-Za-z_][A-Za-z0-9_]*)\\)");
    Set<String> declared = new TreeSet<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
        String source = Files.readString(file, StandardCharsets.UTF_8);
        Matcher found = declaration.matcher(source);
        while (found.find()) {
          String path = declaredPath(found.group(3), source, file);
          if (path.startsWith("/api")) {
            declared.add(
                found.group(1).toUpperCase(java.util.Locale.ROOT)
                    + (found.group(2) == null ? "" : " regex")
                    + " "
                    + path);
          }
        }
      }
    }
    assertTrue(
        declared.remove("ROUTE /api/*"),
        "every /api route is authenticated by one handler on /api/*: " + declared);
    assertEquals(
        declared, ROUTES.stream().map(Route::name).collect(Collectors.toCollection(TreeSet::new)));
  }

  /** The path a route declaration names: its literal, or the value of the constant it names. */
  static String declaredPath(String argument, String source, Path file) {
    if (argument.startsWith("\"")) {
      return argument.substring(1, argument.length() - 1);
    }
    Matcher constant =
        Pattern.compile("String\\s+" + argument + "\\s*=\\s*\"([^\"]*)\"\\s*;").matcher(source);
    assertTrue(
        constant.find(),
        file
            + " declares a route with "
            + argument
            + ", which is not a String constant of that file: the table cannot check it");
    return constant.group(1);
  }

  @Order(6)
  @Test
  void anEditorOfARoomMayUseEveryRouteInItButTheAdminViews() {
    Target target = new Target("access-editor");
    String editor = tokens.editor("access-editor");
    for (Route route : ROUTES) {
      if (route.need() == Need.ADMIN) {
        refused(
            request(
                route,
                target,
                Credential.bearer("the room's editor", editor),
                route.body() == null ? null : route.body().apply(target)),
            403,
            "FORBIDDEN");
      } else {
        assertEquals(route.allowed(), use(route, target, editor), route.toString());
      }
    }
  }

  @Order(7)
  @Test
  void anAdminMayUseEveryRouteWhateverItsTokenLists() {
    everyRouteSucceeds(new Target("access-admin"), admin);
  }

  @Order(8)
  @Test
  void anEditorOfADocumentAloneMayUseTheDocumentsRoutesAndNoRoomsOnes() {
    Target target = new Target("access-writer");
    String writer = tokens.forDocuments(Role.EDITOR, target.docId);
    for (Route route : ROUTES) {
      boolean documents =
          route.path().startsWith("/api/docs/:docId")
              || route.path().equals("/api/canvas-agent/edit-request");
      if (documents || route.need() == Need.TOKEN) {
        assertEquals(route.allowed(), use(route, target, writer), route.toString());
      } else {
        Refusal expected =
            route.need() == Need.ADMIN
                ? new Refusal(Credential.bearer("the document's editor", writer), 403, "FORBIDDEN")
                : outOfReach(
                    route, Credential.bearer("the document's editor", writer), Role.EDITOR);
        refused(
            request(
                route,
                target,
                expected.credential(),
                route.body() == null ? null : route.body().apply(target)),
            expected.status(),
            expected.code());
      }
    }
  }

  void everyRouteSucceeds(Target target, String token) {
    for (Route route : ROUTES) {
      assertEquals(route.allowed(), use(route, target, token), route.toString());
    }
  }

  /** What the route answers {@code token}; a stream is opened, seen to work, and closed. */
  int use(Route route, Target target, String token) {
    Map<String, String> authorization = Map.of("authorization", TestTokens.bearer(token));
    return switch (route.kind()) {
      case EVENTS -> {
        SseClient events =
            Await.result(SseClient.connect(vertx, server.port(), route.uri(target), authorization));
        Await.result(events.close());
        yield 200;
      }
      case WEBSOCKET -> {
        WsClient socket =
            Await.result(
                WsClient.connect(vertx, server.port(), target.roomId, null, authorization));
        Await.result(socket.close());
        yield 101;
      }
      case ASSET -> {
        // As an <img> asks: no header, the token in the query.
        HttpResponse<Buffer> response =
            request(
                route, target, new Credential("token", List.of(), "access_token=" + token), null);
        assertEquals(PNG, response.body(), route.toString());
        assertEquals("image/png", response.getHeader("content-type"), route.toString());
        yield response.statusCode();
      }
      case PLAIN, UPLOAD -> {
        HttpResponse<Buffer> response =
            request(
                route,
                target,
                Credential.bearer("token", token),
                route.body() == null ? null : route.body().apply(target));
        assertTrue(response.statusCode() < 300, route + ": " + response.bodyAsString());
        yield response.statusCode();
      }
    };
  }

  HttpResponse<Buffer> request(Route route, Target target, Credential credential, JsonObject body) {
    String uri = route.uri(target);
    if (credential.query() != null) {
      uri += (uri.contains("?") ? "&" : "?") + credential.query();
    }
    HttpRequest<Buffer> request = server.http().request(HttpMethod.valueOf(route.method()), uri);
    for (Map.Entry<String, String> header : credential.headers()) {
      request.headers().add(header.getKey(), header.getValue());
    }
    if (route.kind() == Kind.UPLOAD) {
      return Await.result(request.putHeader("content-type", "image/png").sendBuffer(PNG));
    }
    return Await.result(body == null ? request.send() : request.sendJsonObject(body));
  }

  HttpResponse<Buffer> send(HttpMethod method, String uri, String token, JsonObject body) {
    HttpRequest<Buffer> request =
        server.http().request(method, uri).putHeader("authorization", TestTokens.bearer(token));
    return Await.result(body == null ? request.send() : request.sendJsonObject(body));
  }

  JsonObject read(String path) {
    HttpResponse<Buffer> response = send(HttpMethod.GET, path, admin, null);
    assertEquals(200, response.statusCode(), path + ": " + response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  static void refused(HttpResponse<Buffer> response, int status, String code) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    if (code != null) {
      assertEquals(
          code,
          response.bodyAsJsonObject().getJsonObject("error").getString("code"),
          response.bodyAsString());
    }
  }

  /** The store, table by table, and what an admin reads of both rooms. */
  JsonObject state() {
    JsonObject tables = new JsonObject();
    for (String table :
        TestDatabase.queryStrings(
            database,
            "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                + database.schema()
                + "' AND table_type = 'BASE TABLE' ORDER BY table_name")) {
      tables.put(
          table,
          TestDatabase.queryStrings(
                  database,
                  "SELECT md5(coalesce(string_agg(row::text, '|' ORDER BY row::text), ''))"
                      + " FROM "
                      + database.schema()
                      + "."
                      + table
                      + " row"
                      // The limits' sweep may drop whole allowances at any time: only spent ones
                      // count.
                      + PgFuzzTest.wholeAllowancesLeftOut(table).replace("t.", "row."))
              .get(0));
    }
    return new JsonObject()
        .put("store", tables)
        .put(ROOM, here.readBack())
        .put(OTHER_ROOM, there.readBack());
  }

  static JsonObject without(JsonObject claims, String name) {
    JsonObject copy = claims.copy();
    copy.remove(name);
    return copy;
  }

  /** A token signed with {@code algorithm} and {@code secret}: right claims, wrong key or algorithm. */
  String signed(String algorithm, String secret, JsonObject claims) {
    JWTAuth other =
        JWTAuth.create(
            vertx,
            new JWTAuthOptions()
                .addPubSecKey(new PubSecKeyOptions().setAlgorithm(algorithm).setBuffer(secret)));
    return other.generateToken(claims, new JWTOptions().setAlgorithm(algorithm));
  }

  /** Signed with the server's secret, with {@code header}'s members added to the JOSE header. */
  String signedWithHeader(JsonObject claims, JsonObject header) {
    JWTAuth issuer =
        JWTAuth.create(
            vertx,
            new JWTAuthOptions()
                .addPubSecKey(
                    new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(TestTokens.SECRET)));
    return issuer.generateToken(claims, new JWTOptions().setAlgorithm("HS256").setHeader(header));
  }

  /** The same claims with {@code alg: none} and no signature. */
  static String unsigned(JsonObject claims) {
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    return base64.encodeToString(
            "{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
        + "."
        + base64.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8))
        + ".";
  }
}
