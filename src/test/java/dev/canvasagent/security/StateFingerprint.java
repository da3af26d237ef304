package dev.canvasagent.security;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What the fuzz pass compares around each refused case, read from the verticles over the event bus
 * (what the GET endpoints answer): per room its board (revision and records), its sessions and the
 * viewports its clients sent; per session everything a resume shows (chat, todos, runs, the room's
 * transcript); per document its content, revision, lease, snapshots and history; and the server-wide
 * counts of board commits and runs, which a write to a room outside the scope would move. Each part
 * is hashed on its own, so a difference names the part that changed.
 */
final class StateFingerprint {
  /** The rooms, sessions and documents a fingerprint covers. */
  record Scope(Set<String> rooms, Set<String> sessions, Set<String> docs) {
    Scope {
      rooms = Set.copyOf(rooms);
      sessions = Set.copyOf(sessions);
      docs = Set.copyOf(docs);
    }

    Scope with(Scope more) {
      return new Scope(
          union(rooms, more.rooms), union(sessions, more.sessions), union(docs, more.docs));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
      Set<String> all = new LinkedHashSet<>(a);
      all.addAll(b);
      return all;
    }
  }

  static final String VIEWPORTS = "viewports of ";

  private final Vertx vertx;

  /** Parts beyond the bus's, e.g. the PostgreSQL tables; may be null. */
  private final Supplier<Map<String, String>> extra;

  StateFingerprint(Vertx vertx, Supplier<Map<String, String>> extra) {
    this.vertx = vertx;
    this.extra = extra;
  }

  /** Part name → hash of its content, in name order. */
  Map<String, String> capture(Scope scope) {
    Map<String, Future<String>> parts = new TreeMap<>();
    for (String room : scope.rooms()) {
      parts.put(
          "board " + room,
          read(Address.PATCH_BOARD_GET.address(), new JsonObject().put("roomId", room)));
      parts.put(
          "sessions of " + room,
          read(
              Address.SCHEDULER_SESSION_LIST.address(),
              new JsonObject().put("roomId", room).put("limit", 100)));
      parts.put(VIEWPORTS + room, viewports(room));
    }
    for (String session : scope.sessions()) {
      parts.put(
          "session " + session,
          read(
              Address.SCHEDULER_SESSION_GET.address(), new JsonObject().put("sessionId", session)));
    }
    for (String doc : scope.docs()) {
      parts.put(
          "document " + doc, read(Address.DOC_GET.address(), new JsonObject().put("docId", doc)));
      parts.put(
          "history of document " + doc,
          read(
              Address.DOC_REVISIONS.address(),
              new JsonObject().put("docId", doc).put("limit", 500)));
    }
    parts.put("server-wide counts", counts());
    Await.result(Future.join(new ArrayList<>(parts.values())));
    Map<String, String> hashes = new TreeMap<>();
    parts.forEach((name, part) -> hashes.put(name, part.result()));
    if (extra != null) {
      hashes.putAll(extra.get());
    }
    return hashes;
  }

  /** The names of the parts that differ, or are in one and not the other. */
  static List<String> changed(Map<String, String> before, Map<String, String> after) {
    Set<String> names = new LinkedHashSet<>(before.keySet());
    names.addAll(after.keySet());
    return names.stream()
        .filter(name -> !java.util.Objects.equals(before.get(name), after.get(name)))
        .toList();
  }

  /**
   * The viewports the room's clients sent. Who is connected and who hosts is presence, not state: a
   * stream opened or closed changes it rightly, so it is left out.
   */
  private Future<String> viewports(String room) {
    return vertx
        .eventBus()
        .<JsonObject>request(
            Address.BRIDGE_VIEWPORTS.address(), new JsonObject().put("roomId", room))
        .map(
            reply ->
                hash(
                    new io.vertx.core.json.JsonArray(
                            reply.body().getJsonArray("viewports").stream()
                                .map(viewport -> ((JsonObject) viewport).copy())
                                .peek(viewport -> viewport.remove("host"))
                                .toList())
                        .encode()));
  }

  /** A part's hash; a refusal (an unknown session, say) is a state too: "absent". */
  private Future<String> read(String address, JsonObject ask) {
    return vertx
        .eventBus()
        .<JsonObject>request(address, ask)
        .map(reply -> hash(reply.body().encode()))
        .otherwise(error -> "absent: " + Failure.of(error).code());
  }

  /** Board commits and runs anywhere: a refused request that wrote to a room outside the scope moves them. */
  private Future<String> counts() {
    Future<JsonObject> patch = health("patch-engine");
    Future<JsonObject> runner = health("runner");
    Future<JsonObject> scheduler = health("scheduler");
    return Future.all(patch, runner, scheduler)
        .map(
            all ->
                new JsonObject()
                    .put("commits", patch.result().getValue("commits"))
                    .put("runsActive", runner.result().getValue("active"))
                    .put("runsFinished", runner.result().getValue("finished"))
                    .put("sessionsRunning", scheduler.result().getValue("running"))
                    .put("runsWaiting", scheduler.result().getValue("waiting"))
                    .encode());
  }

  private Future<JsonObject> health(String verticle) {
    return vertx
        .eventBus()
        .<JsonObject>request(Address.health(verticle).address(), new JsonObject())
        .map(reply -> reply.body());
  }

  static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
