package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.BoardRevisionPage;
import dev.canvasagent.bus.BoardRevisionsQuery;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.TranscriptAdd;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/rooms/{roomId}}: a room's board (read it, change it, page through its revisions; the
 * patch engine owns it) and its transcript. The room's live streams are {@link StreamRoutes}'.
 */
final class RoomRoutes {
  static final int MAX_REVISIONS_LIMIT = 500;

  /** A transcript body: 4000 characters of text, each escaped at worst as six bytes, and the rest. */
  static final int TRANSCRIPT_BODY_LIMIT_BYTES = 32 * 1024;

  /** How far ahead of this server's clock an utterance's ts may be (clients' clocks drift). */
  static final long TRANSCRIPT_MAX_FUTURE_MS = 5 * 60 * 1000;

  private final Vertx vertx;
  private final JsonSchemaFile changeRequestSchema = JsonSchemaFile.load("api/change-request.json");
  private final JsonSchemaFile transcriptSchema = JsonSchemaFile.load("api/transcript.json");

  RoomRoutes(Vertx vertx) {
    this.vertx = vertx;
  }

  /** {@code body}: the server's JSON body, of at most its body limit. */
  void mount(Router router, JsonBody body) {
    body.on(router.post("/api/rooms/:roomId/changes")).handler(this::change);
    router.get("/api/rooms/:roomId/board").handler(this::board);
    JsonBody.upTo(TRANSCRIPT_BODY_LIMIT_BYTES, "a transcript body")
        .on(router.post("/api/rooms/:roomId/transcript"))
        .handler(this::transcript);
    router.get("/api/rooms/:roomId/revisions").handler(this::revisions);
  }

  /**
   * A person's edit: {@code {baseRevision, put, remove}}, applied whole or not at all; one that would
   * change nothing is answered {@code changed: false} at its base revision, and nothing is committed.
   */
  private void change(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.EDITOR, roomId)) {
      return;
    }
    JsonObject request = JsonBody.parse(ctx, changeRequestSchema);
    if (request == null) {
      return;
    }
    BoardChangeRequest ask =
        new BoardChangeRequest(
            roomId, request.getLong("baseRevision"), RecordDiff.fromJson(request), "person");
    Address.PATCH_BOARD_CHANGE
        .ask(vertx.eventBus(), ask)
        .onSuccess(
            committed ->
                JsonResponse.send(
                    ctx,
                    200,
                    new JsonObject()
                        .put("ok", true)
                        .put("roomId", roomId)
                        .put("revision", committed.revision())
                        .put("changed", committed.changed())))
        .onFailure(
            error -> {
              if (Failure.of(error).code() != FailureCode.REVISION_CONFLICT) {
                HttpErrors.send(ctx, error);
                return;
              }
              // Tell the client where the board is now, so it can rebase its edit.
              Address.PATCH_BOARD_HEAD
                  .ask(vertx.eventBus(), new RoomRef(roomId))
                  .onComplete(
                      current ->
                          HttpErrors.send(
                              ctx,
                              FailureCode.REVISION_CONFLICT,
                              error.getMessage(),
                              current.succeeded()
                                  ? new JsonObject().put("revision", current.result().revision())
                                  : new JsonObject()));
            });
  }

  /** One utterance for the room's transcript: {@code {speaker, text, ts?}}. */
  private void transcript(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.EDITOR, roomId)) {
      return;
    }
    JsonObject request = JsonBody.parse(ctx, transcriptSchema);
    // The idempotency key covers the body and the path's room.
    JsonObject keyed =
        request == null
            ? null
            : IdempotencyKeyHeader.addTo(ctx, request.copy().put("roomId", roomId));
    if (keyed == null) {
      return;
    }
    Long ts = request.getLong("ts");
    if (ts != null && ts > System.currentTimeMillis() + TRANSCRIPT_MAX_FUTURE_MS) {
      HttpErrors.send(
          ctx,
          FailureCode.INVALID_REQUEST,
          "#/ts: "
              + ts
              + " is more than "
              + TRANSCRIPT_MAX_FUTURE_MS / 60_000
              + " minutes in the future");
      return;
    }
    TranscriptAdd add =
        new TranscriptAdd(
            roomId,
            request.getString("speaker"),
            request.getString("text"),
            ts,
            IdempotencyKey.in(keyed));
    JsonResponse.answer(
        ctx,
        201,
        Address.RUNNER_TRANSCRIPT_ADD.ask(vertx.eventBus(), add),
        stored -> new JsonObject().put("roomId", roomId).put("utterance", stored.toJson()));
  }

  private void board(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    JsonResponse.answer(
        ctx,
        200,
        Address.PATCH_BOARD_GET.ask(vertx.eventBus(), BoardRef.current(roomId)),
        board ->
            new JsonObject()
                .put("roomId", roomId)
                .put("revision", board.revision())
                .put("records", board.records()));
  }

  private void revisions(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    Long after = RequestParameters.queryLong(ctx, "after", 0, 0, Long.MAX_VALUE);
    Long limit = RequestParameters.queryLong(ctx, "limit", 100, 1, MAX_REVISIONS_LIMIT);
    if (after == null || limit == null) {
      return;
    }
    JsonResponse.answer(
        ctx,
        200,
        Address.PATCH_BOARD_REVISIONS.ask(
            vertx.eventBus(), new BoardRevisionsQuery(roomId, after, limit.intValue())),
        page -> revisionsJson(roomId, after, page));
  }

  /**
   * The page, and whether history before it was trimmed (the memory store keeps a room's newest
   * revisions only): a first revision later than {@code after + 1} means the ones between are gone,
   * so {@code historyTrimmed} is true and {@code oldestKeptRev} names where history starts now.
   */
  static JsonObject revisionsJson(String roomId, long after, BoardRevisionPage page) {
    JsonObject answer =
        new JsonObject()
            .put("roomId", roomId)
            .put(
                "revisions",
                new JsonArray(page.revisions().stream().map(RoomRoutes::revisionJson).toList()));
    boolean trimmed = !page.revisions().isEmpty() && page.revisions().get(0).revision() > after + 1;
    answer.put("historyTrimmed", trimmed);
    if (trimmed) {
      answer.put("oldestKeptRev", page.revisions().get(0).revision());
    }
    return answer;
  }

  /** A stored revision as the HTTP API has always shown it: {@code {rev, diff, author, createdAt}}. */
  private static JsonObject revisionJson(BoardRevisionPage.Revision revision) {
    return new JsonObject()
        .put("rev", revision.revision())
        .put("diff", revision.diff().toJson())
        .put("author", revision.author())
        .put("createdAt", revision.createdAt());
  }
}
