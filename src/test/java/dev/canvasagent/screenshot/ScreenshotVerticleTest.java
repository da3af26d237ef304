package dev.canvasagent.screenshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigLoader;
import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * The screenshot RPC over the event bus: refused at once without a host in the room, answered with
 * the host's image when the host answers the request, retried once when it does not, answered from
 * the cache for the same revision and bounds, deaf to replies that fail a check, and failed at once
 * when the room's last host leaves.
 */
@ExtendWith(VertxExtension.class)
class ScreenshotVerticleTest {
  static final int MAX_BYTES = 4096;
  static final AppConfig.Screenshot CONFIG = screenshotConfig(20_000);

  /**
   * The screenshot settings as the server reads them from its variables (the others at their
   * defaults), with the cache kept {@code cacheTtlMs}.
   */
  static AppConfig.Screenshot screenshotConfig(int cacheTtlMs) {
    return ConfigLoader.load(
            Map.of(
                "CANVAS_AGENT_SCREENSHOT_TIMEOUT_MS", "2500",
                "CANVAS_AGENT_SCREENSHOT_RETRIES", "1",
                "CANVAS_AGENT_SCREENSHOT_RETRY_DELAY_MS", "10",
                "CANVAS_AGENT_SCREENSHOT_CACHE_TTL_MS", String.valueOf(cacheTtlMs),
                "CANVAS_AGENT_SCREENSHOT_MAX_BYTES", String.valueOf(MAX_BYTES)))
        .screenshot();
  }

  /** Shorter than the screenshot timeout: an answer within it was not waited for. */
  static final DeliveryOptions QUICK = new DeliveryOptions().setSendTimeout(CONFIG.timeoutMs() / 2);

  /** The eight bytes of a PNG signature: enough of an image for the checks. */
  static final String PNG = "data:image/png;base64,iVBORw0KGgo=";

  Vertx vertx;
  EventBus bus;
  String roomId;
  String deploymentId;

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    deploymentId = Await.result(vertx.deployVerticle(new ScreenshotVerticle(CONFIG)));
    bus = vertx.eventBus();
    roomId = "room-" + UUID.randomUUID().toString().substring(0, 8);
  }

  void redeploy(AppConfig.Screenshot config) {
    Await.result(vertx.undeploy(deploymentId));
    deploymentId = Await.result(vertx.deployVerticle(new ScreenshotVerticle(config)));
  }

  JsonObject captureRequest() {
    return new JsonObject().put("roomId", roomId).put("sessionId", "session-1");
  }

  JsonObject captureRequest(String docVersion, JsonObject bounds) {
    return captureRequest().put("docVersion", docVersion).put("bounds", bounds);
  }

  static JsonObject rectangle(double x, double y, double w, double h) {
    return new JsonObject().put("x", x).put("y", y).put("w", w).put("h", h);
  }

  void hostPresent(String clientId, boolean present) {
    bus.publish(
        Address.SCREENSHOT_HOSTS.address(),
        new JsonObject().put("roomId", roomId).put("clientId", clientId).put("present", present));
  }

  /** What the bridge forwards from the host client-1: its agent:screenshot, with its clientId added. */
  static JsonObject reply(String requestId) {
    return new JsonObject()
        .put("type", "agent:screenshot")
        .put("sessionId", "session-1")
        .put("requestId", requestId)
        .put("image", new JsonObject().put("mime", "image/png").put("dataUrl", PNG).put("bytes", 8))
        .put("bounds", rectangle(0, 0, 800, 600))
        .put("viewport", rectangle(-100, -50, 1600, 1200))
        .put("selection", new JsonArray().add("shape:a"))
        .put("docVersion", "7")
        .put("clientId", "client-1");
  }

  /** A host client of the room: sees every screenshot request, and answers as {@code answer} decides. */
  List<JsonObject> host(BiConsumer<Integer, JsonObject> answer) {
    List<JsonObject> requests = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer =
        bus.consumer(
            RoomTopic.AGENT_SCREENSHOT_REQUEST.address(roomId),
            (Message<JsonObject> request) -> {
              requests.add(request.body());
              answer.accept(requests.size(), request.body());
            });
    Await.result(consumer.completion());
    return requests;
  }

  void send(Object reply) {
    bus.publish(RoomTopic.AGENT_SCREENSHOT.address(roomId), reply);
  }

  void answer(JsonObject request) {
    send(reply(request.getString("requestId")));
  }

  JsonObject capture(JsonObject request) {
    Message<JsonObject> reply =
        Await.result(bus.request(Address.SCREENSHOT_CAPTURE.address(), request, QUICK));
    return reply.body();
  }

  JsonObject health() {
    Message<JsonObject> report =
        Await.result(bus.request(Address.health("screenshot").address(), new JsonObject()));
    return report.body();
  }

  static FailureCode failureCode(Throwable failure) {
    assertTrue(failure instanceof ReplyException, String.valueOf(failure));
    return Failure.of(failure).code();
  }

  // The request and its answer

  @Test
  void aRoomWithoutAHostIsRefusedAtOnceWithNoHost() {
    Throwable failure =
        Await.failure(bus.request(Address.SCREENSHOT_CAPTURE.address(), captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
    assertEquals(FailureCode.NO_HOST.wire(), ((ReplyException) failure).failureCode());
  }

  @Test
  void aHostThatAnswersTheRequestGivesTheCaptureItsImage() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    JsonObject capture = capture(captureRequest());

    assertEquals(1, requests.size());
    JsonObject request = requests.get(0);
    assertEquals("agent:screenshot_request", request.getString("type"));
    assertEquals("session-1", request.getString("sessionId"));
    assertEquals(new JsonObject().put("w", 800).put("h", 800), request.getJsonObject("maxSize"));
    assertEquals(
        new JsonObject()
            .put("requestId", request.getString("requestId"))
            .put("clientId", "client-1")
            .put(
                "image",
                new JsonObject().put("mime", "image/png").put("dataUrl", PNG).put("bytes", 8))
            .put("bounds", rectangle(0, 0, 800, 600))
            .put("viewport", rectangle(-100, -50, 1600, 1200))
            .put("selection", new JsonArray().add("shape:a"))
            .put("docVersion", "7")
            .put("cached", false),
        capture);
  }

  @Test
  void theRequestCarriesTheBoundsAskedFor() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);
    JsonObject bounds = rectangle(0, 0, 400, 300);

    capture(captureRequest().put("bounds", bounds));

    assertEquals(bounds, requests.get(0).getJsonObject("bounds"));
  }

  static Stream<JsonObject> invalidCaptureRequests() {
    return Stream.of(
        new JsonObject().put("sessionId", "session-1"),
        new JsonObject().put("roomId", "room-1"),
        new JsonObject().put("roomId", "room-1").put("sessionId", "session-1").put("bounds", "all"),
        new JsonObject()
            .put("roomId", "room-1")
            .put("sessionId", "session-1")
            .put("bounds", rectangle(0, 0, Double.NaN, 1)),
        new JsonObject()
            .put("roomId", "room-1")
            .put("sessionId", "session-1")
            .put("docVersion", 7));
  }

  @ParameterizedTest
  @MethodSource("invalidCaptureRequests")
  void aMalformedCaptureRequestIsRefusedAsInvalid(JsonObject request) {
    Throwable failure =
        Await.failure(bus.request(Address.SCREENSHOT_CAPTURE.address(), request, QUICK));

    assertEquals(FailureCode.INVALID_REQUEST, failureCode(failure));
  }

  // The cache

  @Test
  void aSecondCaptureOfTheSameRevisionAndBoundsWithinTheTtlAsksTheHostNothing() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    JsonObject first = capture(captureRequest("7", rectangle(0, 0, 400, 300)));
    JsonObject second = capture(captureRequest("7", rectangle(0, 0, 400, 300)));

    assertEquals(1, requests.size());
    assertFalse(first.getBoolean("cached"));
    assertTrue(second.getBoolean("cached"));
    assertEquals(first.copy().put("cached", true), second);
    JsonObject health = health();
    assertEquals(1, health.getInteger("captured"));
    assertEquals(1, health.getInteger("cacheHits"));
    assertEquals(1, health.getInteger("cacheEntries"));
  }

  @Test
  void aCaptureOfAnotherRevisionAsksTheHostAgain() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    capture(captureRequest("7", rectangle(0, 0, 400, 300)));
    JsonObject second = capture(captureRequest("8", rectangle(0, 0, 400, 300)));

    assertEquals(2, requests.size());
    assertFalse(second.getBoolean("cached"));
  }

  @Test
  void aCaptureOfOtherBoundsAsksTheHostAgain() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    capture(captureRequest("7", rectangle(0, 0, 400, 300)));
    capture(captureRequest("7", rectangle(0, 0, 400, 301)));
    capture(captureRequest().put("docVersion", "7"));

    assertEquals(3, requests.size());
  }

  @Test
  void aFreshCaptureAsksTheHostEvenWhenTheCacheHoldsTheImageAndReplacesIt() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    capture(captureRequest("7", rectangle(0, 0, 400, 300)));
    JsonObject fresh = capture(captureRequest("7", rectangle(0, 0, 400, 300)).put("fresh", true));
    JsonObject after = capture(captureRequest("7", rectangle(0, 0, 400, 300)));

    assertEquals(
        2, requests.size(), "the fresh capture went to the host; the one after it did not");
    assertFalse(fresh.getBoolean("cached"));
    assertTrue(after.getBoolean("cached"));
    assertEquals(
        fresh.getString("requestId"),
        after.getString("requestId"),
        "the fresh image replaced the cached one");
    assertEquals(1, health().getInteger("cacheEntries"));
  }

  @Test
  void aFreshFlagThatIsNotABooleanIsRefused() {
    hostPresent("client-1", true);
    Throwable refused =
        Await.failure(
            bus.request(
                Address.SCREENSHOT_CAPTURE.address(), captureRequest().put("fresh", "yes"), QUICK));
    assertEquals(FailureCode.INVALID_REQUEST, failureCode(refused));
    assertTrue(refused.getMessage().contains("fresh"), refused.getMessage());
  }

  @Test
  void aCaptureWithoutARevisionIsNeverReused() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    capture(captureRequest());
    capture(captureRequest());

    assertEquals(2, requests.size());
    assertEquals(0, health().getInteger("cacheEntries"));
  }

  @Test
  void aTtlOfZeroTurnsTheCacheOff() {
    redeploy(screenshotConfig(0));
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    capture(captureRequest("7", rectangle(0, 0, 400, 300)));
    JsonObject second = capture(captureRequest("7", rectangle(0, 0, 400, 300)));

    assertEquals(2, requests.size());
    assertFalse(second.getBoolean("cached"));
    assertEquals(0, health().getInteger("cacheEntries"));
  }

  @Test
  void aRoomThatLostItsHostDoesNotReuseWhatItsHostTookBefore() {
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);
    capture(captureRequest("7", null));

    hostPresent("client-1", false);
    hostPresent("client-1", true);
    JsonObject again = capture(captureRequest("7", null));

    assertEquals(2, requests.size());
    assertFalse(again.getBoolean("cached"));
  }

  // Replies that fail a check

  /** A reply spoiled one way, and the reason it is rejected for. */
  record BadReply(ReplyRejection reason, String what, Function<JsonObject, Object> spoil) {
    @Override
    public String toString() {
      return reason.label() + ": " + what;
    }
  }

  static BadReply bad(ReplyRejection reason, String what, Function<JsonObject, Object> spoil) {
    return new BadReply(reason, what, spoil);
  }

  static Function<JsonObject, Object> set(String field, Object value) {
    return reply -> reply.put(field, value);
  }

  static Function<JsonObject, Object> without(String field) {
    return reply -> {
      reply.remove(field);
      return reply;
    };
  }

  static Function<JsonObject, Object> setIn(String object, String field, Object value) {
    return reply -> {
      reply.getJsonObject(object).put(field, value);
      return reply;
    };
  }

  static String dataUrlOf(String mime, int bytes) {
    return "data:" + mime + ";base64," + Base64.getEncoder().encodeToString(new byte[bytes]);
  }

  static Stream<BadReply> badReplies() {
    return Stream.of(
        bad(
            ReplyRejection.UNMATCHED,
            "the id of no request",
            set("requestId", "someone-else's-request")),
        bad(ReplyRejection.UNMATCHED, "no request id", without("requestId")),
        bad(ReplyRejection.NOT_HOST, "a client that is not a host", set("clientId", "client-2")),
        bad(ReplyRejection.NOT_HOST, "no client id", without("clientId")),
        bad(ReplyRejection.MALFORMED, "not a JSON object", reply -> "a picture of a cat"),
        bad(ReplyRejection.MALFORMED, "no image", without("image")),
        bad(ReplyRejection.MALFORMED, "a negative byte count", setIn("image", "bytes", -1)),
        bad(
            ReplyRejection.MALFORMED,
            "a selection of numbers",
            set("selection", new JsonArray().add(1))),
        bad(ReplyRejection.MALFORMED, "a docVersion that is a number", set("docVersion", 7)),
        bad(
            ReplyRejection.BAD_MIME,
            "image/gif",
            reply -> {
              reply
                  .getJsonObject("image")
                  .put("mime", "image/gif")
                  .put("dataUrl", "data:image/gif;base64,R0lGODlh");
              return reply;
            }),
        bad(ReplyRejection.BAD_MIME, "image/svg+xml", setIn("image", "mime", "image/svg+xml")),
        bad(
            ReplyRejection.BAD_MIME,
            "no mime",
            reply -> {
              reply.getJsonObject("image").remove("mime");
              return reply;
            }),
        bad(
            ReplyRejection.BAD_DATA_URL,
            "a data URL of another type",
            setIn("image", "dataUrl", dataUrlOf("image/jpeg", 8))),
        bad(
            ReplyRejection.BAD_DATA_URL,
            "a link instead of data",
            setIn("image", "dataUrl", "https://example.com/board.png")),
        bad(
            ReplyRejection.BAD_DATA_URL,
            "not base64",
            setIn("image", "dataUrl", "data:image/png;base64,not base64!")),
        bad(
            ReplyRejection.BAD_DATA_URL,
            "no image data",
            setIn("image", "dataUrl", "data:image/png;base64,")),
        bad(
            ReplyRejection.TOO_LARGE,
            "an image over the limit",
            setIn("image", "dataUrl", dataUrlOf("image/png", MAX_BYTES + 1))),
        bad(
            ReplyRejection.TOO_LARGE,
            "an image far over the limit",
            setIn("image", "dataUrl", dataUrlOf("image/png", 4 * MAX_BYTES))),
        bad(
            ReplyRejection.TOO_LARGE,
            "a byte count over the limit",
            setIn("image", "bytes", MAX_BYTES + 1)),
        bad(ReplyRejection.BAD_GEOMETRY, "bounds with NaN", setIn("bounds", "x", Double.NaN)),
        bad(
            ReplyRejection.BAD_GEOMETRY,
            "an infinite viewport",
            setIn("viewport", "w", Double.POSITIVE_INFINITY)),
        bad(
            ReplyRejection.BAD_GEOMETRY,
            "a viewport height in words",
            setIn("viewport", "h", "tall")),
        bad(ReplyRejection.BAD_GEOMETRY, "a negative width", setIn("bounds", "w", -1)),
        bad(ReplyRejection.BAD_GEOMETRY, "no bounds", without("bounds")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badReplies")
  void aRejectedReplyIsCountedAndTheGoodReplyAfterItCompletesTheCapture(BadReply bad) {
    List<JsonObject> requests =
        host(
            (count, request) -> {
              send(bad.spoil().apply(reply(request.getString("requestId"))));
              answer(request);
            });
    hostPresent("client-1", true);

    JsonObject capture = capture(captureRequest());

    assertEquals(1, requests.size(), "a rejected reply makes no new request");
    assertEquals(requests.get(0).getString("requestId"), capture.getString("requestId"));
    assertEquals(
        reply("").getJsonObject("image"), capture.getJsonObject("image"), "the good reply's image");
    JsonObject rejected = health().getJsonObject("rejected");
    for (ReplyRejection reason : ReplyRejection.values()) {
      assertEquals(
          reason == bad.reason() ? 1 : 0, rejected.getInteger(reason.label()), reason.label());
    }
  }

  @Test
  void aRejectedReplyIsLoggedWithItsReasonButNeverItsImage() {
    Logger logger = (Logger) LoggerFactory.getLogger(ScreenshotVerticle.class);
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    String tooLarge = dataUrlOf("image/png", MAX_BYTES + 1);
    try {
      host(
          (count, request) -> {
            send(reply("someone-else's-request"));
            JsonObject large = reply(request.getString("requestId"));
            large.getJsonObject("image").put("dataUrl", tooLarge);
            send(large);
            answer(request);
          });
      hostPresent("client-1", true);

      capture(captureRequest());
    } finally {
      logger.detachAppender(log);
    }

    List<ILoggingEvent> rejections =
        log.list.stream()
            .filter(event -> event.getMessage().equals("screenshot.reply_rejected"))
            .toList();
    assertEquals(
        List.of("unmatched", "too_large"),
        rejections.stream()
            .map(
                event ->
                    event.getKeyValuePairs().stream()
                        .filter(pair -> pair.key.equals("reason"))
                        .findFirst()
                        .orElseThrow()
                        .value)
            .toList());
    String logged =
        log.list.stream()
            .map(event -> event.getFormattedMessage() + " " + event.getKeyValuePairs())
            .reduce("", String::concat);
    assertFalse(logged.contains("iVBORw0KGgo"), logged);
    assertFalse(logged.contains(tooLarge.substring("data:image/png;base64,".length(), 40)), logged);
  }

  // Hosts coming and going

  @Test
  void whenTheLastHostLeavesTheRoomIsRefusedAgain() {
    hostPresent("client-1", true);
    hostPresent("client-2", true);
    hostPresent("client-1", false);
    hostPresent("client-2", false);

    Throwable failure =
        Await.failure(bus.request(Address.SCREENSHOT_CAPTURE.address(), captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
    assertEquals(0, health().getInteger("roomsWithHost"));
  }

  @Test
  void aLeaveFromAClientNeverSeenIsHarmless(Vertx vertx) {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(uncaught::add);

    hostPresent("stranger", false);
    // Taken after the leave (same sender, same verticle), so the leave has been handled by then.
    Throwable failure =
        Await.failure(bus.request(Address.SCREENSHOT_CAPTURE.address(), captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
    assertEquals(List.of(), uncaught);
  }

  @Test
  void aHostReportWithoutItsFieldsIsIgnored(Vertx vertx) {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(uncaught::add);

    bus.publish(
        Address.SCREENSHOT_HOSTS.address(),
        new JsonObject().put("roomId", roomId).put("present", true));
    bus.publish(
        Address.SCREENSHOT_HOSTS.address(),
        new JsonObject().put("roomId", roomId).put("clientId", "c").put("present", "yes"));
    Throwable failure =
        Await.failure(bus.request(Address.SCREENSHOT_CAPTURE.address(), captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
    assertEquals(List.of(), uncaught);
  }

  @Test
  void whenTheHostLeavesMidCaptureTheCaptureFailsAtOnceWithNoHost() {
    List<JsonObject> requests = host((count, request) -> hostPresent("client-1", false));
    hostPresent("client-1", true);

    // QUICK is half the screenshot timeout: a capture that waited for it would fail with TIMEOUT.
    Throwable failure =
        Await.failure(bus.request(Address.SCREENSHOT_CAPTURE.address(), captureRequest(), QUICK));

    assertEquals(FailureCode.NO_HOST, failureCode(failure));
    assertEquals(1, requests.size());
    JsonObject health = health();
    assertEquals(0, health.getInteger("capturesInFlight"));
    assertEquals(0, health.getInteger("roomsWithHost"));
    assertEquals(1, health.getInteger("noHost"));
  }

  @Test
  void whenOneOfTwoHostsLeavesTheCaptureTakesTheOthersReply() {
    host(
        (count, request) -> {
          hostPresent("client-1", false);
          send(reply(request.getString("requestId")));
          send(reply(request.getString("requestId")).put("clientId", "client-2"));
        });
    hostPresent("client-1", true);
    hostPresent("client-2", true);

    JsonObject capture = capture(captureRequest());

    assertEquals("client-2", capture.getString("clientId"));
    assertEquals(
        1,
        health().getJsonObject("rejected").getInteger("not_host"),
        "client-1 is no host once it left");
  }

  @Test
  void aRoomWhoseHostLeftAndCameBackIsAskedAgain() {
    hostPresent("client-1", true);
    hostPresent("client-1", false);
    List<JsonObject> requests = host((count, request) -> answer(request));
    hostPresent("client-1", true);

    capture(captureRequest());

    assertEquals(1, requests.size());
  }

  @Test
  void theHealthReportCountsEveryRejectionReasonFromZero() {
    JsonObject health = health();

    assertTrue(health.getBoolean("ok"));
    assertEquals(0, health.getInteger("captured"));
    assertEquals(0, health.getInteger("timedOut"));
    JsonObject rejected = health.getJsonObject("rejected");
    assertEquals(ReplyRejection.values().length, rejected.size());
    for (ReplyRejection reason : ReplyRejection.values()) {
      assertEquals(0, rejected.getInteger(reason.label()), reason.label());
    }
  }

  /** The one test that waits out a screenshot timeout (2.5 s). */
  @Test
  void aFirstAttemptAnsweredOnlyWithARejectedReplyTimesOutAndTheRetryIsTaken() {
    List<JsonObject> requests =
        host(
            (count, request) -> {
              if (count == 1) {
                send(
                    reply(request.getString("requestId"))
                        .put(
                            "image",
                            new JsonObject()
                                .put("mime", "image/gif")
                                .put("dataUrl", "data:image/gif;base64,R0lGODlh")
                                .put("bytes", 6)));
              } else {
                answer(request);
              }
            });
    hostPresent("client-1", true);

    Future<Message<JsonObject>> capture =
        bus.request(Address.SCREENSHOT_CAPTURE.address(), captureRequest());
    JsonObject reply = Await.result(capture).body();

    assertEquals(2, requests.size(), "the first request and one retry");
    assertNotEquals(
        requests.get(0).getString("requestId"),
        requests.get(1).getString("requestId"),
        "each attempt is a new request");
    assertEquals(requests.get(1).getString("requestId"), reply.getString("requestId"));
    JsonObject health = health();
    assertEquals(1, health.getInteger("timedOut"));
    assertEquals(1, health.getJsonObject("rejected").getInteger("bad_mime"));
    assertEquals(1, health.getInteger("captured"));
  }
}
