package dev.canvasagent.bridge;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentSessionRef;
import dev.canvasagent.bus.BusMessage;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.Endpoint;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.SessionRef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Who may do what at the edge. Every {@code /api} request is authenticated first ({@link
 * #authenticate}): a bearer token in {@code Authorization}, or, on the two streaming routes that
 * browsers open without headers (SSE, WebSocket, and an asset's bytes), an {@code access_token} query parameter. Each
 * route then asks for a role in the room, session or document it touches ({@link #room},
 * {@link #session}, {@link #document}) before it does anything. A room the request names itself is
 * refused 403 (the caller named it; nothing is learnt); a session or document it names by id and may
 * not reach is answered exactly as one that does not exist, 404, so an id says nothing about other
 * rooms. With auth off (loopback, no secret) every request holds {@link Grant#open()}, and nothing is
 * looked up.
 */
final class EdgeAccess {
  static final String GRANT_KEY = "canvas.grant";
  static final String TOKEN_PARAMETER = "access_token";

  /**
   * The routes browsers open without being able to set headers: the streams, and an asset's bytes
   * (an {@code <img>} or {@code <video>} element's request).
   */
  private static final Pattern STREAM_PATH =
      Pattern.compile("/api/rooms/[^/]+/(events|ws|assets/[0-9a-f]{64})");

  private final Vertx vertx;
  private final Optional<AccessTokens> tokens;

  EdgeAccess(Vertx vertx, Optional<AccessTokens> tokens) {
    this.vertx = vertx;
    this.tokens = tokens;
  }

  boolean enabled() {
    return tokens.isPresent();
  }

  /**
   * The first handler of every {@code /api} route: 400 for a query string that does not decode, 401
   * without a valid token, else the grant is put on the context.
   */
  void authenticate(RoutingContext ctx) {
    if (!queryDecodes(ctx)) {
      return;
    }
    if (tokens.isEmpty()) {
      ctx.put(GRANT_KEY, Grant.open());
      ctx.next();
      return;
    }
    Optional<String> token = token(ctx);
    if (token.isEmpty()) {
      return;
    }
    tokens
        .get()
        .verify(token.get())
        .onComplete(
            verified -> {
              if (verified.failed()) {
                refuse(ctx, verified.cause());
                return;
              }
              ctx.put(GRANT_KEY, verified.result());
              ctx.next();
            });
  }

  /**
   * Whether the query string decodes; if not, it has been answered 400. Left to the router, the
   * decoding failure would be logged with its message, which quotes the whole URI: an
   * {@code access_token} in it would be in the log.
   */
  private static boolean queryDecodes(RoutingContext ctx) {
    try {
      ctx.queryParams();
      return true;
    } catch (RuntimeException undecodable) {
      HttpErrors.send(
          ctx, FailureCode.INVALID_REQUEST, "the query string is not valid percent-encoding");
      return false;
    }
  }

  /** The request's token, or empty after answering 401 (two tokens, or a malformed header, or none). */
  private Optional<String> token(RoutingContext ctx) {
    List<String> headers = ctx.request().headers().getAll(HttpHeaders.AUTHORIZATION);
    List<String> parameters = ctx.queryParam(TOKEN_PARAMETER);
    boolean queryAllowed =
        ctx.request().method() == HttpMethod.GET
            && STREAM_PATH.matcher(ctx.request().path()).matches();
    if (!parameters.isEmpty() && !queryAllowed) {
      unauthenticated(
          ctx,
          "an access_token query parameter is accepted only by the event stream, the WebSocket and an asset's bytes; send Authorization: Bearer");
      return Optional.empty();
    }
    if (headers.size() + parameters.size() > 1) {
      unauthenticated(ctx, "send one access token, not " + (headers.size() + parameters.size()));
      return Optional.empty();
    }
    if (headers.size() == 1) {
      String header = headers.get(0);
      Optional<String> bearer =
          header.length() < 8 ? Optional.empty() : AccessTokens.bearerToken(header);
      if (bearer.isEmpty()) {
        unauthenticated(ctx, "Authorization must be 'Bearer <token>'");
      }
      return bearer;
    }
    if (parameters.size() == 1) {
      return Optional.of(parameters.get(0));
    }
    unauthenticated(
        ctx,
        "an access token is required: Authorization: Bearer <token>"
            + (queryAllowed ? " or ?access_token=<token>" : ""));
    return Optional.empty();
  }

  static Grant grant(RoutingContext ctx) {
    Grant grant = ctx.get(GRANT_KEY);
    if (grant == null) {
      throw new IllegalStateException("route " + ctx.request().path() + " was not authenticated");
    }
    return grant;
  }

  /** True when the request may act as {@code needed} in {@code roomId}; otherwise it has been answered 403. */
  static boolean room(RoutingContext ctx, Role needed, String roomId) {
    if (grant(ctx).allowsRoom(roomId, needed)) {
      return true;
    }
    forbidden(ctx, needed, "room " + roomId);
    return false;
  }

  /**
   * An admin's grant reaches every room and document, and with auth off every request holds the
   * open grant, an admin's: nothing needs looking up.
   */
  private static boolean unrestricted(Grant grant) {
    return grant.role() == Role.ADMIN;
  }

  /**
   * Runs {@code allowed} when the request may act as {@code needed} in the session's room. Otherwise:
   * 403 when the token's role is below {@code needed} (whatever the id: that says nothing about it),
   * and 404 SESSION_NOT_FOUND when the session does not exist or is in a room the token does not
   * reach — the same answer, so a token cannot learn which sessions other rooms have.
   */
  void session(RoutingContext ctx, Role needed, String sessionId, Runnable allowed) {
    Grant grant = grant(ctx);
    if (unrestricted(grant)) {
      allowed.run();
      return;
    }
    if (!grant.role().includes(needed)) {
      forbidden(ctx, needed, "session " + sessionId + "'s room");
      return;
    }
    Failure absent = new Failure(FailureCode.SESSION_NOT_FOUND, "no session " + sessionId);
    lookup(
        ctx,
        Address.SCHEDULER_SESSION_ROOM,
        SessionRef.of(sessionId),
        absent,
        answer -> reachedOr(ctx, grant.allowsRoom(answer.roomId(), needed), absent, allowed));
  }

  /** {@link #session} for a session a body may name; without one, {@code allowed} runs. */
  void sessionIfNamed(RoutingContext ctx, Role needed, String sessionId, Runnable allowed) {
    if (sessionId == null) {
      allowed.run();
    } else {
      session(ctx, needed, sessionId, allowed);
    }
  }

  /**
   * Runs {@code allowed} when the request may act as {@code needed} on the document; else 403 for a
   * role below {@code needed}, and 404 NOT_FOUND alike for a document that does not exist and one the
   * token does not reach.
   */
  void document(RoutingContext ctx, Role needed, String docId, Runnable allowed) {
    document(
        ctx, needed, docId, new Failure(FailureCode.NOT_FOUND, "no document " + docId), allowed);
  }

  private void document(
      RoutingContext ctx, Role needed, String docId, Failure absent, Runnable allowed) {
    Grant grant = grant(ctx);
    if (unrestricted(grant)) {
      allowed.run();
      return;
    }
    if (!grant.role().includes(needed)) {
      forbidden(ctx, needed, "document " + docId);
      return;
    }
    if (grant.documents().contains(docId)
        || grant.documents().contains(Grant.EVERY)
        || grant.rooms().contains(Grant.EVERY)) {
      allowed.run();
      return;
    }
    lookup(
        ctx,
        Address.DOC_ROOM,
        new DocumentRef(docId),
        absent,
        answer ->
            reachedOr(ctx, grant.allowsDocument(docId, answer.roomId(), needed), absent, allowed));
  }

  /**
   * The document a document-agent session works on, then {@link #document}. Whatever is missing or out
   * of reach — the session's document, or a document of that id — is answered as "no document" under
   * the id the request gave, so the answer names no document the caller did not.
   */
  void agentSession(RoutingContext ctx, Role needed, String canvasSessionId, Runnable allowed) {
    Grant grant = grant(ctx);
    if (unrestricted(grant)) {
      allowed.run();
      return;
    }
    if (!grant.role().includes(needed)) {
      forbidden(ctx, needed, "document " + canvasSessionId);
      return;
    }
    Failure absent = new Failure(FailureCode.NOT_FOUND, "no document " + canvasSessionId);
    lookup(
        ctx,
        Address.DOC_AGENT_SESSION_DOCUMENT,
        new AgentSessionRef(canvasSessionId),
        absent,
        answer -> document(ctx, needed, answer.docId(), absent, allowed));
  }

  private static void reachedOr(
      RoutingContext ctx, boolean reached, Failure absent, Runnable allowed) {
    if (reached) {
      allowed.run();
    } else {
      HttpErrors.send(ctx, absent);
    }
  }

  /** Asks {@code endpoint}; an id it does not know is answered {@code absent}, any other failure as it is. */
  private <Q extends BusMessage, R extends BusMessage> void lookup(
      RoutingContext ctx, Endpoint<Q, R> endpoint, Q ask, Failure absent, Consumer<R> found) {
    endpoint
        .ask(vertx.eventBus(), ask)
        .onSuccess(found::accept)
        .onFailure(error -> HttpErrors.send(ctx, absentOr(error, absent)));
  }

  /** {@code absent} for a failure that says the id is unknown, else the failure as it is. */
  private static Throwable absentOr(Throwable error, Failure absent) {
    FailureCode code = Failure.of(error).code();
    return code == FailureCode.NOT_FOUND || code == FailureCode.SESSION_NOT_FOUND ? absent : error;
  }

  private static void forbidden(RoutingContext ctx, Role needed, String what) {
    Grant grant = grant(ctx);
    HttpErrors.send(
        ctx,
        FailureCode.FORBIDDEN,
        grant.role().includes(needed)
            ? "this token does not grant " + what
            : "this needs the "
                + needed.wireName()
                + " role in "
                + what
                + "; this token is "
                + grant.role().wireName());
  }

  private static void unauthenticated(RoutingContext ctx, String why) {
    refuse(ctx, new Failure(FailureCode.UNAUTHENTICATED, why));
  }

  /** 401 with the challenge RFC 6750 asks for. */
  static void refuse(RoutingContext ctx, Throwable error) {
    Failure failure = Failure.of(error);
    if (!ctx.response().headWritten()) {
      ctx.response()
          .putHeader(
              "WWW-Authenticate",
              failure.code() == FailureCode.TOKEN_EXPIRED
                  ? "Bearer error=\"invalid_token\", error_description=\"the token has expired\""
                  : "Bearer");
    }
    HttpErrors.send(ctx, failure);
  }

  /** The grant's room check for a client joined over a stream. */
  static Future<Void> check(Grant grant, String roomId, Role needed) {
    return grant.allowsRoom(roomId, needed)
        ? Future.succeededFuture()
        : Failure.future(
            FailureCode.FORBIDDEN,
            "this token does not grant the " + needed.wireName() + " role in room " + roomId);
  }
}
