package dev.canvasagent.security;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** What the HTTP fuzz pass aims at: every JSON endpoint with a valid body, each document tool, the GETs with their queries. */
final class HttpTargets {
  private HttpTargets() {}

  /**
   * One endpoint. {@code path} has placeholders ({room}, {session}, {doc}, {tool}); {@code body} is a
   * valid body (null: no body); {@code query} the valid query parameters; {@code stream}: the answer
   * is an event stream, so only its status is read.
   */
  record Target(
      String name,
      HttpMethod method,
      String path,
      Function<FuzzFixture, JsonObject> body,
      Map<String, String> query,
      FuzzFixture.Lease lease,
      boolean stream) {
    static Target json(
        String name,
        HttpMethod method,
        String path,
        FuzzFixture.Lease lease,
        Function<FuzzFixture, JsonObject> body) {
      return new Target(name, method, path, body, Map.of(), lease, false);
    }

    /** {@code query}: name, valid value, …; a value {@code {room}} is the fixture's room. */
    static Target get(String path, String... query) {
      Map<String, String> parameters = new LinkedHashMap<>();
      for (int i = 0; i < query.length; i += 2) {
        parameters.put(query[i], query[i + 1]);
      }
      return new Target(
          "GET " + path, HttpMethod.GET, path, null, parameters, FuzzFixture.Lease.ANY, false);
    }

    boolean writes() {
      return method != HttpMethod.GET;
    }
  }

  /** A valid argument object for a document tool, from its schema, using the fixture's lease and revision. */
  static JsonObject validToolArgs(JsonObject schema, FuzzFixture fixture, FuzzBodies random) {
    JsonObject properties = schema.getJsonObject("properties", new JsonObject());
    Set<String> required =
        new java.util.HashSet<>(
            schema.getJsonArray("required", new JsonArray()).stream()
                .map(String.class::cast)
                .toList());
    JsonObject args = new JsonObject();
    for (String name : properties.fieldNames()) {
      if (!required.contains(name)
          && !name.equals("lease_id")
          && !name.equals("canvas_epoch")
          && !random.chance(40)) {
        continue;
      }
      JsonObject property = properties.getJsonObject(name);
      args.put(
          name,
          switch (name) {
            case "lease_id" -> fixture.leaseId;
            case "canvas_epoch" -> fixture.epoch;
            case "base_revision_id", "from_revision_id", "to_revision_id" -> fixture.revisionId;
            case "snapshot_id" -> fixture.snapshotId;
            case "start_line", "insert_after_line" -> 1;
            case "end_line" -> 2;
            case "patch" -> "--- a\n+++ b\n@@ -2,1 +2,1 @@\n-alpha\n+alpha!\n";
            case "query", "search_pattern" -> "alpha";
            default ->
                switch (property.getString("type", "string")) {
                  case "integer" -> Math.max(1, property.getInteger("minimum", 1));
                  case "boolean" -> random.chance(50);
                  case "string" ->
                      property.containsKey("enum")
                          ? property.getJsonArray("enum").getValue(0)
                          : "fuzz text";
                  default -> "fuzz text";
                };
          });
    }
    return args;
  }

  /** Every JSON endpoint, each document tool, the query-string GETs and the two streams. */
  static List<Target> targets(FuzzFixture fixture, FuzzBodies bodies) {
    List<Target> targets =
        new ArrayList<>(
            List.of(
                Target.json(
                    "POST /api/canvas-agent/run",
                    HttpMethod.POST,
                    "/api/canvas-agent/run",
                    FuzzFixture.Lease.ANY,
                    f ->
                        new JsonObject()
                            .put("roomId", f.room)
                            .put("message", "draw a box")
                            .put("sessionId", f.session)
                            .put("model", "debug/fake")
                            .put("selection", new JsonArray().add("shape:fuzz1"))
                            .put(
                                "viewport",
                                new JsonObject()
                                    .put("x", 0)
                                    .put("y", 0)
                                    .put("w", 800)
                                    .put("h", 600))),
                Target.json(
                    "POST /api/canvas-agent/cancel",
                    HttpMethod.POST,
                    "/api/canvas-agent/cancel",
                    FuzzFixture.Lease.ANY,
                    f -> new JsonObject().put("sessionId", f.session)),
                Target.json(
                    "POST /api/canvas-agent/edit-request",
                    HttpMethod.POST,
                    "/api/canvas-agent/edit-request",
                    FuzzFixture.Lease.FREE,
                    f ->
                        new JsonObject()
                            .put("canvas_session_id", f.doc)
                            .put("instruction", "tidy the list")
                            .put("context", "fuzz")
                            .put("model", "debug/fake")),
                Target.json(
                    "POST /api/rooms/{id}/changes",
                    HttpMethod.POST,
                    "/api/rooms/{room}/changes",
                    FuzzFixture.Lease.ANY,
                    f ->
                        new JsonObject()
                            .put("baseRevision", f.boardRevision)
                            .put("put", new JsonArray().add(f.newShape()))),
                Target.json(
                    "POST /api/rooms/{id}/transcript",
                    HttpMethod.POST,
                    "/api/rooms/{room}/transcript",
                    FuzzFixture.Lease.ANY,
                    f ->
                        new JsonObject()
                            .put("speaker", "ann")
                            .put("text", "hello there")
                            .put("ts", System.currentTimeMillis() - 1_000)),
                Target.json(
                    "POST /api/sessions",
                    HttpMethod.POST,
                    "/api/sessions",
                    FuzzFixture.Lease.ANY,
                    f ->
                        new JsonObject()
                            .put("roomId", f.room)
                            .put("title", "fuzz session")
                            .put("model", "debug/fake")),
                Target.json(
                    "PATCH /api/sessions/{id}",
                    HttpMethod.PATCH,
                    "/api/sessions/{session}",
                    FuzzFixture.Lease.ANY,
                    f ->
                        new JsonObject()
                            .put("title", "renamed")
                            .put("model", "debug/fake")
                            .put(
                                "contextItems",
                                new JsonArray()
                                    .add(
                                        new JsonObject()
                                            .put("type", "shape")
                                            .put("shapeId", "shape:fuzz1"))
                                    .add(
                                        new JsonObject()
                                            .put("type", "area")
                                            .put(
                                                "bounds",
                                                new JsonObject()
                                                    .put("x", 0)
                                                    .put("y", 0)
                                                    .put("w", 10)
                                                    .put("h", 10)))
                                    .add(
                                        new JsonObject()
                                            .put("type", "point")
                                            .put(
                                                "point",
                                                new JsonObject().put("x", 1).put("y", 2))))),
                Target.json(
                    "POST /api/docs",
                    HttpMethod.POST,
                    "/api/docs",
                    FuzzFixture.Lease.ANY,
                    f ->
                        new JsonObject()
                            .put("roomId", f.room)
                            .put("title", "fuzz doc")
                            .put("content", "# New\n")),
                Target.json(
                    "PUT /api/docs/{id}",
                    HttpMethod.PUT,
                    "/api/docs/{doc}",
                    FuzzFixture.Lease.ANY,
                    f ->
                        new JsonObject()
                            .put("content", FuzzFixture.CONTENT + "delta\n")
                            .put("baseRevisionId", f.revisionId)),
                Target.json(
                    "POST /api/docs/{id}/agent",
                    HttpMethod.POST,
                    "/api/docs/{doc}/agent",
                    FuzzFixture.Lease.FREE,
                    f ->
                        new JsonObject()
                            .put("instruction", "fix the typo")
                            .put("model", "debug/fake")
                            .put("sessionId", "fuzz-doc-agent"))));
    for (JsonObject tool : fixture.tools) {
      String name = tool.getString("name");
      JsonObject schema = tool.getJsonObject("parameters");
      FuzzFixture.Lease lease =
          name.equals("canvas_check_out") ? FuzzFixture.Lease.FREE : FuzzFixture.Lease.HELD;
      targets.add(
          new Target(
              "POST /api/docs/{id}/tools/" + name,
              HttpMethod.POST,
              "/api/docs/{doc}/tools/{tool}",
              f -> validToolArgs(schema, f, bodies),
              Map.of(),
              lease,
              false));
    }
    targets.addAll(
        List.of(
            Target.get("/api/rooms/{room}/revisions", "after", "0", "limit", "10"),
            Target.get("/api/rooms/{room}/board"),
            Target.get("/api/sessions", "roomId", "{room}", "limit", "5"),
            Target.get("/api/sessions/{session}", "roomId", "{room}"),
            Target.get("/api/sessions/{session}/todos", "status", "open"),
            Target.get("/api/docs/{doc}"),
            Target.get("/api/docs/{doc}/revisions", "limit", "5"),
            Target.get("/api/docs/tools"),
            Target.get("/api/catalog"),
            // A plain GET of the WebSocket route: no upgrade, so it must be refused, not left
            // hanging.
            Target.get("/api/rooms/{room}/ws", "lastEventId", "1"),
            new Target(
                "GET /api/rooms/{room}/events",
                HttpMethod.GET,
                "/api/rooms/{room}/events",
                null,
                Map.of(),
                FuzzFixture.Lease.ANY,
                true)));
    return targets;
  }
}
