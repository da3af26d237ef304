package dev.canvasagent.bridge;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.schema.JsonSchemaFile;
import dev.canvasagent.schema.NulCharacters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * What a browser may send into its room, on any transport: {@code agent:ack}, {@code agent:screenshot}
 * (from the host only), {@code canvas:viewport} and {@code canvas:change}. Each payload is checked
 * against its schema (and may hold no NUL character); anything else — another topic, a forged client
 * id, an ack of a seq never sent — is refused with an error naming the problem, and nothing else in
 * the room is disturbed.
 */
final class InboundFrames {
  /** What became of a frame: refused, or accepted. */
  sealed interface Outcome permits Refusal, Accepted {}

  /**
   * An accepted frame, and what a sender that asked for a reply (SockJS) is told: {@code {ok: true}},
   * and for a board change the revision and whether it changed anything.
   */
  record Accepted(JsonObject reply) implements Outcome {
    static Accepted ok() {
      return new Accepted(new JsonObject().put("ok", true));
    }
  }

  /** A refusal to send back to the client: {@code {code, message}} (and more, e.g. a revision). */
  record Refusal(FailureCode code, JsonObject payload) implements Outcome {
    static Refusal of(FailureCode code, String message) {
      return new Refusal(
          code,
          new JsonObject().put("type", "error").put("code", code.name()).put("message", message));
    }
  }

  private final Vertx vertx;
  private final EdgeLimits limits;
  private final Map<RoomTopic, JsonSchemaFile> schemas =
      Map.of(
          RoomTopic.AGENT_ACK, JsonSchemaFile.load("api/ack.json"),
          RoomTopic.AGENT_SCREENSHOT, JsonSchemaFile.load("api/screenshot.json"),
          RoomTopic.CANVAS_VIEWPORT, JsonSchemaFile.load("api/viewport.json"),
          RoomTopic.CANVAS_CHANGE, JsonSchemaFile.load("api/change-request.json"));

  InboundFrames(Vertx vertx, EdgeLimits limits) {
    this.vertx = vertx;
    this.limits = limits;
  }

  /** A frame as text ({@code {topic, payload}}); completes with a refusal or its acceptance. */
  Future<Outcome> handleText(RoomClient client, Room room, String text) {
    Object parsed;
    try {
      parsed = new JsonObject(text);
    } catch (RuntimeException notJson) {
      return refuse(FailureCode.INVALID_FRAME, "a frame must be a JSON object {topic, payload}");
    }
    JsonObject frame = (JsonObject) parsed;
    if (!(frame.getValue("topic") instanceof String topic)
        || !(frame.getValue("payload") instanceof JsonObject payload)) {
      return refuse(FailureCode.INVALID_FRAME, "a frame must be {topic: string, payload: object}");
    }
    return handle(client, room, topic, payload);
  }

  /** One topic and payload from a client of {@code room}. */
  Future<Outcome> handle(RoomClient client, Room room, String topicName, JsonObject payload) {
    if (!client.mayEdit()) {
      return refuse(
          FailureCode.FORBIDDEN, "this connection's token is a viewer's: it may listen, not send");
    }
    // Counted once the sender may send, so listeners cannot use up the room's allowance.
    var crowded = limits.roomMessage(room.roomId());
    if (crowded.isPresent()) {
      return Future.succeededFuture(limits.refusal(crowded.get()));
    }
    RoomTopic topic =
        schemas.keySet().stream()
            .filter(candidate -> candidate.wireName().equals(topicName))
            .findFirst()
            .orElse(null);
    if (topic == null) {
      return refuse(
          FailureCode.UNKNOWN_TOPIC,
          "clients may send agent:ack, agent:screenshot, canvas:viewport or canvas:change, not '"
              + (topicName.length() > 40 ? topicName.substring(0, 40) + "…" : topicName)
              + "'");
    }
    var nul = NulCharacters.firstPointer(payload);
    if (nul.isPresent()) {
      // A person's board change would reach PostgreSQL's jsonb, which cannot hold it.
      return refuse(
          FailureCode.INVALID_PAYLOAD, topicName + ": " + nul.get() + ": " + NulCharacters.PROBLEM);
    }
    var violations = schemas.get(topic).violations(payload);
    if (violations.isPresent()) {
      return refuse(FailureCode.INVALID_PAYLOAD, topicName + ": " + violations.get());
    }
    return switch (topic) {
      case AGENT_ACK -> ack(client, room, payload);
      case AGENT_SCREENSHOT -> screenshot(client, room, payload);
      case CANVAS_VIEWPORT -> {
        room.viewport(
            client.clientId(),
            Viewport.fromJson(payload.getJsonObject("bounds")),
            RunRequest.selectionFrom(payload));
        yield Future.succeededFuture(Accepted.ok());
      }
      case CANVAS_CHANGE -> change(client, room, payload);
      default -> refuse(FailureCode.UNKNOWN_TOPIC, topicName);
    };
  }

  private Future<Outcome> ack(RoomClient client, Room room, JsonObject ack) {
    if (!client.clientId().equals(ack.getString("clientId"))) {
      return refuse(FailureCode.FORGED_CLIENT_ID, "this connection is client " + client.clientId());
    }
    return room.ack(client.clientId(), ack.getString("sessionId"), ack.getLong("seq"))
        .map(problem -> refuse(FailureCode.ACK_UNKNOWN, problem))
        .orElseGet(() -> Future.succeededFuture(Accepted.ok()));
  }

  private Future<Outcome> screenshot(RoomClient client, Room room, JsonObject screenshot) {
    if (!room.hostId().map(client.clientId()::equals).orElse(false)) {
      return refuse(FailureCode.NOT_HOST, "only the room's host answers screenshot requests");
    }
    // The data URL is ASCII (base64), so its length is its size in bytes.
    Object dataUrl = screenshot.getJsonObject("image").getValue("dataUrl");
    var over =
        limits.screenshot(client.limitKey(), dataUrl instanceof String text ? text.length() : 0);
    if (over.isPresent()) {
      return Future.succeededFuture(limits.refusal(over.get()));
    }
    // Relayed as the browser sent it, its sender stamped: a room topic carries the wire protocol,
    // not a
    // bus record. The screenshot verticle checks it and reads it into its answer (ScreenshotReply).
    vertx
        .eventBus()
        .publish(
            RoomTopic.AGENT_SCREENSHOT.address(room.roomId()),
            screenshot.copy().put("clientId", client.clientId()));
    return Future.succeededFuture(Accepted.ok());
  }

  private Future<Outcome> change(RoomClient client, Room room, JsonObject change) {
    BoardChangeRequest ask =
        new BoardChangeRequest(
            room.roomId(),
            change.getLong("baseRevision"),
            RecordDiff.fromJson(change),
            "person:" + client.clientId());
    return Address.PATCH_BOARD_CHANGE
        .ask(vertx.eventBus(), ask)
        .<Outcome>map(
            applied ->
                new Accepted(
                    new JsonObject()
                        .put("ok", true)
                        .put("revision", applied.revision())
                        .put("changed", applied.changed())))
        .recover(
            error -> {
              Failure failure = Failure.of(error);
              return refuse(failure.code(), failure.getMessage());
            });
  }

  private static Future<Outcome> refuse(FailureCode code, String message) {
    return Future.succeededFuture(Refusal.of(code, message));
  }
}
