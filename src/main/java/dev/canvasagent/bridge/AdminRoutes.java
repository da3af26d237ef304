package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardCacheState;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomDocuments;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomRuns;
import dev.canvasagent.bus.SessionActivity;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.cluster.ClusterView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Optional;

/**
 * The admin views, {@code GET /api/admin/rooms/:roomId} and {@code GET /api/admin/sessions/:sessionId}:
 * a room's or a session's state, gathered from the verticles that hold it (this bridge's rooms, the
 * patch engine's boards, the scheduler's queues, the lease manager's documents), each asked over the
 * bus within {@link #DEADLINE_MS}. They read, never change, and show no personal data: connections are
 * counts, a run is its ids, states and times, a lease its holder as the document's readers see it. An
 * admin's token only (with auth off, every caller on loopback holds the open grant, an admin's).
 */
final class AdminRoutes {
  /** How long each verticle has to answer; a part that does not answer in time fails the view (TIMEOUT). */
  static final long DEADLINE_MS = 2_000;

  private final Vertx vertx;
  private final RoomHub hub;
  private final ClusterView cluster;

  AdminRoutes(Vertx vertx, RoomHub hub, ClusterView cluster) {
    this.vertx = vertx;
    this.hub = hub;
    this.cluster = cluster;
  }

  void mount(Router router) {
    router.get("/api/admin/rooms/:roomId").handler(this::room);
    router.get("/api/admin/sessions/:sessionId").handler(this::session);
  }

  /** True for an admin's grant; otherwise answered 403, saying nothing of the id. */
  private static boolean admin(RoutingContext ctx) {
    if (EdgeAccess.grant(ctx).role() == Role.ADMIN) {
      return true;
    }
    HttpErrors.send(ctx, FailureCode.FORBIDDEN, "the admin views need an admin's token");
    return false;
  }

  private DeliveryOptions deadline() {
    return new DeliveryOptions().setSendTimeout(DEADLINE_MS);
  }

  private void room(RoutingContext ctx) {
    if (!admin(ctx)) {
      return;
    }
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null) {
      return;
    }
    RoomRef ref = new RoomRef(roomId);
    Future<BoardCacheState> board =
        Address.PATCH_BOARD_STATE.ask(vertx.eventBus(), ref, deadline());
    Future<RoomRuns> runs = Address.SCHEDULER_ROOM_RUNS.ask(vertx.eventBus(), ref, deadline());
    Future<RoomDocuments> documents =
        Address.DOC_ROOM_LEASES.ask(vertx.eventBus(), ref, deadline());
    Future.all(board, runs, documents)
        .onSuccess(
            all -> {
              Optional<Room> here = hub.room(roomId);
              boolean known =
                  here.isPresent()
                      || board.result().cachedRevision() != null
                      || board.result().storedRevision() > 0
                      || !runs.result().running().isEmpty()
                      || runs.result().queued() > 0
                      || !documents.result().documents().isEmpty();
              if (!known) {
                HttpErrors.send(
                    ctx,
                    FailureCode.NOT_FOUND,
                    "no room "
                        + roomId
                        + ": no connections, board, runs or documents on node "
                        + cluster.nodeId());
                return;
              }
              JsonObject view =
                  new JsonObject()
                      .put("ok", true)
                      .put("roomId", roomId)
                      .put("nodeId", cluster.nodeId())
                      .put("connections", connections(here))
                      .put(
                          "host",
                          here.flatMap(Room::hostId)
                              .map(id -> new JsonObject().put("clientId", id))
                              .orElse(null))
                      .put("replay", here.map(Room::replayPosition).orElse(null))
                      .put("pendingAcks", here.map(Room::pendingAcks).orElse(0))
                      .put(
                          "board",
                          new JsonObject()
                              .put("cachedRevision", board.result().cachedRevision())
                              .put("storedRevision", board.result().storedRevision()))
                      .put(
                          "runs",
                          new JsonObject()
                              .put(
                                  "running",
                                  new JsonArray(
                                      runs.result().running().stream()
                                          .map(run -> (Object) run.toJson())
                                          .toList()))
                              .put("queued", runs.result().queued()));
              if (!documents.result().documents().isEmpty()) {
                view.put("documents", documents(documents.result()));
              }
              JsonResponse.send(ctx, 200, view);
            })
        .onFailure(error -> HttpErrors.send(ctx, error));
  }

  /** This node's clients of the room: the total and a count per transport, always all three. */
  private static JsonObject connections(Optional<Room> here) {
    Map<String, Integer> counts = here.map(Room::clientsByTransport).orElse(Map.of());
    JsonObject connections =
        new JsonObject().put("total", counts.values().stream().mapToInt(Integer::intValue).sum());
    for (String transport : new String[] {"sse", "websocket", "sockjs"}) {
      connections.put(transport, counts.getOrDefault(transport, 0));
    }
    return connections;
  }

  private static JsonArray documents(RoomDocuments documents) {
    JsonArray listed = new JsonArray();
    documents
        .documents()
        .forEach(
            document ->
                listed.add(
                    new JsonObject()
                        .put("docId", document.docId())
                        .put("lease", document.lease().toJson())
                        .put("agentSession", document.agentSession())));
    return listed;
  }

  private void session(RoutingContext ctx) {
    if (!admin(ctx)) {
      return;
    }
    String sessionId = ctx.pathParam("sessionId");
    if (sessionId == null || !SessionRoutes.SESSION_ID.matcher(sessionId).matches()) {
      HttpErrors.send(
          ctx,
          FailureCode.INVALID_REQUEST,
          "sessionId must match " + SessionRoutes.SESSION_ID.pattern());
      return;
    }
    Address.SCHEDULER_SESSION_ACTIVITY
        .ask(vertx.eventBus(), SessionRef.of(sessionId), deadline())
        .compose(
            activity ->
                Address.DOC_ROOM_LEASES
                    .ask(vertx.eventBus(), new RoomRef(activity.roomId()), deadline())
                    .map(documents -> sessionView(activity, documents)))
        .onSuccess(view -> JsonResponse.send(ctx, 200, view))
        .onFailure(error -> HttpErrors.send(ctx, error));
  }

  /** The session's activity, and the lease its agent holds on one of the room's documents, if any. */
  private static JsonObject sessionView(SessionActivity activity, RoomDocuments documents) {
    JsonObject lease =
        documents.documents().stream()
            .filter(document -> activity.sessionId().equals(document.agentSession()))
            .findFirst()
            .map(
                document ->
                    new JsonObject()
                        .put("docId", document.docId())
                        .mergeIn(document.lease().toJson()))
            .orElse(null);
    return new JsonObject()
        .put("ok", true)
        .put("sessionId", activity.sessionId())
        .put("roomId", activity.roomId())
        .put("ownerNode", activity.ownerNode())
        .put(
            "queue",
            new JsonObject()
                .put("length", activity.queued().size())
                .put("runIds", new JsonArray(activity.queued())))
        .put("running", activity.running() == null ? null : activity.running().toJson())
        .put("lastRun", activity.lastRun() == null ? null : activity.lastRun().toJson())
        .put("lease", lease);
  }
}
