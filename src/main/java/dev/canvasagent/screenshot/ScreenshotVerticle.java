package dev.canvasagent.screenshot;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.CanvasVerticle;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The screenshot RPC: asks a room's host client for an image ({@code agent:screenshot_request}) and
 * waits for the matching {@code agent:screenshot}, with a timeout and bounded retries. A room with no
 * client able to answer is refused at once with NO_HOST, so a run goes on text-only without waiting.
 */
public final class ScreenshotVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(ScreenshotVerticle.class);
  static final int DEFAULT_MAX_SIDE = 800;

  private final AppConfig.Screenshot config;
  private final Map<String, Set<String>> hostsByRoom = new HashMap<>();
  private long captured;
  private long timedOut;

  public ScreenshotVerticle(AppConfig.Screenshot config) {
    this.config = config;
  }

  @Override
  public String name() {
    return "screenshot";
  }

  @Override
  protected Future<?> startVerticle() {
    var bus = vertx.eventBus();
    return Future.join(
        bus.<JsonObject>consumer(Address.SCREENSHOT_HOSTS, this::trackHost).completion(),
        bus.<JsonObject>consumer(Address.SCREENSHOT_CAPTURE, this::capture).completion());
  }

  /** {@code {roomId, clientId, present}}: a client that can answer screenshot requests came or went. */
  private void trackHost(Message<JsonObject> message) {
    JsonObject body = message.body();
    String roomId = body.getString("roomId");
    if (body.getBoolean("present", false)) {
      hostsByRoom.computeIfAbsent(roomId, id -> new HashSet<>()).add(body.getString("clientId"));
    } else {
      Set<String> hosts = hostsByRoom.get(roomId);
      if (hosts != null) {
        hosts.remove(body.getString("clientId"));
        if (hosts.isEmpty()) {
          hostsByRoom.remove(roomId);
        }
      }
    }
  }

  private void capture(Message<JsonObject> message) {
    JsonObject body = message.body();
    String roomId = body.getString("roomId");
    if (!hostsByRoom.containsKey(roomId)) {
      message.fail(FailureCode.NO_HOST.wire(), "no client in room " + roomId + " can take a screenshot");
      return;
    }
    attempt(body, 0)
        .onSuccess(message::reply)
        .onFailure(error -> Failure.replyTo(message, error));
  }

  private Future<JsonObject> attempt(JsonObject body, int attempt) {
    return requestOnce(body).recover(error -> {
      if (attempt >= config.retries() || !(error instanceof Failure failure)
          || failure.code() != FailureCode.SCREENSHOT_TIMEOUT) {
        return Future.failedFuture(error);
      }
      Promise<JsonObject> retried = Promise.promise();
      vertx.setTimer(Math.max(1, config.retryDelayMs()), id -> attempt(body, attempt + 1).onComplete(retried));
      return retried.future();
    });
  }

  private Future<JsonObject> requestOnce(JsonObject body) {
    String roomId = body.getString("roomId");
    String requestId = UUID.randomUUID().toString();
    Promise<JsonObject> answered = Promise.promise();
    MessageConsumer<JsonObject> answers =
        vertx.eventBus().consumer(RoomTopic.AGENT_SCREENSHOT.address(roomId), answer -> {
          if (requestId.equals(answer.body().getString("requestId"))) {
            answered.tryComplete(answer.body());
          }
        });
    long timer = vertx.setTimer(config.timeoutMs(), id -> answered.tryFail(
        new Failure(FailureCode.SCREENSHOT_TIMEOUT, "no screenshot within " + config.timeoutMs() + " ms")));
    JsonObject request = new JsonObject()
        .put("type", "agent:screenshot_request")
        .put("sessionId", body.getString("sessionId"))
        .put("requestId", requestId)
        .put("maxSize", new JsonObject().put("w", DEFAULT_MAX_SIDE).put("h", DEFAULT_MAX_SIDE));
    if (body.getJsonObject("bounds") != null) {
      request.put("bounds", body.getJsonObject("bounds"));
    }
    answers.completion()
        .onSuccess(ready -> vertx.eventBus().publish(RoomTopic.AGENT_SCREENSHOT_REQUEST.address(roomId), request))
        .onFailure(answered::tryFail);
    return answered.future().andThen(result -> {
      vertx.cancelTimer(timer);
      answers.unregister();
      if (result.succeeded()) {
        captured++;
      } else {
        timedOut++;
        LOG.atInfo().addKeyValue("roomId", roomId).addKeyValue("requestId", requestId)
            .log("screenshot.timeout");
      }
    });
  }

  @Override
  protected Future<JsonObject> health() {
    return Future.succeededFuture(new JsonObject().put("ok", true)
        .put("roomsWithHost", hostsByRoom.size()).put("captured", captured).put("timedOut", timedOut));
  }
}
