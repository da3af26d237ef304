package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardRef;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code canvas://rooms/{roomId}/board}: a room's whole board, {@code {roomId, revision, records}} as
 * {@code patch.board.get} answers it. Readable by a viewer of the room. A subscription hears every new
 * revision, whoever made it: a run's or an MCP board tool's envelope ({@code agent:action} with its
 * {@code rev}) and a person's change ({@code canvas:change}). Nothing lists a server's rooms short of a
 * scan, so {@code resources/list} names only the room the session was opened for; the template is the
 * way to any other.
 */
final class BoardResource implements McpResource {
  static final String TEMPLATE = "canvas://rooms/{roomId}/board";
  private static final Pattern URI =
      Pattern.compile("canvas://rooms/(" + RoomId.CHARACTERS + ")/board");

  private final EventBus bus;
  private final McpAccess access;
  private final ResourceSubscriptions subscriptions;

  BoardResource(EventBus bus, McpAccess access, ResourceSubscriptions subscriptions) {
    this.bus = bus;
    this.access = access;
    this.subscriptions = subscriptions;
  }

  static String uri(String roomId) {
    return "canvas://rooms/" + roomId + "/board";
  }

  @Override
  public Future<JsonArray> list(McpSession session, Grant grant) {
    JsonArray list = new JsonArray();
    session
        .boundRoom()
        .filter(roomId -> grant.allowsRoom(roomId, Role.VIEWER))
        .ifPresent(roomId -> list.add(describe(roomId)));
    return Future.succeededFuture(list);
  }

  private static JsonObject describe(String roomId) {
    return new JsonObject()
        .put("uri", uri(roomId))
        .put("name", "board-" + roomId)
        .put("title", "The board of room " + roomId)
        .put(
            "description",
            "Every tldraw record of the room's board at its current revision: {roomId, revision, records}.")
        .put("mimeType", "application/json");
  }

  @Override
  public Optional<JsonObject> template() {
    return Optional.of(
        new JsonObject()
            .put("uriTemplate", TEMPLATE)
            .put("name", "board")
            .put("title", "A room's board")
            .put(
                "description",
                "The tldraw records of a room's board at its current revision: {roomId, revision, records}. "
                    + "Subscribe to hear of every new revision (a run's, a board tool's, a person's).")
            .put("mimeType", "application/json"));
  }

  @Override
  public boolean owns(String uri) {
    return URI.matcher(uri).matches();
  }

  private static String room(String uri) {
    Matcher matcher = URI.matcher(uri);
    if (!matcher.matches()) {
      throw new Failure(FailureCode.NOT_FOUND, "not a board URI");
    }
    return matcher.group(1);
  }

  @Override
  public Future<JsonArray> read(String uri, McpSession session, Grant grant) {
    String roomId = room(uri);
    return access
        .room(grant, Role.VIEWER, roomId)
        .compose(allowed -> Address.PATCH_BOARD_GET.ask(bus, BoardRef.current(roomId)))
        .map(
            snapshot ->
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("uri", uri)
                            .put("mimeType", "application/json")
                            .put("text", snapshot.toJson().encode())));
  }

  @Override
  public Future<Void> subscribe(String uri, McpSession session, Grant grant) {
    String roomId = room(uri);
    return access
        .room(grant, Role.VIEWER, roomId)
        .compose(
            allowed ->
                subscriptions.open(
                    session,
                    uri,
                    roomId,
                    List.of(RoomTopic.AGENT_ACTION, RoomTopic.CANVAS_CHANGE),
                    BoardResource::madeARevision));
  }

  /**
   * A person's change always made one; an envelope did when it carries its {@code rev} (a partial
   * envelope, streamed before its action is judged, and a viewport move change no board).
   */
  static boolean madeARevision(JsonObject payload) {
    return RoomTopic.CANVAS_CHANGE.wireName().equals(payload.getString("type"))
        || (payload.containsKey("rev") && !payload.getBoolean("partial", false));
  }
}
