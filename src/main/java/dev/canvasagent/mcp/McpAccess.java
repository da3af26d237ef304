package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentSessionRef;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.SessionRef;
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

  /**
   * A canvas session the arguments may name (null: none, allowed): reachable when the token may act as
   * {@code needed} in its room. One it cannot reach is SESSION_NOT_FOUND exactly like one that does not
   * exist, as {@code /api} answers it, so a session id says nothing about other rooms.
   */
  public Future<Void> sessionIfNamed(Grant grant, Role needed, String sessionId) {
    if (sessionId == null || grant.role() == Role.ADMIN) {
      return Future.succeededFuture();
    }
    if (!grant.role().includes(needed)) {
      return roleTooLow(grant, needed);
    }
    Failure absent = new Failure(FailureCode.SESSION_NOT_FOUND, "no session " + sessionId);
    return Address.SCHEDULER_SESSION_ROOM
        .ask(bus, SessionRef.of(sessionId))
        .recover(error -> Future.failedFuture(absentOr(error, absent)))
        .compose(
            answer ->
                grant.allowsRoom(answer.roomId(), needed)
                    ? Future.succeededFuture()
                    : Future.failedFuture(absent));
  }

  /**
   * A document-agent session ({@code canvas_session_id}, or a document id standing for its own
   * session): reachable when its document is; an unknown one is NOT_FOUND like an unreachable one.
   */
  public Future<Void> agentSession(Grant grant, Role needed, String canvasSessionId) {
    if (grant.role() == Role.ADMIN) {
      return Future.succeededFuture();
    }
    if (!grant.role().includes(needed)) {
      return roleTooLow(grant, needed);
    }
    Failure absent = new Failure(FailureCode.NOT_FOUND, "no document " + canvasSessionId);
    return Address.DOC_AGENT_SESSION_DOCUMENT
        .ask(bus, new AgentSessionRef(canvasSessionId))
        .recover(error -> Future.failedFuture(absentOr(error, absent)))
        .compose(
            answer ->
                document(grant, needed, answer.docId())
                    .recover(unreachable -> Future.failedFuture(absentOr(unreachable, absent))));
  }

  private static Future<Void> roleTooLow(Grant grant, Role needed) {
    return Failure.future(
        FailureCode.FORBIDDEN,
        "this token's role ("
            + grant.role().wireName()
            + ") cannot do this; it needs "
            + needed.wireName());
  }

  private static Throwable absentOr(Throwable error, Failure absent) {
    FailureCode code = Failure.of(error).code();
    return code == FailureCode.NOT_FOUND || code == FailureCode.SESSION_NOT_FOUND ? absent : error;
  }
}
