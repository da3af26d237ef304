package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.CanvasVerticle;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.Store;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the agent sessions' queues. A submitted run is checked (model, session), its session stored,
 * and it is queued behind the session's running run (bounded depth); runs of one session execute one
 * at a time, in order.
 */
public final class SchedulerVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerVerticle.class);
  /** How long past the run deadline the scheduler waits for the runner's answer. */
  static final long RUN_ANSWER_GRACE_MS = 5_000;

  private final Store store;
  private final ModelRegistry models;
  private final AppConfig config;
  private final Map<String, SessionQueue> queues = new HashMap<>();

  /** A session's waiting runs and whether one is running. */
  private static final class SessionQueue {
    final Deque<RunRequest> waiting = new ArrayDeque<>();
    boolean running;
  }

  public SchedulerVerticle(Store store, ModelRegistry models, AppConfig config) {
    this.store = store;
    this.models = models;
    this.config = config;
  }

  @Override
  public String name() {
    return "scheduler";
  }

  @Override
  protected Future<?> startVerticle() {
    return vertx.eventBus().<JsonObject>consumer(Address.SCHEDULER_SUBMIT, this::submit).completion();
  }

  private void submit(Message<JsonObject> message) {
    JsonObject body = message.body();
    String roomId = body.getString("roomId");
    String model = body.getString("model", config.model().defaultModel());
    ModelRegistry.Resolution resolution = models.resolve(model);
    if (resolution instanceof ModelRegistry.Unknown unknown) {
      message.fail(FailureCode.UNKNOWN_MODEL.wire(), unknown.message());
      return;
    }
    if (resolution instanceof ModelRegistry.NotConfigured notConfigured) {
      message.fail(FailureCode.MODEL_NOT_CONFIGURED.wire(), notConfigured.message());
      return;
    }
    session(body.getString("sessionId"), roomId, model)
        .compose(session -> enqueue(session, body, model))
        .onSuccess(message::reply)
        .onFailure(error -> Failure.replyTo(message, error));
  }

  private Future<Session> session(String sessionId, String roomId, String model) {
    if (sessionId == null) {
      return store.sessions().create(new Session(UUID.randomUUID().toString(), roomId, model, System.currentTimeMillis()))
          .recover(error -> Failure.future(FailureCode.STORE_UNAVAILABLE, "could not store the session: " + error.getMessage()));
    }
    return store.sessions().find(sessionId)
        .recover(error -> Failure.future(FailureCode.STORE_UNAVAILABLE, "could not read the session: " + error.getMessage()))
        .compose(found -> {
          if (found.isEmpty()) {
            return Failure.future(FailureCode.SESSION_NOT_FOUND, "no session " + sessionId);
          }
          if (!found.get().roomId().equals(roomId)) {
            return Failure.future(FailureCode.SESSION_ROOM_MISMATCH, "session " + sessionId + " belongs to another room");
          }
          return Future.succeededFuture(found.get());
        });
  }

  private Future<JsonObject> enqueue(Session session, JsonObject body, String model) {
    SessionQueue queue = queues.computeIfAbsent(session.id(), id -> new SessionQueue());
    if (queue.waiting.size() >= config.scheduler().maxQueueDepth()) {
      return Failure.future(FailureCode.QUEUE_FULL, "session " + session.id() + " already has "
          + queue.waiting.size() + " runs waiting (limit " + config.scheduler().maxQueueDepth() + ")");
    }
    RunRequest run = new RunRequest(
        UUID.randomUUID().toString(), session.id(), session.roomId(), body.getString("message"), model,
        Viewport.fromJson(body.getJsonObject("viewport")), RunRequest.selectionFrom(body));
    queue.waiting.add(run);
    LOG.atInfo().addKeyValue("roomId", run.roomId()).addKeyValue("sessionId", run.sessionId())
        .addKeyValue("runId", run.runId()).addKeyValue("model", model)
        .addKeyValue("messageChars", run.message().length()).addKeyValue("queued", queue.waiting.size())
        .log("run.submitted");
    if (queue.running) {
      publishStatus(run, RunState.SCHEDULED, new JsonObject().put("runId", run.runId()).put("position", queue.waiting.size()));
    } else {
      vertx.runOnContext(next -> startNext(session.id()));
    }
    return Future.succeededFuture(new JsonObject().put("sessionId", session.id()).put("runId", run.runId()));
  }

  private void startNext(String sessionId) {
    SessionQueue queue = queues.get(sessionId);
    if (queue == null || queue.running) {
      return;
    }
    RunRequest run = queue.waiting.poll();
    if (run == null) {
      queues.remove(sessionId);
      return;
    }
    queue.running = true;
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(config.runner().deadlineMs() + RUN_ANSWER_GRACE_MS);
    vertx.eventBus().<JsonObject>request(Address.RUNNER_RUN, run.toJson(), options)
        .onComplete(outcome -> {
          if (outcome.failed()) {
            Failure failure = Failure.of(outcome.cause());
            LOG.atWarn().addKeyValue("sessionId", sessionId).addKeyValue("runId", run.runId())
                .addKeyValue("code", failure.code()).log("run.failed");
            publishStatus(run, RunState.ERROR, new JsonObject().put("runId", run.runId())
                .put("code", failure.code().name()).put("reason", failure.getMessage()));
          }
          queue.running = false;
          startNext(sessionId);
        });
  }

  private void publishStatus(RunRequest run, RunState state, JsonObject detail) {
    vertx.eventBus().publish(RoomTopic.AGENT_STATUS.address(run.roomId()),
        new AgentStatus(run.sessionId(), state, detail).toJson());
  }

  @Override
  protected Future<JsonObject> health() {
    long running = queues.values().stream().filter(queue -> queue.running).count();
    long waiting = queues.values().stream().mapToLong(queue -> queue.waiting.size()).sum();
    return Future.succeededFuture(new JsonObject().put("ok", true).put("running", running).put("waiting", waiting));
  }
}
