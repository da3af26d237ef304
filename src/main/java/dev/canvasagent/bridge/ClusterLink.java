package dev.canvasagent.bridge;

import dev.canvasagent.bus.BusMessage;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridge's clustered addresses, the ones that cross nodes on purpose: each node's own address
 * ({@code bridge.node.<nodeId>}, where the owners of rooms and the nodes that watch them talk, one
 * operation per message), the hosts' announcements every node hears ({@code bridge.hosts}), and the
 * room topics an owner sequences. On one node all of it is delivered locally, the same way.
 */
final class ClusterLink {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterLink.class);

  /** What a message to a node's address asks for. */
  enum Op {
    /** To a room's owner: stream the room to this node ({@link RoomWatch} → {@link RoomSnapshot}). */
    WATCH,
    /** To a room's owner: this node no longer serves the room ({@link RoomWatch}, one-way). */
    UNWATCH,
    /** To a room's owner: a client joined, changed or left ({@link RoomClientChange} → {}). */
    CLIENT,
    /** From a room's owner to a watching node: the next message of the stream ({@link Sequenced}). */
    SEQUENCED,
    /** To a room's owner: the viewports of the room's clients on every node. */
    VIEWPORTS,
    /** To a watching node: the viewports of the room's clients there. */
    NODE_VIEWPORTS,
    /** To any node: the hosts of the rooms it owns ({} → {hosts: [RoomHost]}). */
    HOSTS
  }

  static final String HOSTS_ADDRESS = "bridge.hosts";

  /** How long a node waits for another's answer before it takes the other as unreachable. */
  static final long REQUEST_TIMEOUT_MS = 5_000;

  private static final String OP_HEADER = "op";

  private final Vertx vertx;
  private final String nodeId;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();

  ClusterLink(Vertx vertx, String nodeId) {
    this.vertx = vertx;
    this.nodeId = nodeId;
  }

  String nodeId() {
    return nodeId;
  }

  /**
   * A field a node's message cannot do without: its string, or an IllegalArgumentException naming
   * the message and the field (answered 400 to the node that sent it).
   */
  static String required(JsonObject json, String key, String message) {
    if (!(json.getValue(key) instanceof String value) || value.isEmpty()) {
      throw new IllegalArgumentException(message + ": '" + key + "' must be a non-empty string");
    }
    return value;
  }

  static String nodeAddress(String nodeId) {
    return "bridge.node." + nodeId;
  }

  /**
   * Takes this node's messages with {@code handlers} (one per operation; a one-way message's result is
   * dropped) and the hosts' announcements with {@code hosts}. Completes once both are registered.
   */
  Future<Void> start(
      Map<Op, Function<JsonObject, Future<JsonObject>>> handlers, Handler<RoomHost> hosts) {
    MessageConsumer<JsonObject> node =
        vertx.eventBus().consumer(nodeAddress(nodeId), message -> handle(handlers, message));
    MessageConsumer<JsonObject> announcements =
        vertx
            .eventBus()
            .consumer(HOSTS_ADDRESS, message -> hosts.handle(RoomHost.fromJson(message.body())));
    consumers.add(node);
    consumers.add(announcements);
    return Future.all(node.completion(), announcements.completion()).mapEmpty();
  }

  private void handle(
      Map<Op, Function<JsonObject, Future<JsonObject>>> handlers, Message<JsonObject> message) {
    Op op;
    try {
      op = Op.valueOf(String.valueOf(message.headers().get(OP_HEADER)));
    } catch (IllegalArgumentException unknown) {
      LOG.atWarn().addKeyValue("op", message.headers().get(OP_HEADER)).log("cluster.unknown_op");
      message.fail(400, "unknown operation '" + message.headers().get(OP_HEADER) + "'");
      return;
    }
    Future<JsonObject> answer;
    try {
      if (message.body() == null) {
        throw new IllegalArgumentException(op + ": the body must be a JSON object");
      }
      answer = handlers.get(op).apply(message.body());
    } catch (RuntimeException failed) {
      answer = Future.failedFuture(failed);
    }
    answer.onComplete(
        done -> {
          if (done.failed()) {
            LOG.atWarn()
                .addKeyValue("op", op)
                .addKeyValue("error", String.valueOf(done.cause().getMessage()))
                .log("cluster.op_failed");
          }
          if (message.replyAddress() == null) {
            return;
          }
          if (done.succeeded()) {
            message.reply(done.result());
          } else {
            message.fail(
                done.cause() instanceof IllegalArgumentException ? 400 : 500,
                String.valueOf(done.cause().getMessage()));
          }
        });
  }

  /** Asks {@code node}; fails when it has no bridge (yet), does not answer in time, or fails. */
  Future<JsonObject> request(String node, Op op, BusMessage body) {
    return vertx
        .eventBus()
        .<JsonObject>request(nodeAddress(node), body.toJson(), options(op))
        .map(Message::body);
  }

  /** Tells {@code node}, without waiting for anything. */
  void send(String node, Op op, BusMessage body) {
    vertx.eventBus().send(nodeAddress(node), body.toJson(), options(op));
  }

  private static DeliveryOptions options(Op op) {
    return new DeliveryOptions().addHeader(OP_HEADER, op.name()).setSendTimeout(REQUEST_TIMEOUT_MS);
  }

  /** Tells every node who hosts a room now. */
  void announce(RoomHost host) {
    vertx.eventBus().publish(HOSTS_ADDRESS, host.toJson());
  }

  /**
   * A room topic's raw messages, published by any node (runs, the patch engine, the lease manager),
   * for the room's owner to sequence, with the id its publisher gave it. The body is the wire
   * protocol's payload, relayed as it is.
   */
  MessageConsumer<JsonObject> listen(
      RoomTopic topic, String roomId, BiConsumer<JsonObject, String> handler) {
    return vertx
        .eventBus()
        .<JsonObject>consumer(
            topic.address(roomId),
            message ->
                handler.accept(message.body(), message.headers().get(RoomTopic.MESSAGE_ID_HEADER)));
  }

  void stop() {
    consumers.forEach(MessageConsumer::unregister);
    consumers.clear();
  }
}
