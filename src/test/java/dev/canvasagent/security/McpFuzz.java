package dev.canvasagent.security;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.McpHttp;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The fuzz pass over {@code /mcp}: every method a client may call and every tool with valid arguments,
 * as one JSON-RPC message each, mutated by {@link FuzzBodies} (envelope and arguments alike), with the
 * transport's headers sometimes dropped or made hostile. Every case is answered below 500; a refusal —
 * an HTTP 4xx, a JSON-RPC error, or a tool result with {@code isError} — and a notification (202)
 * leave the state as it was; what must be refused is.
 */
final class McpFuzz {
  record Target(String name, JsonObject message, boolean readOnly) {}

  private record Answer(int status, String body) {}

  private final Vertx vertx;
  private final WebClient http;
  private final int port;
  private final FuzzFixture fixture;
  private final StateFingerprint fingerprint;
  private final FuzzBodies bodies;
  private final FuzzFindings findings;
  private final McpHttp session;

  McpFuzz(
      Vertx vertx,
      WebClient http,
      int port,
      FuzzFixture fixture,
      StateFingerprint fingerprint,
      FuzzBodies bodies,
      FuzzFindings findings) {
    this.vertx = vertx;
    this.http = http;
    this.port = port;
    this.fixture = fixture;
    this.fingerprint = fingerprint;
    this.bodies = bodies;
    this.findings = findings;
    this.session = new McpHttp(http, port, null);
    session.initialize("");
  }

  /** The methods and every tool the server lists, each with a valid message. */
  List<Target> targets(JsonArray verbs) {
    List<Target> targets = new ArrayList<>();
    targets.add(request("ping", new JsonObject(), true));
    targets.add(request("tools/list", new JsonObject(), true));
    targets.add(request("resources/list", new JsonObject(), true));
    targets.add(request("resources/templates/list", new JsonObject(), true));
    targets.add(request("resources/read", new JsonObject().put("uri", "canvas://catalog"), true));
    targets.add(
        request(
            "resources/read",
            new JsonObject().put("uri", "canvas://rooms/" + fixture.room + "/board"),
            true));
    targets.add(
        request(
            "resources/read", new JsonObject().put("uri", "canvas://docs/" + fixture.doc), true));
    targets.add(
        request(
            "resources/subscribe",
            new JsonObject().put("uri", "canvas://rooms/" + fixture.room + "/board"),
            true));
    targets.add(request("prompts/list", new JsonObject(), true));
    targets.add(
        request(
            "prompts/get",
            new JsonObject()
                .put("name", "draw_diagram")
                .put("arguments", new JsonObject().put("subject", "a login flow")),
            true));
    targets.add(
        request(
            "initialize",
            new JsonObject()
                .put("protocolVersion", "2025-11-25")
                .put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", "fuzz").put("version", "1")),
            true));
    JsonArray tools =
        session.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools");
    for (Object listed : tools) {
      JsonObject tool = (JsonObject) listed;
      String name = tool.getString("name");
      JsonObject arguments = arguments(name, tool.getJsonObject("inputSchema"), verbs);
      boolean readOnly =
          tool.getJsonObject("annotations", new JsonObject()).getBoolean("readOnlyHint", false);
      targets.add(
          new Target(
              "tools/call " + name,
              session.request(
                  "tools/call", new JsonObject().put("name", name).put("arguments", arguments)),
              readOnly));
    }
    return targets;
  }

  private Target request(String method, JsonObject params, boolean readOnly) {
    String uri = params.getString("uri");
    return new Target(
        uri == null ? method : method + " " + uri, session.request(method, params), readOnly);
  }

  /** Valid arguments: a document tool's from its schema, a verb's from the catalog's sample. */
  private JsonObject arguments(String name, JsonObject inputSchema, JsonArray verbs) {
    for (JsonObject tool : fixture.tools) {
      if (tool.getString("name").equals(name)) {
        return HttpTargets.validToolArgs(tool.getJsonObject("parameters"), fixture, bodies)
            .put("docId", fixture.doc);
      }
    }
    for (Object listed : verbs) {
      JsonObject verb = (JsonObject) listed;
      if (verb.getString("name").equals(name) && verb.getValue("sample") instanceof JsonObject) {
        return verb.getJsonObject("sample").copy().put("roomId", fixture.room);
      }
    }
    JsonObject arguments = new JsonObject();
    JsonObject properties = inputSchema.getJsonObject("properties", new JsonObject());
    if (properties.containsKey("roomId")) {
      arguments.put("roomId", fixture.room);
    }
    if (properties.containsKey("docId")) {
      arguments.put("docId", fixture.doc);
    }
    if (properties.containsKey("message")) {
      arguments.put("message", "draw a box");
    }
    if (properties.containsKey("instruction")) {
      arguments.put("instruction", "add a line");
    }
    return arguments;
  }

  void run(List<Target> targets, int casesPerTarget) {
    List<Target> order = new ArrayList<>();
    targets.forEach(target -> order.addAll(Collections.nCopies(casesPerTarget, target)));
    Collections.shuffle(order, new java.util.Random(bodies.nextInt(Integer.MAX_VALUE)));
    for (int i = 0; i < order.size(); i++) {
      runCase(i, order.get(i));
    }
  }

  private void runCase(int number, Target target) {
    StateFingerprint.Scope scope = fixture.scope();
    Map<String, String> before = fingerprint.capture(scope);
    FuzzBodies.Body body = bodies.next(target.message());
    List<String> mutations = new ArrayList<>(List.of(body.mutation()));
    MultiMap headers = headers(mutations);
    if (body.contentType() == null) {
      headers.add("content-type", "");
    } else {
      headers.add("content-type", body.contentType());
    }
    String mutation = String.join("; ", mutations);
    Answer answer;
    try {
      HttpResponse<Buffer> response = Await.result(session.post("/mcp", headers, body.bytes()), 60);
      answer = new Answer(response.statusCode(), response.bodyAsString());
    } catch (RuntimeException | AssertionError failed) {
      findings.outcome(target.name(), "no answer");
      findings.problem(target.name(), number, mutation, "no answer: " + failed.getMessage());
      settle();
      return;
    }
    boolean refused = refused(answer);
    findings.outcome(target.name(), refused ? "refused" : answer.status() / 100 + "xx");
    if (answer.status() >= 500) {
      findings.problem(
          target.name(), number, mutation, answer.status() + " " + shorten(answer.body()));
    }
    if (body.mustBeRefused() && !refused && answer.status() != 202) {
      findings.problem(target.name(), number, mutation, "accepted: " + shorten(answer.body()));
    }
    if (refused || answer.status() == 202 || target.readOnly()) {
      List<String> changed = StateFingerprint.changed(before, fingerprint.capture(scope));
      if (!changed.isEmpty()) {
        findings.problem(
            target.name(),
            number,
            mutation,
            "state changed after "
                + answer.status()
                + " "
                + shorten(answer.body())
                + ": "
                + changed);
      }
    }
    settle();
  }

  /** The session's headers, sometimes with one dropped or made hostile. */
  private MultiMap headers(List<String> mutations) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    String sessionId = session.session();
    String version = "2025-11-25";
    if (bodies.chance(6)) {
      sessionId = bodies.chance(50) ? null : bodies.hostileParameter(sessionId);
      mutations.add(
          "Mcp-Session-Id " + (sessionId == null ? "dropped" : "'" + shorten(sessionId) + "'"));
    }
    if (bodies.chance(4)) {
      version = bodies.hostileParameter(version);
      mutations.add("MCP-Protocol-Version '" + shorten(version) + "'");
    }
    if (bodies.chance(4)) {
      headers.add(
          "accept", bodies.pick(List.of("application/json", "text/event-stream", "text/html")));
      mutations.add("Accept " + headers.get("accept"));
    }
    if (sessionId != null) {
      headers.add("Mcp-Session-Id", printable(sessionId));
    }
    headers.add("MCP-Protocol-Version", printable(version));
    return headers;
  }

  /** A header value cannot hold control characters: the client would refuse to send it. */
  private static String printable(String value) {
    return value.replaceAll("[\\p{Cntrl}]", "?");
  }

  /** An HTTP refusal, a JSON-RPC error, or a tool's isError — in a JSON or an event-stream answer. */
  static boolean refused(Answer answer) {
    if (answer.status() >= 400) {
      return true;
    }
    if (answer.status() == 202 || answer.body() == null || answer.body().isEmpty()) {
      return false;
    }
    JsonObject message;
    List<JsonObject> events = McpHttp.events(answer.body());
    message = events.isEmpty() ? new JsonObject(answer.body()) : events.get(events.size() - 1);
    if (message.containsKey("error")) {
      return true;
    }
    JsonObject result = message.getJsonObject("result");
    return result != null && result.getBoolean("isError", false);
  }

  /** Whatever an accepted call started (a run) ends before the next case; the fixture rereads what moved. */
  private void settle() {
    Await.result(Eventually.holds(vertx, () -> HttpFuzz.quiet(vertx)));
    fixture.refresh();
  }

  private static String shorten(String text) {
    return text == null || text.length() <= 200 ? text : text.substring(0, 200) + "…";
  }
}
