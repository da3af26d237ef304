package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentSessionRef;
import dev.canvasagent.bus.BusMessage;
import dev.canvasagent.bus.DelegatedEditRequest;
import dev.canvasagent.bus.DocumentAgentRequest;
import dev.canvasagent.bus.DocumentCreateRequest;
import dev.canvasagent.bus.DocumentEditRequest;
import dev.canvasagent.bus.DocumentHistoryRequest;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.DocumentRoom;
import dev.canvasagent.bus.DocumentToolCall;
import dev.canvasagent.bus.Endpoint;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * {@code /api/docs}: create, read and edit Markdown documents, preempt their lease, and call the
 * document tools ({@code POST /api/docs/{id}/tools/{tool}}, arguments checked by the lease manager
 * against {@code doctools/<tool>.json}; {@code GET /api/docs/tools} lists them). Every write carries the
 * token's subject ({@link #actor}), which binds a lease to its holder and signs the revision: it comes
 * from the grant, never from the body.
 */
final class DocumentRoutes {
  static final Pattern DOC_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  /** What {@link #create} names a document: {@code doc-} and a random UUID. */
  static final Pattern CREATED_DOC_ID =
      Pattern.compile("doc-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  static final int DEFAULT_REVISIONS = 50;
  static final int MAX_REVISIONS = 500;
  static final Pattern TOOL = Pattern.compile("[a-z_]{1,64}");

  private final Vertx vertx;
  private final EdgeAccess access;
  private final EdgeLimits limits;
  private final DocumentToolCatalog catalog;
  private final int bodyLimitBytes;
  private final JsonSchemaFile createSchema = JsonSchemaFile.load("api/doc-create.json");
  private final JsonSchemaFile editSchema = JsonSchemaFile.load("api/doc-edit.json");
  private final JsonSchemaFile agentSchema = JsonSchemaFile.load("api/doc-agent.json");
  private final JsonSchemaFile editRequestSchema = JsonSchemaFile.load("api/edit-request.json");
  private final long delegationTimeoutMs;

  /** {@code maxContentBytes}: the largest document; a body may hold it JSON-escaped. */
  /** The largest instruction body: an instruction, its context and a few short fields. */
  static final int AGENT_BODY_LIMIT_BYTES = 256 * 1024;

  /**
   * {@code maxContentBytes}: the largest document; a body may hold it JSON-escaped. {@code
   * agentTimeoutMs}: how long a document-agent loop may run, so a delegation waits a little longer.
   */
  DocumentRoutes(
      Vertx vertx,
      EdgeAccess access,
      EdgeLimits limits,
      DocumentToolCatalog catalog,
      int maxContentBytes,
      long agentTimeoutMs) {
    this.vertx = vertx;
    this.access = access;
    this.limits = limits;
    this.delegationTimeoutMs = delegationTimeoutMs(agentTimeoutMs);
    this.catalog = catalog;
    this.bodyLimitBytes = maxContentBytes * 2 + 64 * 1024;
  }

  /** How long a delegated edit may take: the document agent's loop, and a little longer. */
  static long delegationTimeoutMs(long agentTimeoutMs) {
    return agentTimeoutMs + 5_000;
  }

  void mount(Router router) {
    JsonBody body = JsonBody.upTo(bodyLimitBytes, "a document body");
    router
        .get("/api/docs/tools")
        .handler(
            ctx ->
                JsonResponse.send(
                    ctx, 200, new JsonObject().put("ok", true).put("tools", catalog.describe())));
    body.on(router.post("/api/docs")).handler(this::create);
    router.get("/api/docs/:docId").handler(this::get);
    router.get("/api/docs/:docId/revisions").handler(this::revisions);
    body.on(router.put("/api/docs/:docId")).handler(this::edit);
    router.post("/api/docs/:docId/lease/preempt").handler(this::preempt);
    body.on(router.post("/api/docs/:docId/tools/:tool")).handler(this::tool);
    JsonBody instruction = JsonBody.upTo(AGENT_BODY_LIMIT_BYTES, "an instruction body");
    instruction.on(router.post("/api/docs/:docId/agent")).handler(this::agent);
    instruction.on(router.post("/api/canvas-agent/edit-request")).handler(this::editRequest);
  }

  private void create(RoutingContext ctx) {
    JsonObject request = JsonBody.parse(ctx, createSchema);
    if (request == null) {
      return;
    }
    String roomId = request.getString("roomId");
    if (roomId == null && !EdgeAccess.grant(ctx).allowsNewStandaloneDocument()) {
      HttpErrors.send(
          ctx,
          FailureCode.FORBIDDEN,
          "a document without a room becomes a room of its own, which this token could not use;"
              + " give the roomId of a room this token edits");
      return;
    }
    if (roomId != null && !EdgeAccess.room(ctx, Role.EDITOR, roomId)) {
      return;
    }
    String id = "doc-" + UUID.randomUUID();
    // A document without a room is its own room: its lease changes go out on
    // room.<docId>.doc:lease.
    forward(
        ctx,
        Address.DOC_CREATE,
        new DocumentCreateRequest(
            id,
            request.getString("roomId", id),
            request.getString("title", "Untitled"),
            request.getString("content"),
            actor(ctx)),
        201);
  }

  private void get(RoutingContext ctx) {
    String docId = docId(ctx);
    if (docId != null) {
      access.document(
          ctx,
          Role.VIEWER,
          docId,
          () -> forward(ctx, Address.DOC_GET, new DocumentRef(docId), 200));
    }
  }

  private void revisions(RoutingContext ctx) {
    String docId = docId(ctx);
    Long limit =
        docId == null
            ? null
            : RequestParameters.queryLong(ctx, "limit", DEFAULT_REVISIONS, 1, MAX_REVISIONS);
    if (limit != null) {
      access.document(
          ctx,
          Role.VIEWER,
          docId,
          () ->
              forward(
                  ctx,
                  Address.DOC_REVISIONS,
                  new DocumentHistoryRequest(docId, limit.intValue()),
                  200));
    }
  }

  private void edit(RoutingContext ctx) {
    String docId = docId(ctx);
    JsonObject request = docId == null ? null : JsonBody.parse(ctx, editSchema);
    if (request == null) {
      return;
    }
    access.document(ctx, Role.EDITOR, docId, () -> edit(ctx, docId, request));
  }

  private void edit(RoutingContext ctx, String docId, JsonObject request) {
    DocumentEditRequest ask =
        new DocumentEditRequest(
            docId, request.getString("content"), request.getString("baseRevisionId"), actor(ctx));
    Address.DOC_EDIT
        .ask(vertx.eventBus(), ask)
        .onSuccess(reply -> answer(ctx, 200, reply))
        .onFailure(
            error -> {
              if (Failure.of(error).code() != FailureCode.REVISION_CONFLICT) {
                HttpErrors.send(ctx, error);
                return;
              }
              // Tell the person where the document is now, so the editor can rebase.
              Address.DOC_GET
                  .ask(vertx.eventBus(), new DocumentRef(docId))
                  .onComplete(
                      current ->
                          HttpErrors.send(
                              ctx,
                              FailureCode.REVISION_CONFLICT,
                              Failure.of(error).getMessage(),
                              current.succeeded()
                                  ? new JsonObject()
                                      .put("revisionId", current.result().revisionId())
                                  : new JsonObject()));
            });
  }

  private void preempt(RoutingContext ctx) {
    String docId = docId(ctx);
    if (docId != null) {
      access.document(
          ctx,
          Role.EDITOR,
          docId,
          () -> forward(ctx, Address.DOC_PREEMPT, new DocumentRef(docId), 200));
    }
  }

  private void tool(RoutingContext ctx) {
    String docId = docId(ctx);
    if (docId == null) {
      return;
    }
    String tool = ctx.pathParam("tool");
    if (!TOOL.matcher(tool).matches() || catalog.schema(tool).isEmpty()) {
      HttpErrors.send(
          ctx,
          FailureCode.NOT_FOUND,
          "no document tool "
              + (tool.length() > 64 ? tool.substring(0, 64) : tool)
              + "; GET /api/docs/tools lists them");
      return;
    }
    JsonObject args = JsonBody.parse(ctx, catalog.schema(tool).orElseThrow());
    if (args != null) {
      access.document(
          ctx,
          Role.EDITOR,
          docId,
          () ->
              forward(
                  ctx, Address.DOC_TOOL, new DocumentToolCall(docId, tool, args, actor(ctx)), 200));
    }
  }

  /** Starts the document agent: 202 once it holds the lease; the loop reports on the room's topics. */
  private void agent(RoutingContext ctx) {
    String docId = docId(ctx);
    JsonObject request = docId == null ? null : JsonBody.parse(ctx, agentSchema);
    if (request == null) {
      return;
    }
    if (request.getString("instruction").isBlank()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "instruction must not be blank");
      return;
    }
    String sessionId = request.getString("sessionId");
    if (sessionId != null
        && !sessionId.equals(docId)
        && CREATED_DOC_ID.matcher(sessionId).matches()) {
      // A document's own agent session is named after it, and a delegated edit finds its document
      // by session: a session here named after another document would take that name, so that
      // document's agent could not start and its delegated edits would come here. Every name of
      // that form is refused, existing document or not: asking which exist would tell a token about
      // other rooms.
      HttpErrors.send(
          ctx,
          FailureCode.INVALID_REQUEST,
          "sessionId "
              + sessionId
              + " has the form of a document id (doc-<uuid>), which only that document's own agent session may use");
      return;
    }
    access.document(
        ctx,
        Role.EDITOR,
        docId,
        () ->
            asRun(
                ctx,
                documentRoom(docId),
                roomId ->
                    Address.DOC_AGENT
                        .ask(
                            vertx.eventBus(),
                            new DocumentAgentRequest(
                                docId,
                                request.getString("instruction"),
                                actor(ctx),
                                request.getString("model"),
                                sessionId))
                        .onSuccess(started -> answer(ctx, 202, started))));
  }

  /** {@code canvas_agent_edit_request}: runs the document agent to its end and answers the change. */
  private void editRequest(RoutingContext ctx) {
    JsonObject request = JsonBody.parse(ctx, editRequestSchema);
    if (request == null) {
      return;
    }
    if (request.getString("instruction").isBlank()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "instruction must not be blank");
      return;
    }
    String sessionId = request.getString("canvas_session_id");
    access.agentSession(
        ctx,
        Role.EDITOR,
        sessionId,
        () ->
            asRun(
                ctx,
                sessionRoom(sessionId),
                roomId -> {
                  Address.DOC_AGENT_EDIT_REQUEST
                      .ask(
                          vertx.eventBus(),
                          new DelegatedEditRequest(
                              sessionId,
                              request.getString("instruction"),
                              actor(ctx),
                              request.getValue("context"),
                              request.getString("model")),
                          new DeliveryOptions().setSendTimeout(delegationTimeoutMs))
                      .onSuccess(reply -> answer(ctx, 200, reply))
                      .onFailure(
                          error -> {
                            if (Failure.of(error).code() == FailureCode.SHUTTING_DOWN) {
                              // Refused before anything ran: given back, as a refused start is.
                              limits
                                  .giveBackRun(ctx, roomId)
                                  .onComplete(given -> HttpErrors.send(ctx, error));
                            } else {
                              HttpErrors.send(ctx, error);
                            }
                          });
                  // It answers when the run has ended, so another failure may come after the
                  // model has run: it still counts.
                  return Future.succeededFuture();
                }));
  }

  /** The room a document belongs to, whose run limit its agent counts against. */
  private Future<String> documentRoom(String docId) {
    return Address.DOC_ROOM.ask(vertx.eventBus(), new DocumentRef(docId)).map(DocumentRoom::roomId);
  }

  /** The room of a document-agent session's document. */
  private Future<String> sessionRoom(String canvasSessionId) {
    return Address.DOC_AGENT_SESSION_DOCUMENT
        .ask(vertx.eventBus(), new AgentSessionRef(canvasSessionId))
        .compose(document -> documentRoom(document.docId()));
  }

  /**
   * The document agent starts a model run as {@code POST /api/canvas-agent/run} does, so it counts as one
   * against the client's and the room's run limits. {@code start} answers the request when the run
   * starts; one refused before it started (a held lease, an unknown model) is given back before the
   * refusal is answered, so whoever reads the answer finds the allowance as it was.
   */
  private void asRun(RoutingContext ctx, Future<String> room, Function<String, Future<?>> start) {
    room.onFailure(error -> HttpErrors.send(ctx, error))
        .onSuccess(
            roomId ->
                limits
                    .takeRun(ctx, roomId)
                    .onSuccess(
                        taken -> {
                          if (taken) {
                            start
                                .apply(roomId)
                                .onFailure(
                                    refused ->
                                        limits
                                            .giveBackRun(ctx, roomId)
                                            .onComplete(given -> HttpErrors.send(ctx, refused)));
                          }
                        }));
  }

  /**
   * The token's subject (with auth off, the open grant's) as the one a request acts for: from the grant,
   * never from the body, and only the subject: the document agent's session is named by the agent
   * itself.
   */
  private static Actor actor(RoutingContext ctx) {
    return Actor.person(EdgeAccess.grant(ctx).subject());
  }

  private static String docId(RoutingContext ctx) {
    String docId = ctx.pathParam("docId");
    if (docId == null || !DOC_ID.matcher(docId).matches()) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "docId must match " + DOC_ID.pattern());
      return null;
    }
    return docId;
  }

  /** Asks {@code endpoint} and answers the request with its reply; returns that reply. */
  private <Q extends BusMessage, R extends BusMessage> Future<R> forward(
      RoutingContext ctx, Endpoint<Q, R> endpoint, Q ask, int status) {
    return endpoint
        .ask(vertx.eventBus(), ask)
        .onSuccess(reply -> answer(ctx, status, reply))
        .onFailure(error -> HttpErrors.send(ctx, error));
  }

  /** {@code {ok: true, …}}: the reply's keys beside {@code ok}. */
  private static void answer(RoutingContext ctx, int status, BusMessage reply) {
    JsonResponse.send(ctx, status, new JsonObject().put("ok", true).mergeIn(reply.toJson()));
  }
}
