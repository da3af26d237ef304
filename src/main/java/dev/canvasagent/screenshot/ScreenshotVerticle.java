package dev.canvasagent.screenshot;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.HostPresence;
import dev.canvasagent.bus.HostScreenshotRequest;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.ScreenshotRequest;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The screenshot RPC. A capture ({@code screenshot.capture}, see {@link ScreenshotRequest}) is answered
 * from the {@link ScreenshotCache} when the same room, revision and bounds were captured within the
 * TTL and the caller did not ask for a fresh one; otherwise the room's host gets an {@code agent:screenshot_request} and the capture waits for
 * the {@code agent:screenshot} with its {@code requestId}, with a timeout and bounded retries. Replies
 * are checked first ({@link ScreenshotReply}); a rejected one is logged and counted, and the capture
 * keeps waiting. A room without a host is refused at once with NO_HOST, and captures waiting on a room
 * whose last host leaves fail with NO_HOST at once, so a run goes on text-only without waiting.
 *
 * <p>On a cluster the host may be on any node: the bridge reports the host each room's owner elected,
 * wherever it is ({@code screenshot.hosts}); the request reaches it through the room's stream, and its
 * reply comes back on the room's clustered {@code agent:screenshot} topic.
 */
public final class ScreenshotVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(ScreenshotVerticle.class);
  static final int DEFAULT_MAX_SIDE = 800;

  private final AppConfig.Screenshot config;
  private final ScreenshotCache cache;

  /**
   * Starts every request id this verticle sends ({@code <askerId>_<uuid>}). On a cluster a host's
   * reply is heard by the screenshot verticle of every node that knows the host; one whose id another
   * node's verticle sent is that one's to take, not a reply to reject here.
   */
  private final String askerId = UUID.randomUUID().toString();

  private static final Pattern CLUSTER_REQUEST_ID =
      Pattern.compile("^([0-9a-f-]{36})_[0-9a-f-]{36}$");

  /** The clients of each room that answer screenshot requests, as the bridge reports them. */
  private final Map<String, Set<String>> hostsByRoom = new HashMap<>();

  /** One consumer of {@code agent:screenshot} per room with a host. */
  private final Map<String, MessageConsumer<Object>> repliesByRoom = new HashMap<>();

  /** The capture waiting on each request id sent to a host, for the attempt under way. */
  private final Map<String, Capture> awaitingReply = new HashMap<>();

  private final Set<Capture> inFlight = new LinkedHashSet<>();
  private final Map<ReplyRejection, Long> rejected = new EnumMap<>(ReplyRejection.class);
  private long sweepTimer = -1;
  private long captured;
  private long cacheHits;
  private long timedOut;
  private long noHost;

  public ScreenshotVerticle(AppConfig.Screenshot config) {
    this.config = config;
    this.cache = new ScreenshotCache(config.cacheTtlMs(), System::nanoTime);
  }

  @Override
  public String name() {
    return "screenshot";
  }

  @Override
  protected Future<?> startVerticle() {
    if (cache.enabled()) {
      sweepTimer = vertx.setPeriodic(config.cacheTtlMs(), id -> cache.evictExpired());
    }
    return Future.join(
        listen(Address.SCREENSHOT_HOSTS, this::trackHost),
        answer(Address.SCREENSHOT_CAPTURE, this::measuredCapture));
  }

  /** A capture, counted by outcome; a host's answer also timed, from the first ask to the accepted reply. */
  private Future<Screenshot> measuredCapture(ScreenshotRequest request) {
    CanvasMetrics meters = CanvasMetrics.of(vertx);
    long startedAt = System.nanoTime();
    return capture(request)
        .onSuccess(
            shot -> {
              if (shot.cached()) {
                meters.screenshot("cached");
              } else {
                meters.screenshot("captured");
                meters.screenshotCaptured(
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt));
              }
            })
        .onFailure(
            error ->
                meters.screenshot(
                    switch (Failure.of(error).code()) {
                      case NO_HOST -> "no_host";
                      case SCREENSHOT_TIMEOUT -> "timeout";
                      default -> "failed";
                    }));
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(sweepTimer);
    List.copyOf(inFlight).forEach(Capture::cancelTimer);
    return Future.succeededFuture();
  }

  /** A client that answers screenshot requests came or went; a report without its fields reads as null. */
  private void trackHost(HostPresence report) {
    if (report == null) {
      LOG.atWarn().log("screenshot.host_report_ignored");
      return;
    }
    String roomId = report.roomId();
    String clientId = report.clientId();
    if (report.present()) {
      hostsByRoom.computeIfAbsent(roomId, this::listenForReplies).add(clientId);
      return;
    }
    Set<String> hosts = hostsByRoom.get(roomId);
    if (hosts != null && hosts.remove(clientId) && hosts.isEmpty()) {
      forgetRoom(roomId);
    }
  }

  /**
   * The host's {@code agent:screenshot} arrives on the room's topic, which is the browser wire protocol
   * rather than a bus request: its body is checked and read into a {@link Screenshot} by
   * {@link ScreenshotReply} in {@link #onReply}.
   */
  private Set<String> listenForReplies(String roomId) {
    repliesByRoom.put(
        roomId,
        vertx
            .eventBus()
            .consumer(RoomTopic.AGENT_SCREENSHOT.address(roomId), reply -> onReply(roomId, reply)));
    return new HashSet<>();
  }

  /** The last host left: no reply can come, so the room's captures end now, and its images go. */
  private void forgetRoom(String roomId) {
    hostsByRoom.remove(roomId);
    repliesByRoom.remove(roomId).unregister();
    cache.forgetRoom(roomId);
    List<Capture> orphans =
        inFlight.stream().filter(capture -> capture.request.roomId().equals(roomId)).toList();
    orphans.forEach(capture -> capture.fail(noHostIn(roomId)));
    LOG.atInfo()
        .addKeyValue("roomId", roomId)
        .addKeyValue("failedCaptures", orphans.size())
        .log("screenshot.host_lost");
  }

  /** A malformed request is refused as {@link ScreenshotRequest#fromJson} says, before this is called. */
  private Future<Screenshot> capture(ScreenshotRequest request) {
    if (!hostsByRoom.containsKey(request.roomId())) {
      return Future.failedFuture(noHostIn(request.roomId()));
    }
    Optional<ScreenshotCache.Key> key = ScreenshotCache.Key.of(request);
    Optional<Screenshot> cached = request.fresh() ? Optional.empty() : key.flatMap(cache::get);
    if (cached.isPresent()) {
      cacheHits++;
      return Future.succeededFuture(cached.get().withCached(true));
    }
    return new Capture(request)
        .start()
        .map(
            result -> {
              key.ifPresent(k -> cache.put(k, result));
              return result.withCached(false);
            });
  }

  private Failure noHostIn(String roomId) {
    noHost++;
    return new Failure(
        FailureCode.NO_HOST, "no client in room " + roomId + " can take a screenshot");
  }

  /** An {@code agent:screenshot} on a room's topic: taken by the capture it names if every check passes. */
  private void onReply(String roomId, Message<Object> message) {
    if (!(message.body() instanceof JsonObject reply)) {
      reject(roomId, null, ReplyRejection.MALFORMED, "the reply is not a JSON object");
      return;
    }
    Object requestId = reply.getValue("requestId");
    if (requestId instanceof String id && isAnotherAskers(id)) {
      LOG.atDebug()
          .addKeyValue("roomId", roomId)
          .addKeyValue("requestId", ScreenshotReply.clipped(id))
          .log("screenshot.reply_for_another_node");
      return;
    }
    Capture capture = awaitingReply.get(requestId instanceof String id ? id : null);
    if (capture == null || !capture.request.roomId().equals(roomId)) {
      reject(
          roomId,
          requestId,
          ReplyRejection.UNMATCHED,
          "no capture in this room waits for this requestId");
      return;
    }
    if (!hostsByRoom.getOrDefault(roomId, Set.of()).contains(reply.getValue("clientId"))) {
      reject(
          roomId,
          requestId,
          ReplyRejection.NOT_HOST,
          "clientId "
              + ScreenshotReply.shown(reply.getValue("clientId"))
              + " is not a host of the room");
      return;
    }
    try {
      capture.answered(ScreenshotReply.accept(reply, config.maxBytes()));
    } catch (ScreenshotReply.Rejected rejection) {
      reject(roomId, requestId, rejection.reason(), rejection.getMessage());
    }
  }

  private boolean isAnotherAskers(String requestId) {
    Matcher asked = CLUSTER_REQUEST_ID.matcher(requestId);
    return asked.matches() && !asked.group(1).equals(askerId);
  }

  private void reject(String roomId, Object requestId, ReplyRejection reason, String detail) {
    rejected.merge(reason, 1L, Long::sum);
    LOG.atInfo()
        .addKeyValue("reason", reason.label())
        .addKeyValue("roomId", roomId)
        .addKeyValue(
            "requestId",
            requestId == null ? null : ScreenshotReply.clipped(String.valueOf(requestId)))
        .addKeyValue("detail", detail)
        .log("screenshot.reply_rejected");
  }

  @Override
  protected Future<JsonObject> health() {
    JsonObject rejections = new JsonObject();
    for (ReplyRejection reason : ReplyRejection.values()) {
      rejections.put(reason.label(), rejected.getOrDefault(reason, 0L));
    }
    return Future.succeededFuture(
        new JsonObject()
            .put("ok", true)
            .put("roomsWithHost", hostsByRoom.size())
            .put("capturesInFlight", inFlight.size())
            .put("captured", captured)
            .put("cacheHits", cacheHits)
            .put("cacheEntries", cache.size())
            .put("timedOut", timedOut)
            .put("noHost", noHost)
            .put("rejected", rejections));
  }

  /**
   * One capture from the host: attempts, each a new request id, until an accepted reply, NO_HOST, or
   * the timeout of the last attempt (SCREENSHOT_TIMEOUT).
   */
  private final class Capture {
    final ScreenshotRequest request;
    private final Promise<Screenshot> result = Promise.promise();
    private int attempt;
    private String requestId;
    private long timer = -1;

    Capture(ScreenshotRequest request) {
      this.request = request;
    }

    Future<Screenshot> start() {
      inFlight.add(this);
      result
          .future()
          .onComplete(
              done -> {
                cancelTimer();
                awaitingReply.remove(requestId);
                inFlight.remove(this);
              });
      ask();
      return result.future();
    }

    private void ask() {
      MessageConsumer<Object> replies = repliesByRoom.get(request.roomId());
      if (replies == null) {
        fail(noHostIn(request.roomId()));
        return;
      }
      requestId = askerId + "_" + UUID.randomUUID();
      awaitingReply.put(requestId, this);
      timer = vertx.setTimer(config.timeoutMs(), id -> timedOut());
      HostScreenshotRequest hostRequest =
          new HostScreenshotRequest(
              request.sessionId(), requestId, DEFAULT_MAX_SIDE, request.bounds());
      replies
          .completion()
          .onSuccess(
              ready -> {
                if (!result.future().isComplete()) {
                  RoomTopic.AGENT_SCREENSHOT_REQUEST.publish(
                      vertx.eventBus(), request.roomId(), hostRequest);
                }
              })
          .onFailure(result::tryFail);
    }

    private void timedOut() {
      timedOut++;
      awaitingReply.remove(requestId);
      LOG.atInfo()
          .addKeyValue("roomId", request.roomId())
          .addKeyValue("requestId", requestId)
          .addKeyValue("attempt", attempt + 1)
          .log("screenshot.timeout");
      if (attempt >= config.retries()) {
        result.tryFail(
            new Failure(
                FailureCode.SCREENSHOT_TIMEOUT,
                "no screenshot within "
                    + config.timeoutMs()
                    + " ms, "
                    + (attempt + 1)
                    + " attempts"));
        return;
      }
      attempt++;
      timer = vertx.setTimer(Math.max(1, config.retryDelayMs()), id -> ask());
    }

    /**
     * The {@code agent:screenshot_request} the room's host gets for one attempt: a room topic's body,
     * the browser wire protocol, so it is written here as the protocol says.
     */
    void answered(Screenshot answer) {
      captured++;
      result.tryComplete(answer);
    }

    void fail(Failure failure) {
      result.tryFail(failure);
    }

    void cancelTimer() {
      vertx.cancelTimer(timer);
    }
  }
}
