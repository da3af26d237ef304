package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardHead;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.SessionCreate;
import dev.canvasagent.bus.SessionDeleted;
import dev.canvasagent.bus.SessionList;
import dev.canvasagent.bus.SessionListQuery;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.bus.SessionResume;
import dev.canvasagent.bus.SessionUpdate;
import dev.canvasagent.bus.SessionView;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.SessionStore.Changes;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions API on the bus: create, list, resume, change and delete a session and its atoms. The
 * bridge has checked each body against its schema ({@code api/session-*.json}); what needs the
 * store or the model registry is checked here. A session of another room than the one a request
 * names is SESSION_ROOM_MISMATCH; a session with a live run cannot be deleted (SESSION_BUSY).
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
  private final FinalWrites finals;

  /** {@code finals}: the final states of this node's runs that the store does not hold yet. */
  SessionCommands(
      EventBus bus, Store store, ModelRegistry models, String defaultModel, FinalWrites finals) {
    this.bus = bus;
    this.store = store;
    this.models = models;
    this.defaultModel = defaultModel;
    this.finals = finals;
  }

  /** Registers the six session endpoints through the scheduler's {@code answer}. */
  Future<?> register(CanvasVerticle.Answerer answers) {
    return Future.join(
        List.of(
            answers.answer(Address.SCHEDULER_SESSION_CREATE, this::create),
            answers.answer(Address.SCHEDULER_SESSION_LIST, this::list),
            answers.answer(Address.SCHEDULER_SESSION_GET, this::resume),
            answers.answer(Address.SCHEDULER_SESSION_ROOM, this::room),
            answers.answer(Address.SCHEDULER_SESSION_UPDATE, this::update),
            answers.answer(Address.SCHEDULER_SESSION_DELETE, this::delete)));
  }

  private Future<SessionView> create(SessionCreate request) {
    String roomId = request.roomId();
    String model = request.model() != null ? request.model() : defaultModel;
    Future<Void> known = knownModel(model);
    if (known.failed()) {
      return known.mapEmpty();
    }
    IdempotencyKey key = request.idempotency();
    String sessionId =
        key == null ? UUID.randomUUID().toString() : store.idempotencyKeys().session(key, roomId);
    Session session = new Session(sessionId, roomId, model, System.currentTimeMillis());
    if (request.title() != null) {
      session = session.withTitle(request.title());
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
              return new SessionView(created.toJson());
            });
  }

  private Future<SessionList> list(SessionListQuery query) {
    return stored(store.sessions().list(query.roomId(), query.limit()), "list the sessions")
        .map(sessions -> new SessionList(query.roomId(), json(sessions, Session::toJson)));
  }

  /** The session's room, whatever room the request names. */
  private Future<SessionRef> room(SessionRef request) {
    String sessionId = request.sessionId();
    return session(sessionId, null).map(session -> new SessionRef(sessionId, session.roomId()));
  }

  /**
   * Everything a client needs to pick the session up again: the session (title, model, origin, context
   * items, times), its chat history, todos and recent runs, and the room's recent transcript and board
   * revision.
   */
  private Future<SessionResume> resume(SessionRef request) {
    String sessionId = request.sessionId();
    // Taken before the store is read: a pending write that lands meanwhile may land after the read.
    Map<String, FinalWrites.Ending> ending = finals.endingsOf(sessionId);
    return session(sessionId, request.roomId())
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
                  Address.PATCH_BOARD_HEAD
                      .ask(bus, new RoomRef(session.roomId()))
                      .map(BoardHead::revision);
              return Future.all(chat, todos, runs, transcript, revision)
                  .map(
                      all ->
                          new SessionResume(
                              session.toJson(),
                              json(chat.result(), SessionCommands::chatJson),
                              json(todos.result(), todo -> todo.toJson()),
                              json(runs.result(), run -> runJson(run, ending)),
                              json(transcript.result(), utterance -> utterance.toJson()),
                              revision.result()));
            });
  }

  private Future<SessionView> update(SessionUpdate request) {
    String sessionId = request.sessionId();
    String model = request.model();
    if (model != null) {
      Future<Void> known = knownModel(model);
      if (known.failed()) {
        return known.mapEmpty();
      }
    }
    Changes changes = new Changes(request.title(), model, request.contextItems());
    return session(sessionId, request.roomId())
        .compose(found -> stored(store.sessions().update(sessionId, changes), "update the session"))
        .compose(
            updated ->
                updated.isEmpty()
                    ? Failure.<SessionView>future(
                        FailureCode.SESSION_NOT_FOUND, "no session " + sessionId)
                    : Future.succeededFuture(new SessionView(updated.get().toJson())));
  }

  /**
   * A run as its clients were told it: a run whose final status is out but whose record the store
   * did not hold yet (its write pending here when the request came) shows that final status, not
   * {@code running}.
   */
  private static JsonObject runJson(
      RunStore.RunRecord run, Map<String, FinalWrites.Ending> ending) {
    JsonObject json = run.toJson();
    FinalWrites.Ending told = ending.get(run.runId());
    if (run.live() && told != null) {
      json.put("state", told.state().wireName()).put("detail", told.detail().copy());
    }
    return json;
  }

  /**
   * A session whose last run has ended, its final write still pending here, is not busy: that write
   * goes first (STORE_UNAVAILABLE if the store still fails it), then the deletion.
   */
  private Future<SessionDeleted> delete(SessionRef request) {
    String sessionId = request.sessionId();
    return session(sessionId, request.roomId())
        .compose(found -> finals.flush(sessionId))
        .compose(written -> stored(store.sessions().delete(sessionId), "delete the session"))
        .compose(
            deletion ->
                switch (deletion) {
                  case DELETED -> {
                    LOG.atInfo().addKeyValue("sessionId", sessionId).log("session.deleted");
                    yield Future.succeededFuture(new SessionDeleted(sessionId));
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
    JsonObject json = message.toJson().put("at", message.atMillis());
    return message.runId() == null ? json : json.put("runId", message.runId());
  }

  private static <T> List<JsonObject> json(List<T> items, Function<T, JsonObject> json) {
    return items.stream().map(json).toList();
  }

  private static <T> Future<T> stored(Future<T> operation, String what) {
    return operation.recover(error -> Failure.storeFailed(what, error));
  }
}
