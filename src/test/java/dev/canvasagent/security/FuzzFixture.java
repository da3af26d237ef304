package dev.canvasagent.security;

import dev.canvasagent.bus.Address;
import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * The world the HTTP fuzz works in: one room with a session and a document (a snapshot of it saved),
 * and what a valid request needs to know about them now: the board's revision, the document's
 * revision, and the lease the fuzzer holds on it. Built and kept current over the event bus, as the
 * subject the fuzzed requests carry (auth is off: the open grant's), so its lease is theirs to use.
 */
final class FuzzFixture {
  static final String SUBJECT = dev.canvasagent.auth.Grant.open().subject();
  static final String CONTENT = "# Fuzz\nalpha\nbeta\ngamma\n";

  /** What a target needs of the document's lease before its case. */
  enum Lease {
    HELD,
    FREE,
    ANY
  }

  final String room;
  final String session;
  final String doc;
  final String snapshotId;

  /** The document tools as {@code GET /api/docs/tools} lists them: {@code {name, kind, parameters}}. */
  final List<JsonObject> tools;

  private final Vertx vertx;
  String leaseId = "none";
  long epoch;

  /**
   * When the lease the fixture checked out was taken: readers never see a lease's id, so the lease the
   * document shows is the fixture's own while it was taken then (a fuzzed check-out takes another).
   */
  private Long ownHeldSince;

  String revisionId;
  long boardRevision;
  private int shapes;

  private FuzzFixture(
      Vertx vertx,
      String room,
      String session,
      String doc,
      String snapshotId,
      List<JsonObject> tools) {
    this.vertx = vertx;
    this.room = room;
    this.session = session;
    this.doc = doc;
    this.snapshotId = snapshotId;
    this.tools = tools;
  }

  static FuzzFixture create(Vertx vertx, String room, JsonArray tools) {
    JsonObject session =
        ask(
            vertx,
            Address.SCHEDULER_SESSION_CREATE.address(),
            new JsonObject().put("roomId", room).put("title", "fuzz"));
    JsonObject doc =
        ask(
            vertx,
            Address.DOC_CREATE.address(),
            new JsonObject()
                .put("id", room + "-doc")
                .put("roomId", room)
                .put("title", "Fuzz")
                .put("content", CONTENT)
                .put("subject", SUBJECT));
    String docId = doc.getString("id");
    JsonObject lease = tool(vertx, docId, "canvas_check_out", new JsonObject());
    JsonObject snapshot =
        tool(
            vertx,
            docId,
            "canvas_save_snapshot",
            new JsonObject()
                .put("lease_id", lease.getString("lease_id"))
                .put("canvas_epoch", lease.getLong("canvas_epoch"))
                .put("label", "start"));
    FuzzFixture fixture =
        new FuzzFixture(
            vertx,
            room,
            session.getJsonObject("session").getString("id"),
            docId,
            snapshot.getString("snapshot_id"),
            tools.stream().map(JsonObject.class::cast).toList());
    fixture.took(lease);
    fixture.refresh();
    return fixture;
  }

  /** The rooms, session and document every fingerprint of the HTTP pass covers. */
  StateFingerprint.Scope scope() {
    return new StateFingerprint.Scope(Set.of(room), Set.of(session), Set.of(doc));
  }

  /** Reads the board's and the document's revisions and the lease after something may have changed them. */
  void refresh() {
    boardRevision =
        ask(vertx, Address.PATCH_BOARD_GET.address(), new JsonObject().put("roomId", room))
            .getLong("revision");
    JsonObject document = ask(vertx, Address.DOC_GET.address(), new JsonObject().put("docId", doc));
    revisionId = document.getString("revisionId");
    if (!ours(document.getJsonObject("lease"))) {
      leaseId = "none";
    }
  }

  private void took(JsonObject lease) {
    leaseId = lease.getString("lease_id");
    epoch = lease.getLong("canvas_epoch");
    ownHeldSince = lease.getLong("held_since");
  }

  private boolean ours(JsonObject lease) {
    return lease.getBoolean("held")
        && SUBJECT.equals(lease.getString("holder"))
        && ownHeldSince != null
        && ownHeldSince.equals(lease.getLong("held_since"));
  }

  /** Makes the lease what the next case needs; true when that took a write (the state fingerprint is then stale). */
  boolean prepare(Lease need) {
    if (need == Lease.ANY) {
      return false;
    }
    JsonObject lease =
        ask(vertx, Address.DOC_GET.address(), new JsonObject().put("docId", doc))
            .getJsonObject("lease");
    boolean held = lease.getBoolean("held");
    if (need == Lease.HELD && ours(lease) || need == Lease.FREE && !held) {
      return false;
    }
    if (held) {
      ask(vertx, Address.DOC_PREEMPT.address(), new JsonObject().put("docId", doc));
    }
    if (need == Lease.HELD) {
      took(tool(vertx, doc, "canvas_check_out", new JsonObject()));
    }
    refresh();
    return true;
  }

  /** A complete shape record no board has yet. */
  JsonObject newShape() {
    shapes++;
    return dev.canvasagent.support.TestShapes.geo("fuzz" + shapes, 10 * shapes, 20, 100, 60);
  }

  private static JsonObject tool(Vertx vertx, String docId, String tool, JsonObject args) {
    return ask(
        vertx,
        Address.DOC_TOOL.address(),
        new JsonObject()
            .put("docId", docId)
            .put("tool", tool)
            .put("args", args)
            .put("subject", SUBJECT));
  }

  private static JsonObject ask(Vertx vertx, String address, JsonObject body) {
    return Await.result(vertx.eventBus().<JsonObject>request(address, body)).body();
  }
}
