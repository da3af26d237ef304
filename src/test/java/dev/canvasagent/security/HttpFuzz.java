package dev.canvasagent.security;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fuzz pass over the HTTP API: every JSON endpoint gets mutated and random bodies, every GET
 * hostile query strings, and some cases a hostile path id or Idempotency-Key. Each case must be
 * answered within {@link #CASE_TIMEOUT_MS} with a status below 500; after a 4xx (and after any GET)
 * the state fingerprint must equal the one before. Accepted writes are let finish (runs, document
 * agents) before the next case, so each case starts from a quiet server.
 */
final class HttpFuzz {
  static final long CASE_TIMEOUT_MS = 15_000;
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\w+)}");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern NAMED_ROOM = Pattern.compile("\"roomId\"\\s*:\\s*\"([A-Za-z0-9_-]{1,64})\"");
  private static final Pattern NAMED_SESSION = Pattern.compile("\"(?:sessionId|canvas_session_id)\"\\s*:\\s*\"([A-Za-z0-9_-]{1,64})\"");
  private static final Pattern NAMED_DOC = Pattern.compile("\"canvas_session_id\"\\s*:\\s*\"([A-Za-z0-9_-]{1,64})\"");

  /**
   * One endpoint. {@code path} has placeholders ({room}, {session}, {doc}, {tool}); {@code body} is a
   * valid body (null: no body); {@code query} the valid query parameters; {@code stream}: the answer
   * is an event stream, so only its status is read.
   */
  record Target(String name, HttpMethod method, String path, Function<FuzzFixture, JsonObject> body,
      Map<String, String> query, FuzzFixture.Lease lease, boolean stream) {
    static Target json(String name, HttpMethod method, String path, FuzzFixture.Lease lease, Function<FuzzFixture, JsonObject> body) {
      return new Target(name, method, path, body, Map.of(), lease, false);
    }

    /** {@code query}: name, valid value, …; a value {@code {room}} is the fixture's room. */
    static Target get(String path, String... query) {
      Map<String, String> parameters = new LinkedHashMap<>();
      for (int i = 0; i < query.length; i += 2) {
        parameters.put(query[i], query[i + 1]);
      }
      return new Target("GET " + path, HttpMethod.GET, path, null, parameters, FuzzFixture.Lease.ANY, false);
    }

    boolean writes() {
      return method != HttpMethod.GET;
    }
  }

  /** The request as sent: for the report, and for finding what it names. */
  private record Request(String uri, FuzzBodies.Body body, List<String> idempotencyKeys, String lastEventId, String mutation) {}

  private record Answer(int status, String body) {}

  private final Vertx vertx;
  private final HttpClient client;
  private final FuzzFixture fixture;
  private final StateFingerprint fingerprint;
  private final FuzzBodies bodies;
  private final FuzzFindings findings;
  /** The runs whose end the room's agent:status announced. */
  private final Set<String> endedRuns = ConcurrentHashMap.newKeySet();
  private Map<String, String> knownPrint;
  private StateFingerprint.Scope knownScope;

  HttpFuzz(Vertx vertx, int port, FuzzFixture fixture, StateFingerprint fingerprint, FuzzBodies bodies, FuzzFindings findings) {
    this.vertx = vertx;
    this.client = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    this.fixture = fixture;
    this.fingerprint = fingerprint;
    this.bodies = bodies;
    this.findings = findings;
  }

  /** {@code cases} cases per target, the targets shuffled together. */
  void run(List<Target> targets, Map<Target, Integer> cases) {
    MessageConsumer<JsonObject> statuses = vertx.eventBus().consumer(RoomTopic.AGENT_STATUS.address(fixture.room), message -> {
      JsonObject detail = message.body().getJsonObject("detail");
      if (detail != null && detail.getString("runId") != null && List.of("done", "error", "canceled").contains(message.body().getString("state"))) {
        endedRuns.add(detail.getString("runId"));
      }
    });
    Await.result(statuses.completion());
    List<Target> order = new ArrayList<>();
    targets.forEach(target -> order.addAll(Collections.nCopies(cases.get(target), target)));
    Collections.shuffle(order, new java.util.Random(bodies.nextInt(Integer.MAX_VALUE)));
    try {
      for (int i = 0; i < order.size(); i++) {
        runCase(i, order.get(i));
      }
    } finally {
      Await.result(statuses.unregister());
      Await.result(client.close());
    }
  }

  private void runCase(int number, Target target) {
    if (fixture.prepare(target.lease())) {
      knownPrint = null;
    }
    Request request = request(target);
    StateFingerprint.Scope scope = fixture.scope().with(named(request));
    Map<String, String> before = scope.equals(knownScope) && knownPrint != null ? knownPrint : fingerprint.capture(scope);
    Answer answer;
    try {
      answer = Await.result(send(target, request));
    } catch (RuntimeException | AssertionError failed) {
      findings.outcome(target.name(), "no answer");
      findings.problem(target.name(), number, request.mutation(), "no answer within " + CASE_TIMEOUT_MS + " ms: " + failed.getMessage());
      settle(target, null);
      forget();
      return;
    }
    findings.outcome(target.name(), answer.status() / 100 + "xx");
    if (answer.status() >= 500) {
      findings.problem(target.name(), number, request.mutation(), answer.status() + " " + shorten(answer.body()));
    }
    if (answer.status() >= 400 || !target.writes()) {
      Map<String, String> after = fingerprint.capture(scope);
      List<String> changed = StateFingerprint.changed(before, after);
      if (!changed.isEmpty()) {
        findings.problem(target.name(), number, request.mutation(), "state changed after " + answer.status() + " "
            + shorten(answer.body()) + ": " + changed);
        settle(target, null);
        forget();
        return;
      }
      knownPrint = after;
      knownScope = scope;
      return;
    }
    settle(target, answer);
    forget();
  }

  private void forget() {
    knownPrint = null;
    knownScope = null;
    fixture.refresh();
  }

  /**
   * Lets what an accepted request started finish, so that nothing changes the state under the next
   * case: a document agent's run ends, the scheduler and the runner go idle.
   */
  private void settle(Target target, Answer answer) {
    String agentRun = answer != null && target.path().endsWith("/agent") && answer.status() == 202
        ? new JsonObject(answer.body()).getString("runId") : null;
    Await.result(Eventually.holds(vertx, () -> quiet().map(quiet -> quiet && (agentRun == null || endedRuns.contains(agentRun)))));
  }

  private Future<Boolean> quiet() {
    Future<JsonObject> runner = health("runner");
    Future<JsonObject> scheduler = health("scheduler");
    Future<JsonObject> screenshot = health("screenshot");
    return Future.all(runner, scheduler, screenshot).map(all -> runner.result().getInteger("active") == 0
        && scheduler.result().getLong("running") == 0 && scheduler.result().getLong("waiting") == 0
        && screenshot.result().getInteger("capturesInFlight") == 0);
  }

  private Future<JsonObject> health(String verticle) {
    return vertx.eventBus().<JsonObject>request(Address.health(verticle), new JsonObject()).map(reply -> reply.body());
  }

  /** The case: the target's valid request, mutated. */
  private Request request(Target target) {
    Map<String, String> values = new LinkedHashMap<>();
    Matcher placeholders = PLACEHOLDER.matcher(target.path());
    while (placeholders.find()) {
      values.put(placeholders.group(1), switch (placeholders.group(1)) {
        case "room" -> fixture.room;
        case "session" -> fixture.session;
        case "doc" -> fixture.doc;
        default -> target.path().contains("/tools/") ? target.name().substring(target.name().lastIndexOf('/') + 1) : "";
      });
    }
    List<String> mutations = new ArrayList<>();
    if (!values.isEmpty() && bodies.chance(8)) {
      String name = bodies.pick(new ArrayList<>(values.keySet()));
      String hostile = bodies.hostileParameter(values.get(name));
      values.put(name, hostile);
      mutations.add("path {" + name + "} = '" + shorten(hostile) + "'");
    }
    StringBuilder uri = new StringBuilder();
    Matcher fill = PLACEHOLDER.matcher(target.path());
    int at = 0;
    while (fill.find()) {
      uri.append(target.path(), at, fill.start()).append(values.get(fill.group(1)));
      at = fill.end();
    }
    uri.append(target.path().substring(at));
    String query = query(target, mutations);
    if (!query.isEmpty()) {
      uri.append('?').append(query);
    }
    FuzzBodies.Body body = null;
    if (target.body() != null) {
      body = bodies.next(target.body().apply(fixture));
      mutations.add(body.mutation());
    }
    List<String> keys = List.of();
    if (target.writes() && bodies.chance(10)) {
      keys = switch (bodies.nextInt(4)) {
        case 0 -> List.of("fuzz-key-" + bodies.nextInt(5));
        case 1 -> List.of("a", "b");
        case 2 -> List.of(bodies.hostileParameter("key"));
        default -> List.of("k".repeat(129));
      };
      mutations.add("Idempotency-Key " + keys.stream().map(HttpFuzz::shorten).toList());
    }
    String lastEventId = target.stream() && bodies.chance(50) ? bodies.hostileParameter("1") : null;
    if (lastEventId != null) {
      mutations.add("Last-Event-ID '" + shorten(lastEventId) + "'");
    }
    return new Request(uri.toString(), body, keys, lastEventId, String.join("; ", mutations));
  }

  /** The target's valid query, each parameter kept, dropped, doubled or made hostile, sometimes one more added. */
  private String query(Target target, List<String> mutations) {
    List<String> parts = new ArrayList<>();
    target.query().forEach((name, valid) -> {
      String value = valid.replace("{room}", fixture.room);
      switch (bodies.nextInt(target.writes() ? 1 : 6)) {
        case 0 -> parts.add(name + "=" + value);
        case 1 -> mutations.add("query " + name + " dropped");
        case 2 -> {
          parts.add(name + "=" + value);
          parts.add(name + "=" + value);
          mutations.add("query " + name + " twice");
        }
        default -> {
          String hostile = bodies.hostileParameter(value);
          parts.add(name + "=" + hostile);
          mutations.add("query " + name + "='" + shorten(hostile) + "'");
        }
      }
    });
    if (bodies.chance(10)) {
      String extra = bodies.pick(List.of("access_token", "limit", "roomId", "x", "%zz", "")) + "=" + bodies.hostileParameter("1");
      parts.add(extra);
      mutations.add("query + '" + shorten(extra) + "'");
    }
    return String.join("&", parts);
  }

  /** The rooms, sessions and documents the request names, beyond the fixture's. */
  private static StateFingerprint.Scope named(Request request) {
    Set<String> rooms = new LinkedHashSet<>();
    Set<String> sessions = new LinkedHashSet<>();
    Set<String> docs = new LinkedHashSet<>();
    String text = request.body() == null ? "" : request.body().text();
    collect(NAMED_ROOM, text, rooms);
    collect(NAMED_SESSION, text, sessions);
    collect(NAMED_DOC, text, docs);
    String[] segments = request.uri().split("\\?")[0].split("/");
    for (int i = 0; i + 1 < segments.length; i++) {
      String next = segments[i + 1];
      if (!ID.matcher(next).matches()) {
        continue;
      }
      switch (segments[i]) {
        case "rooms" -> rooms.add(next);
        case "sessions" -> sessions.add(next);
        case "docs" -> docs.add(next);
        default -> { }
      }
    }
    docs.remove("tools");
    return new StateFingerprint.Scope(rooms, sessions, docs);
  }

  private static void collect(Pattern pattern, String text, Set<String> into) {
    Matcher matcher = pattern.matcher(text);
    while (matcher.find() && into.size() < 4) {
      into.add(matcher.group(1));
    }
  }

  private Future<Answer> send(Target target, Request request) {
    Promise<HttpClientRequest> sent = Promise.promise();
    Future<Answer> answer = client.request(new RequestOptions().setMethod(target.method()).setURI(request.uri())).compose(http -> {
      sent.tryComplete(http);
      FuzzBodies.Body body = request.body();
      if (body != null && body.contentType() != null) {
        http.putHeader("content-type", body.contentType());
      }
      request.idempotencyKeys().forEach(key -> http.headers().add("Idempotency-Key", key));
      if (request.lastEventId() != null) {
        http.putHeader("Last-Event-ID", request.lastEventId());
      }
      Future<io.vertx.core.http.HttpClientResponse> response = body == null ? http.send() : http.send(body.bytes());
      if (target.stream()) {
        return response.map(headers -> {
          headers.exceptionHandler(reset -> { });
          http.reset();
          return new Answer(headers.statusCode(), headers.getHeader("content-type"));
        });
      }
      return response.compose(head -> head.body().map(content -> new Answer(head.statusCode(), content.toString())));
    });
    return answer.timeout(CASE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .onFailure(error -> sent.future().onSuccess(HttpClientRequest::reset));
  }

  static String shorten(String text) {
    if (text == null) {
      return "null";
    }
    String flat = text.replaceAll("\\p{Cntrl}", "?");
    return flat.length() > 160 ? flat.substring(0, 160) + "…" : flat;
  }

  /** A valid argument object for a document tool, from its schema, using the fixture's lease and revision. */
  static JsonObject validToolArgs(JsonObject schema, FuzzFixture fixture, FuzzBodies random) {
    JsonObject properties = schema.getJsonObject("properties", new JsonObject());
    Set<String> required = new java.util.HashSet<>(schema.getJsonArray("required", new JsonArray()).stream().map(String.class::cast).toList());
    JsonObject args = new JsonObject();
    for (String name : properties.fieldNames()) {
      if (!required.contains(name) && !name.equals("lease_id") && !name.equals("canvas_epoch") && !random.chance(40)) {
        continue;
      }
      JsonObject property = properties.getJsonObject(name);
      args.put(name, switch (name) {
        case "lease_id" -> fixture.leaseId;
        case "canvas_epoch" -> fixture.epoch;
        case "base_revision_id", "from_revision_id", "to_revision_id" -> fixture.revisionId;
        case "snapshot_id" -> fixture.snapshotId;
        case "holder" -> FuzzFixture.HOLDER;
        case "start_line", "insert_after_line" -> 1;
        case "end_line" -> 2;
        case "patch" -> "--- a\n+++ b\n@@ -2,1 +2,1 @@\n-alpha\n+alpha!\n";
        case "query", "search_pattern" -> "alpha";
        default -> switch (property.getString("type", "string")) {
          case "integer" -> Math.max(1, property.getInteger("minimum", 1));
          case "boolean" -> random.chance(50);
          case "string" -> property.containsKey("enum") ? property.getJsonArray("enum").getValue(0) : "fuzz text";
          default -> "fuzz text";
        };
      });
    }
    return args;
  }

  /** Every JSON endpoint, each document tool, the query-string GETs and the two streams. */
  static List<Target> targets(FuzzFixture fixture, FuzzBodies bodies) {
    List<Target> targets = new ArrayList<>(List.of(
        Target.json("POST /api/canvas-agent/run", HttpMethod.POST, "/api/canvas-agent/run", FuzzFixture.Lease.ANY, f -> new JsonObject()
            .put("roomId", f.room).put("message", "draw a box").put("sessionId", f.session).put("model", "debug/fake")
            .put("selection", new JsonArray().add("shape:fuzz1"))
            .put("viewport", new JsonObject().put("x", 0).put("y", 0).put("w", 800).put("h", 600))),
        Target.json("POST /api/canvas-agent/cancel", HttpMethod.POST, "/api/canvas-agent/cancel", FuzzFixture.Lease.ANY,
            f -> new JsonObject().put("sessionId", f.session)),
        Target.json("POST /api/canvas-agent/edit-request", HttpMethod.POST, "/api/canvas-agent/edit-request", FuzzFixture.Lease.FREE,
            f -> new JsonObject().put("canvas_session_id", f.doc).put("instruction", "tidy the list").put("context", "fuzz")
                .put("model", "debug/fake")),
        Target.json("POST /api/rooms/{id}/changes", HttpMethod.POST, "/api/rooms/{room}/changes", FuzzFixture.Lease.ANY,
            f -> new JsonObject().put("baseRevision", f.boardRevision).put("put", new JsonArray().add(f.newShape()))),
        Target.json("POST /api/rooms/{id}/transcript", HttpMethod.POST, "/api/rooms/{room}/transcript", FuzzFixture.Lease.ANY,
            f -> new JsonObject().put("speaker", "ann").put("text", "hello there").put("ts", System.currentTimeMillis() - 1_000)),
        Target.json("POST /api/sessions", HttpMethod.POST, "/api/sessions", FuzzFixture.Lease.ANY,
            f -> new JsonObject().put("roomId", f.room).put("title", "fuzz session").put("model", "debug/fake")),
        Target.json("PATCH /api/sessions/{id}", HttpMethod.PATCH, "/api/sessions/{session}", FuzzFixture.Lease.ANY,
            f -> new JsonObject().put("title", "renamed").put("model", "debug/fake").put("contextItems", new JsonArray()
                .add(new JsonObject().put("type", "shape").put("shapeId", "shape:fuzz1"))
                .add(new JsonObject().put("type", "area").put("bounds", new JsonObject().put("x", 0).put("y", 0).put("w", 10).put("h", 10)))
                .add(new JsonObject().put("type", "point").put("point", new JsonObject().put("x", 1).put("y", 2))))),
        Target.json("POST /api/docs", HttpMethod.POST, "/api/docs", FuzzFixture.Lease.ANY,
            f -> new JsonObject().put("roomId", f.room).put("title", "fuzz doc").put("content", "# New\n")),
        Target.json("PUT /api/docs/{id}", HttpMethod.PUT, "/api/docs/{doc}", FuzzFixture.Lease.ANY,
            f -> new JsonObject().put("content", FuzzFixture.CONTENT + "delta\n").put("baseRevisionId", f.revisionId)),
        Target.json("POST /api/docs/{id}/agent", HttpMethod.POST, "/api/docs/{doc}/agent", FuzzFixture.Lease.FREE,
            f -> new JsonObject().put("instruction", "fix the typo").put("model", "debug/fake").put("sessionId", "fuzz-doc-agent"))));
    for (JsonObject tool : fixture.tools) {
      String name = tool.getString("name");
      JsonObject schema = tool.getJsonObject("parameters");
      FuzzFixture.Lease lease = name.equals("canvas_check_out") ? FuzzFixture.Lease.FREE : FuzzFixture.Lease.HELD;
      targets.add(new Target("POST /api/docs/{id}/tools/" + name, HttpMethod.POST, "/api/docs/{doc}/tools/{tool}",
          f -> validToolArgs(schema, f, bodies), Map.of(), lease, false));
    }
    targets.addAll(List.of(
        Target.get("/api/rooms/{room}/revisions", "after", "0", "limit", "10"),
        Target.get("/api/rooms/{room}/board"),
        Target.get("/api/sessions", "roomId", "{room}", "limit", "5"),
        Target.get("/api/sessions/{session}", "roomId", "{room}"),
        Target.get("/api/sessions/{session}/todos", "status", "open"),
        Target.get("/api/docs/{doc}"),
        Target.get("/api/docs/{doc}/revisions", "limit", "5"),
        Target.get("/api/docs/tools"),
        Target.get("/api/catalog"),
        // A plain GET of the WebSocket route: no upgrade, so it must be refused, not left hanging.
        Target.get("/api/rooms/{room}/ws", "lastEventId", "1"),
        new Target("GET /api/rooms/{room}/events", HttpMethod.GET, "/api/rooms/{room}/events", null, Map.of(), FuzzFixture.Lease.ANY, true)));
    return targets;
  }
}
