package dev.canvasagent.screenshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The screenshot RPC over the event bus: refused at once without a host in the room, answered with
 * the host's image when the host answers the request, and retried once when it does not.
 */
@ExtendWith(VertxExtension.class)
class ScreenshotVerticleTest {
  static final AppConfig.Screenshot CONFIG = new AppConfig.Screenshot(2500, 1, 10);
  /** Shorter than the screenshot timeout: an answer within it was not waited for. */
  static final DeliveryOptions QUICK = new DeliveryOptions().setSendTimeout(CONFIG.timeoutMs() / 2);

  EventBus bus;
  String roomId;

  @BeforeEach
  void deploy(Vertx vertx) {
    Await.result(vertx.deployVerticle(new ScreenshotVerticle(CONFIG)));
    bus = vertx.eventBus();
    roomId = "room-" + UUID.randomUUID().toString().substring(0, 8);
  }

  JsonObject captureRequest() {
    return new JsonObject().put("roomId", roomId).put("sessionId", "session-1");
  }

  void hostPresent(String clientId, boolean present) {
    bus.publish(Address.SCREENSHOT_HOSTS,
        new JsonObject().put("roomId", roomId).put("clientId", clientId).put("present", present));
  }

  static JsonObject image(String requestId) {
    return new JsonObject()
        .put("requestId", requestId)
        .put("dataUrl", "data:image/png;base64,iVBORw0KGgo=")
        .put("w", 800)
        .put("h", 600);
  }

  /** A host client of the room: sees every screenshot request, and answers as {@code answer} decides. */
  List<JsonObject> host(BiConsumer<Integer, JsonObject> answer) {
    List<JsonObject> requests = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer = bus.consumer(RoomTopic.AGENT_SCREENSHOT_REQUEST.address(roomId),
        (Message<JsonObject> request) -> {
          requests.add(request.body());
          answer.accept(requests.size(), request.body());
        });
    Await.result(consumer.completion());
    return requests;
  }

  void answer(JsonObject request) {
    bus.publish(RoomTopic.AGENT_SCREENSHOT.address(roomId), image(request.getString("requestId")));
  }

  static FailureCode failureCode(Throwable failure) {
    assertTrue(failure instanceof ReplyException, String.valueOf(failure));
    return Failure.of(failure).code();
  }

  @Test
  void aRoomWithoutAHostIsRefusedAtOnceWithNoHost() {
    Throwable failure = Await.failure(bus.request(Address.SCREENSHOT_CAPTURE, captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
    assertEquals(FailureCode.NO_HOST.wire(), ((ReplyException) failure).failureCode());
  }

  @Test
  void aHostThatAnswersTheRequestGivesTheCaptureItsImage() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    Message<Object> reply = Await.result(bus.request(Address.SCREENSHOT_CAPTURE, captureRequest(), QUICK));

    assertEquals(1, requests.size());
    JsonObject request = requests.get(0);
    assertEquals("agent:screenshot_request", request.getString("type"));
    assertEquals("session-1", request.getString("sessionId"));
    assertEquals(image(request.getString("requestId")), reply.body());
  }

  @Test
  void theRequestCarriesTheBoundsAskedFor() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);
    JsonObject bounds = new JsonObject().put("x", 0).put("y", 0).put("w", 400).put("h", 300);

    Await.result(bus.request(Address.SCREENSHOT_CAPTURE, captureRequest().put("bounds", bounds), QUICK));

    assertEquals(bounds, requests.get(0).getJsonObject("bounds"));
  }

  @Test
  void anAnswerToAnotherRequestIsNotTakenForThisOne() {
    host((count, request) -> {
      bus.publish(RoomTopic.AGENT_SCREENSHOT.address(roomId), image("someone-else's-request"));
      answer(request);
    });
    hostPresent("client-1", true);

    Message<Object> reply = Await.result(bus.request(Address.SCREENSHOT_CAPTURE, captureRequest(), QUICK));

    assertNotEquals("someone-else's-request", ((JsonObject) reply.body()).getString("requestId"));
  }

  @Test
  void whenTheLastHostLeavesTheRoomIsRefusedAgain() {
    hostPresent("client-1", true);
    hostPresent("client-2", true);
    hostPresent("client-1", false);
    hostPresent("client-2", false);

    Throwable failure = Await.failure(bus.request(Address.SCREENSHOT_CAPTURE, captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
  }

  @Test
  void aLeaveFromAClientNeverSeenIsHarmless(Vertx vertx) {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(uncaught::add);

    hostPresent("stranger", false);
    // Taken after the leave (same sender, same verticle), so the leave has been handled by then.
    Throwable failure = Await.failure(bus.request(Address.SCREENSHOT_CAPTURE, captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
    assertEquals(List.of(), uncaught);
  }

  /** The one test that waits out a screenshot timeout (2.5 s). */
  @Test
  void aHostThatMissesTheFirstRequestIsAskedAgainAndItsAnswerToTheRetryIsTaken() {
    List<JsonObject> requests = host((count, request) -> {
      if (count == 2) {
        answer(request);
      }
    });
    hostPresent("client-1", true);

    Future<Message<Object>> capture = bus.request(Address.SCREENSHOT_CAPTURE, captureRequest());
    Message<Object> reply = Await.result(capture);

    assertEquals(2, requests.size(), "the first request and one retry");
    assertNotEquals(requests.get(0).getString("requestId"), requests.get(1).getString("requestId"),
        "each attempt is a new request");
    assertEquals(image(requests.get(1).getString("requestId")), reply.body());
  }
}
