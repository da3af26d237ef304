package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardSnapshot;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.SessionStore.Changes;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.Store;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions API on the bus (seed 002 Phases 4–5): create, list, resume, change and delete a session
 * and its atoms. The bridge has checked each body against its schema ({@code api/session-*.json});
 * what needs the store or the model registry is checked here. A session of another room than the one
 * a request names is SESSION_ROOM_MISMATCH; a session with a live run cannot be deleted (SESSION_BUSY).
 */
final class SessionCommands {
  private static final Logger LOG = LoggerFactory.getLogger(SessionCommands.class);

  /** What the resume payload carries at most: the newest chat messages, utterances and runs. */
  static final int RESUME_CHAT_MESSAGES = 200;

  static final int RESUME_UTTERANCES = 200;
  static final int RESUME_RUNS = 50;

  private final EventBus bus;
  private final Store store;
  private final ModelRegistry models;
  private final String defaultModel;

  SessionCommands(EventBus bus, Store store, ModelRegistry models, String defaultModel) {
    this.bus = bus;
    this.store = store;
    this.models = models;
    this.defaultModel = defaultModel;
  }

  Future<?> register() {
    return Future.join(
        List.of(
            bus.<JsonObject>consumer(
                    Address.SCHEDULER_SESSION_CREATE, message -> answer(message, this::create))
                .completion(),
            bus.<JsonObject>consumer(
                    Address.SCHEDULER_SESSION_LIST, message -> answer(message, this::list))
                .completion(),
            bus.<JsonObject>consumer(
                    Address.SCHEDULER_SESSION_GET, message -> answer(message, this::resume))
                .completion(),
            bus.<JsonObject>consumer(
                    Address.SCHEDULER_SESSION_ROOM, message -> answer(message, this::room))
                .completion(),
            bus.<JsonObject>consumer(
                    Address.SCHEDULER_SESSION_UPDATE, message -> answer(message, this::update))
                .completion(),
            bus.<JsonObject>consumer(
                    Address.SCHEDULER_SESSION_DELETE, message -> answer(message, this::delete))
                .completion()));
  }

  private static void answer(
      Message<JsonObject> message, Function<JsonObject, Future<JsonObject>> command) {
    Future<JsonObject> answer;
    try {
      answer = command.apply(message.body() == null ? new JsonObject() : message.body());
    } catch (RuntimeException malformed) {
      answer =
          Failure.future(
              FailureCode.INVALID_REQUEST, "malformed request: " + malformed.getMessage());
    }
    answer.onSuccess(message::reply).onFailure(error -> Failure.replyTo(message, error));
  }

  /** {@code {roomId, title?, model?, idempotency?}} → {@code {session}}. */
  private Future<JsonObject> create(JsonObject body) {
    String roomId = body.getString("roomId");
    String model = body.getString("model", defaultModel);
    Future<Void> known = knownModel(model);
    if (known.failed()) {
      return known.mapEmpty();
    }
    IdempotencyKey key = IdempotencyKey.in(body);
    String sessionId =
        key == null ? UUID.randomUUID().toString() : store.idempotencyKeys().session(key, roomId);
    Session session = new Session(sessionId, roomId, model, System.currentTimeMillis());
    if (body.getString("title") != null) {
      session = session.withTitle(body.getString("title"));
    }
    return stored(
            store.sessions().create(session, key == null ? null : key.fingerprint()),
            "store the session")
        .map(
            created -> {
              LOG.atInfo()
                  .addKeyValue("roomId", roomId)
                  .addKeyValue("sessionId", created.id())
                  .addKeyValue("model", created.model())
                  .log("session.created");
              return new JsonObject().put("session", created.toJson());
            });
  }

  /** {@code {roomId, limit}} → {@code {roomId, sessions}}. */
  private Future<JsonObject> list(JsonObject body) {
    String roomId = body.getString("roomId");
    return stored(store.sessions().list(roomId, body.getInteger("limit")), "list the sessions")
        .map(
            sessions -> {
              JsonArray items = new JsonArray();
              sessions.forEach(session -> items.add(session.toJson()));
              return new JsonObject().put("roomId", roomId).put("sessions", items);
            });
  }

  /** {@code {sessionId}} → {@code {sessionId, roomId}}. */
  private Future<JsonObject> room(JsonObject body) {
    String sessionId = body.getString("sessionId");
    return session(sessionId, null)
        .map(
            session ->
                new JsonObject().put("sessionId", sessionId).put("roomId", session.roomId()));
  }

  /**
   * {@code {sessionId, roomId?}} → everything a client needs to pick the session up again: the session
   * (title, model, origin, context items, times), its chat history, todos and recent runs, and the
   * room's recent transcript and board revision.
   */
  private Future<JsonObject> resume(JsonObject body) {
    String sessionId = body.getString("sessionId");
    return session(sessionId, body.getString("roomId"))
        .compose(
            session -> {
              var chat =
                  stored(store.chats().recent(sessionId, RESUME_CHAT_MESSAGES), "read the chat");
              var todos = stored(store.todos().list(sessionId), "read the todos");
              var runs = stored(store.runs().recent(sessionId, RESUME_RUNS), "read the runs");
              var transcript =
                  stored(
                      store.transcripts().since(session.roomId(), 0, RESUME_UTTERANCES),
                      "read the transcript");
              Future<Long> revision =
                  Address.PATCH_BOARD_GET
                      .ask(bus, new RoomRef(session.roomId()))
                      .map(BoardSnapshot::revision);
              return Future.all(chat, todos, runs, transcript, revision)
                  .map(
                      all ->
                          new JsonObject()
                              .put("session", session.toJson())
                              .put("chat", array(chat.result(), SessionCommands::chatJson))
                              .put("todos", array(todos.result(), todo -> todo.toJson()))
                              .put("runs", array(runs.result(), run -> run.toJson()))
                              .put(
                                  "transcript",
                                  array(transcript.result(), utterance -> utterance.toJson()))
                              .put("boardRevision", revision.result()));
            });
  }

  /** {@code {sessionId, roomId?, title?, model?, contextItems?}} → {@code {session}}. */
  private Future<JsonObject> update(JsonObject body) {
    String sessionId = body.getString("sessionId");
    String model = body.getString("model");
    if (model != null) {
      Future<Void> known = knownModel(model);
      if (known.failed()) {
        return known.mapEmpty();
      }
    }
    Changes changes =
        new Changes(body.getString("title"), model, body.getJsonArray("contextItems"));
    return session(sessionId, body.getString("roomId"))
        .compose(found -> stored(store.sessions().update(sessionId, changes), "update the session"))
        .compose(
            updated ->
                updated.isEmpty()
                    ? Failure.<JsonObject>future(
                        FailureCode.SESSION_NOT_FOUND, "no session " + sessionId)
                    : Future.succeededFuture(
                        new JsonObject().put("session", updated.get().toJson())));
  }

  /** {@code {sessionId, roomId?}} → {@code {sessionId, deleted: true}}. */
  private Future<JsonObject> delete(JsonObject body) {
    String sessionId = body.getString("sessionId");
    return session(sessionId, body.getString("roomId"))
        .compose(found -> stored(store.sessions().delete(sessionId), "delete the session"))
        .compose(
            deletion ->
                switch (deletion) {
                  case DELETED -> {
                    LOG.atInfo().addKeyValue("sessionId", sessionId).log("session.deleted");
                    yield Future.succeededFuture(
                        new JsonObject().put("sessionId", sessionId).put("deleted", true));
                  }
                  case NOT_FOUND ->
                      Failure.future(FailureCode.SESSION_NOT_FOUND, "no session " + sessionId);
                  case BUSY ->
                      Failure.future(
                          FailureCode.SESSION_BUSY,
                          "session "
                              + sessionId
                              + " has a run queued or running; wait for it to end (or cancel it) before deleting the session");
                });
  }

  private Future<Session> session(String sessionId, String roomId) {
    return SessionLookup.existing(store.sessions(), sessionId, roomId);
  }

  private Future<Void> knownModel(String model) {
    ModelRegistry.Resolution resolution = models.resolve(model);
    if (resolution instanceof ModelRegistry.Unknown unknown) {
      return Failure.future(FailureCode.UNKNOWN_MODEL, unknown.message());
    }
    if (resolution instanceof ModelRegistry.NotConfigured notConfigured) {
      return Failure.future(FailureCode.MODEL_NOT_CONFIGURED, notConfigured.message());
    }
    return Future.succeededFuture();
  }

  private static JsonObject chatJson(ChatMessage message) {
    return message.toJson().put("at", message.atMillis());
  }

  private static <T> JsonArray array(List<T> items, Function<T, JsonObject> json) {
    JsonArray array = new JsonArray();
    items.forEach(item -> array.add(json.apply(item)));
    return array;
  }

  private static <T> Future<T> stored(Future<T> operation, String what) {
    return operation.recover(error -> Failure.storeFailed(what, error));
  }
}
