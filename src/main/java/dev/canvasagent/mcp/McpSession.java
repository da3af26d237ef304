package dev.canvasagent.mcp;

import dev.canvasagent.bus.Actor;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One MCP session on this node, from {@code initialize} until the client deletes it or it idles out:
 * the protocol revision agreed, who it acts for (the token's subject, bound for the session's life), the
 * room it was opened for (if any), the canvas sessions its board edits go out under (one per room), its
 * resource subscriptions, and the notification stream the client holds open ({@code GET /mcp}).
 * Confined to the event loop of the bridge instance that created it.
 */
public final class McpSession {
  private final String id;
  private final String protocolVersion;
  private final JsonObject clientInfo;
  private final String subject;
  private final String boundRoom;
  private final Map<String, String> canvasSessions = new HashMap<>();
  private final Map<String, Future<Void>> roomQueues = new HashMap<>();
  private final Map<String, Runnable> subscriptions = new LinkedHashMap<>();
  private final Map<Object, Cancellation> inFlight = new HashMap<>();
  private Consumer<JsonObject> stream;
  private Runnable closeStream;
  private long lastUsedMillis;
  private boolean ended;

  McpSession(
      String id,
      String protocolVersion,
      JsonObject clientInfo,
      String subject,
      String boundRoom,
      long nowMillis) {
    this.id = id;
    this.protocolVersion = protocolVersion;
    this.clientInfo = clientInfo.copy();
    this.subject = subject;
    this.boundRoom = boundRoom;
    this.lastUsedMillis = nowMillis;
  }

  public String id() {
    return id;
  }

  public String protocolVersion() {
    return protocolVersion;
  }

  /** The client's {@code name} from initialize's {@code clientInfo}, for titles and logs. */
  public String clientName() {
    Object name = clientInfo.getValue("name");
    return name instanceof String text && !text.isBlank() ? text : "an MCP client";
  }

  /** The token subject the session was opened for: every later request must carry the same. */
  public String subject() {
    return subject;
  }

  /**
   * Who this session acts as on documents and boards: the token's subject, acting through this MCP
   * session, so a lease it holds is the session's and a person preempts it as they would the agent.
   */
  public Actor actor() {
    return Actor.agent(subject, "mcp-" + id.substring(0, 12));
  }

  /** The room named by {@code /mcp?room=} at initialize: used when a tool's arguments name none. */
  public Optional<String> boundRoom() {
    return Optional.ofNullable(boundRoom);
  }

  /** The canvas session this MCP session's board edits in {@code roomId} go out under, once made. */
  public Optional<String> canvasSession(String roomId) {
    return Optional.ofNullable(canvasSessions.get(roomId));
  }

  public void canvasSession(String roomId, String sessionId) {
    canvasSessions.put(roomId, sessionId);
  }

  public void forgetCanvasSession(String roomId) {
    canvasSessions.remove(roomId);
  }

  /**
   * Runs {@code call} once this session's calls in {@code roomId} before it have answered: a room's
   * edits from one client apply in the order it sent them, and the first one's canvas session is made
   * (or given up) before the next looks for it.
   */
  public <T> Future<T> inRoomOrder(String roomId, Supplier<Future<T>> call) {
    Future<Void> before = roomQueues.getOrDefault(roomId, Future.succeededFuture());
    Future<T> answered = before.transform(previous -> call.get());
    Future<Void> done = answered.transform(result -> Future.succeededFuture());
    roomQueues.put(roomId, done);
    done.onComplete(
        finished -> {
          if (roomQueues.get(roomId) == done) {
            roomQueues.remove(roomId);
          }
        });
    return answered;
  }

  public boolean subscribed(String uri) {
    return subscriptions.containsKey(uri);
  }

  public int subscriptionCount() {
    return subscriptions.size();
  }

  /** Keeps {@code uri}'s subscription until {@link #unsubscribe} or the session's end runs {@code close}. */
  public void subscribe(String uri, Runnable close) {
    Runnable previous = subscriptions.put(uri, close);
    if (previous != null) {
      previous.run();
    }
  }

  public boolean unsubscribe(String uri) {
    Runnable close = subscriptions.remove(uri);
    if (close != null) {
      close.run();
    }
    return close != null;
  }

  /** A server notification on the client's open stream; dropped when it holds none (the protocol allows it). */
  public void notify(String method, JsonObject params) {
    if (stream != null && !ended) {
      stream.accept(JsonRpcMessage.notification(method, params));
    }
  }

  public boolean hasStream() {
    return stream != null;
  }

  /**
   * The client's {@code GET /mcp} stream, ended by {@code close} when the session ends; false when one
   * is already open (one per session).
   */
  public boolean openStream(Consumer<JsonObject> writer, Runnable close) {
    if (stream != null || ended) {
      return false;
    }
    stream = writer;
    closeStream = close;
    return true;
  }

  public void streamClosed(Consumer<JsonObject> writer) {
    if (stream == writer) {
      stream = null;
      closeStream = null;
    }
  }

  /** A request under way, cancellable by its id until it answers ({@link #answered}). */
  Cancellation started(Object requestId) {
    Cancellation cancellation = new Cancellation();
    inFlight.put(requestId, cancellation);
    return cancellation;
  }

  void answered(Object requestId, Cancellation cancellation) {
    inFlight.remove(requestId, cancellation);
  }

  /** The client's {@code notifications/cancelled}: an id not (or no longer) under way changes nothing. */
  void cancel(Object requestId) {
    Cancellation cancellation = inFlight.remove(requestId);
    if (cancellation != null) {
      cancellation.cancel();
    }
  }

  void touch(long nowMillis) {
    lastUsedMillis = nowMillis;
  }

  /** Idle: no request for {@code idleMs} and no stream open. */
  boolean idleSince(long cutoffMillis) {
    return stream == null && lastUsedMillis < cutoffMillis;
  }

  boolean ended() {
    return ended;
  }

  void end() {
    ended = true;
    new java.util.ArrayList<>(inFlight.values()).forEach(Cancellation::cancel);
    inFlight.clear();
    subscriptions.values().forEach(Runnable::run);
    subscriptions.clear();
    Runnable close = closeStream;
    stream = null;
    closeStream = null;
    if (close != null) {
      close.run();
    }
  }
}
