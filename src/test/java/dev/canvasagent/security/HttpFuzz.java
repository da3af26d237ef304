package dev.canvasagent.security;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;
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
  private static final Pattern NAMED_ROOM =
      Pattern.compile("\"roomId\"\\s*:\\s*\"([A-Za-z0-9_-]{1,64})\"");
  private static final Pattern NAMED_SESSION =
      Pattern.compile("\"(?:sessionId|canvas_session_id)\"\\s*:\\s*\"([A-Za-z0-9_-]{1,64})\"");
  private static final Pattern NAMED_DOC =
      Pattern.compile("\"canvas_session_id\"\\s*:\\s*\"([A-Za-z0-9_-]{1,64})\"");

  /** The request as sent: for the report, and for finding what it names. */
  private record Request(
      String uri,
      FuzzBodies.Body body,
      List<String> idempotencyKeys,
      String lastEventId,
      String mutation) {}

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

  HttpFuzz(
      Vertx vertx,
      int port,
      FuzzFixture fixture,
      StateFingerprint fingerprint,
      FuzzBodies bodies,
      FuzzFindings findings) {
    this.vertx = vertx;
    this.client =
        vertx.createHttpClient(
            new io.vertx.core.http.HttpClientOptions()
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(port));
    this.fixture = fixture;
    this.fingerprint = fingerprint;
    this.bodies = bodies;
    this.findings = findings;
  }

  /** {@code cases} cases per target, the targets shuffled together. */
  void run(List<HttpTargets.Target> targets, Map<HttpTargets.Target, Integer> cases) {
    MessageConsumer<JsonObject> statuses =
        vertx
            .eventBus()
            .consumer(
                RoomTopic.AGENT_STATUS.address(fixture.room),
                message -> {
                  JsonObject detail = message.body().getJsonObject("detail");
                  if (detail != null
                      && detail.getString("runId") != null
                      && List.of("done", "error", "canceled")
                          .contains(message.body().getString("state"))) {
                    endedRuns.add(detail.getString("runId"));
                  }
                });
    Await.result(statuses.completion());
    List<HttpTargets.Target> order = new ArrayList<>();
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

  private void runCase(int number, HttpTargets.Target target) {
    if (fixture.prepare(target.lease())) {
      knownPrint = null;
    }
    Request request = request(target);
    StateFingerprint.Scope scope = fixture.scope().with(named(request));
    Map<String, String> before =
        scope.equals(knownScope) && knownPrint != null ? knownPrint : fingerprint.capture(scope);
    Answer answer;
    try {
      answer = Await.result(send(target, request));
    } catch (RuntimeException | AssertionError failed) {
      findings.outcome(target.name(), "no answer");
      findings.problem(
          target.name(),
          number,
          request.mutation(),
          "no answer within " + CASE_TIMEOUT_MS + " ms: " + failed.getMessage());
      settle(target, null);
      forget();
      return;
    }
    findings.outcome(target.name(), answer.status() / 100 + "xx");
    if (answer.status() >= 500) {
      findings.problem(
          target.name(),
          number,
          request.mutation(),
          answer.status() + " " + shorten(answer.body()));
    }
    if (request.body() != null && request.body().mustBeRefused() && answer.status() < 400) {
      findings.problem(
          target.name(),
          number,
          request.mutation(),
          "accepted with " + answer.status() + ": " + shorten(answer.body()));
    }
    if (answer.status() >= 400 || !target.writes()) {
      Map<String, String> after = fingerprint.capture(scope);
      List<String> changed = StateFingerprint.changed(before, after);
      if (!changed.isEmpty()) {
        findings.problem(
            target.name(),
            number,
            request.mutation(),
            "state changed after "
                + answer.status()
                + " "
                + shorten(answer.body())
                + ": "
                + changed);
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
  private void settle(HttpTargets.Target target, Answer answer) {
    String agentRun =
        answer != null && target.path().endsWith("/agent") && answer.status() == 202
            ? new JsonObject(answer.body()).getString("runId")
            : null;
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                quiet().map(quiet -> quiet && (agentRun == null || endedRuns.contains(agentRun)))));
  }

  private Future<Boolean> quiet() {
    return quiet(vertx);
  }

  /** Whether nothing runs or waits: no run, no queued run, no screenshot being captured. */
  static Future<Boolean> quiet(Vertx vertx) {
    Future<JsonObject> runner = health(vertx, "runner");
    Future<JsonObject> scheduler = health(vertx, "scheduler");
    Future<JsonObject> screenshot = health(vertx, "screenshot");
    return Future.all(runner, scheduler, screenshot)
        .map(
            all ->
                runner.result().getInteger("active") == 0
                    && scheduler.result().getLong("running") == 0
                    && scheduler.result().getLong("waiting") == 0
                    && screenshot.result().getInteger("capturesInFlight") == 0);
  }

  private static Future<JsonObject> health(Vertx vertx, String verticle) {
    return vertx
        .eventBus()
        .<JsonObject>request(Address.health(verticle).address(), new JsonObject())
        .map(reply -> reply.body());
  }

  /** The case: the target's valid request, mutated. */
  private Request request(HttpTargets.Target target) {
    Map<String, String> values = new LinkedHashMap<>();
    Matcher placeholders = PLACEHOLDER.matcher(target.path());
    while (placeholders.find()) {
      values.put(
          placeholders.group(1),
          switch (placeholders.group(1)) {
            case "room" -> fixture.room;
            case "session" -> fixture.session;
            case "doc" -> fixture.doc;
            default ->
                target.path().contains("/tools/")
                    ? target.name().substring(target.name().lastIndexOf('/') + 1)
                    : "";
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
      keys =
          switch (bodies.nextInt(4)) {
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
  private String query(HttpTargets.Target target, List<String> mutations) {
    List<String> parts = new ArrayList<>();
    target
        .query()
        .forEach(
            (name, valid) -> {
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
      String extra =
          bodies.pick(List.of("access_token", "limit", "roomId", "x", "%zz", ""))
              + "="
              + bodies.hostileParameter("1");
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
        default -> {}
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

  private Future<Answer> send(HttpTargets.Target target, Request request) {
    Promise<HttpClientRequest> sent = Promise.promise();
    Future<Answer> answer =
        client
            .request(new RequestOptions().setMethod(target.method()).setURI(request.uri()))
            .compose(
                http -> {
                  sent.tryComplete(http);
                  FuzzBodies.Body body = request.body();
                  if (body != null && body.contentType() != null) {
                    http.putHeader("content-type", body.contentType());
                  }
                  request
                      .idempotencyKeys()
                      .forEach(key -> http.headers().add("Idempotency-Key", key));
                  if (request.lastEventId() != null) {
                    http.putHeader("Last-Event-ID", request.lastEventId());
                  }
                  Future<io.vertx.core.http.HttpClientResponse> response =
                      body == null ? http.send() : http.send(body.bytes());
                  if (target.stream()) {
                    return response.map(
                        headers -> {
                          headers.exceptionHandler(reset -> {});
                          http.reset();
                          return new Answer(
                              headers.statusCode(), headers.getHeader("content-type"));
                        });
                  }
                  return response.compose(
                      head ->
                          head.body()
                              .map(content -> new Answer(head.statusCode(), content.toString())));
                });
    return answer
        .timeout(CASE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .onFailure(error -> sent.future().onSuccess(HttpClientRequest::reset));
  }

  static String shorten(String text) {
    if (text == null) {
      return "null";
    }
    String flat = text.replaceAll("\\p{Cntrl}", "?");
    return flat.length() > 160 ? flat.substring(0, 160) + "…" : flat;
  }
}
