package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;

/**
 * The same access rules as the HTTP API's ({@code bridge/EdgeAccess}), for a tool or resource that names
 * a room or a document: a role below the one needed is FORBIDDEN; a room the token does not list is
 * FORBIDDEN (the caller named it, so nothing is learnt); a document it cannot reach is NOT_FOUND exactly
 * like one that does not exist, so a document id says nothing about other rooms.
 */
public final class McpAccess {
  private final EventBus bus;

  public McpAccess(EventBus bus) {
    this.bus = bus;
  }

  public Future<Void> room(Grant grant, Role needed, String roomId) {
    if (grant.allowsRoom(roomId, needed)) {
      return Future.succeededFuture();
    }
    return Failure.future(
        FailureCode.FORBIDDEN,
        grant.role().includes(needed)
            ? "this token does not reach room " + roomId
            : "this token's role ("
                + grant.role().wireName()
                + ") cannot do this; it needs "
                + needed.wireName());
  }

  public Future<Void> document(Grant grant, Role needed, String docId) {
    if (grant.role() == Role.ADMIN) {
      return Future.succeededFuture();
    }
    if (!grant.role().includes(needed)) {
      return Failure.future(
          FailureCode.FORBIDDEN,
          "this token's role ("
              + grant.role().wireName()
              + ") cannot do this; it needs "
              + needed.wireName());
    }
    if (grant.documents().contains(docId)
        || grant.documents().contains(Grant.EVERY)
        || grant.rooms().contains(Grant.EVERY)) {
      return Future.succeededFuture();
    }
    Failure absent = new Failure(FailureCode.NOT_FOUND, "no document " + docId);
    return Address.DOC_ROOM
        .ask(bus, new DocumentRef(docId))
        .recover(error -> Future.failedFuture(absentOr(error, absent)))
        .compose(
            answer ->
                grant.allowsDocument(docId, answer.roomId(), needed)
                    ? Future.succeededFuture()
                    : Future.failedFuture(absent));
  }

  private static Throwable absentOr(Throwable error, Failure absent) {
    FailureCode code = Failure.of(error).code();
    return code == FailureCode.NOT_FOUND ? absent : error;
  }
}
