package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The bridge's answer to {@code bridge.viewports}: the latest viewport and selection each client of
 * the room published ({@code canvas:viewport}), the host's first; and which client hosts
 * ({@code hostClientId}, null when none does). Empty for a room without clients on this node.
 */
public record RoomViewports(String roomId, String hostClientId, List<ClientViewport> viewports)
    implements BusMessage {
  public RoomViewports {
    viewports = List.copyOf(viewports);
  }

  /** One client's viewport: its page {@code bounds} and {@code selection} (null when it sent none). */
  public record ClientViewport(
      String clientId, boolean host, Viewport bounds, List<String> selection) {
    public ClientViewport {
      selection = selection == null ? null : List.copyOf(selection);
    }

    public JsonObject toJson() {
      JsonObject json =
          new JsonObject()
              .put("clientId", clientId)
              .put("host", host)
              .put("bounds", bounds.toJson());
      if (selection != null) {
        json.put("selection", new JsonArray(selection));
      }
      return json;
    }

    public static ClientViewport fromJson(JsonObject json) {
      return new ClientViewport(
          MessageFields.string(json, "clientId", "ClientViewport"),
          json.getBoolean("host", false),
          Viewport.fromJson(MessageFields.object(json, "bounds", "ClientViewport")),
          RunRequest.selectionFrom(json));
    }
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("roomId", roomId);
    if (hostClientId != null) {
      json.put("hostClientId", hostClientId);
    }
    return json.put(
        "viewports", new JsonArray(viewports.stream().map(ClientViewport::toJson).toList()));
  }

  public static RoomViewports fromJson(JsonObject json) {
    return new RoomViewports(
        MessageFields.string(json, "roomId", "RoomViewports"),
        json.getString("hostClientId"),
        MessageFields.jsonArray(json, "viewports", "RoomViewports").stream()
            .map(viewport -> ClientViewport.fromJson((JsonObject) viewport))
            .toList());
  }
}
