package dev.canvasagent.mcp;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomView;
import dev.canvasagent.bus.RoomViewRequest;
import dev.canvasagent.bus.Viewport;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code canvas_view}: the room as the server's own agent sees it before it acts ({@code runner.view}:
 * the prompt parts' simple shapes, the viewport, the selection, the clusters out of view), in page
 * coordinates — the ones the board tools take — and, when asked, the host's screenshot as image
 * content. A screenshot that cannot be had (no page hosts the room, it did not answer in time) is
 * said in {@code imageUnavailable}; the rest of the view comes all the same.
 */
final class CanvasViewTool implements McpTool {
  static final String NAME = "canvas_view";

  /** Page coordinates: the board tools of an MCP session act in the page's frame. */
  private static final RoomViewRequest.Origin PAGE = new RoomViewRequest.Origin(0, 0);

  private final EventBus bus;
  private final McpAccess access;

  CanvasViewTool(EventBus bus, McpAccess access) {
    this.bus = bus;
    this.access = access;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public JsonObject descriptor() {
    JsonObject number = new JsonObject().put("type", "number");
    JsonObject viewport =
        new JsonObject()
            .put("type", "object")
            .put(
                "description",
                "The part of the board to look at (page coordinates). Without it: what the room's people are looking at (the host's view first), or the whole board.")
            .put(
                "properties",
                new JsonObject()
                    .put("x", number)
                    .put("y", number)
                    .put("w", number.copy().put("minimum", 0))
                    .put("h", number.copy().put("minimum", 0)))
            .put("required", new JsonArray().add("x").add("y").add("w").add("h"))
            .put("additionalProperties", false);
    return new JsonObject()
        .put("name", NAME)
        .put("title", "View the board")
        .put(
            "description",
            "The room as the server's agent sees it: the shapes in view (simplified, page coordinates, rounded), the viewport, the selection, clusters of shapes out of view, and counts. With screenshot: true, the image the room's host page renders, when a page hosts the room.")
        .put(
            "inputSchema",
            new JsonObject()
                .put("type", "object")
                .put(
                    "properties",
                    new JsonObject()
                        .put("roomId", ToolArguments.roomIdProperty())
                        .put(
                            "screenshot",
                            new JsonObject()
                                .put("type", "boolean")
                                .put("default", false)
                                .put("description", "Include the host page's screenshot."))
                        .put("viewport", viewport))
                .put("additionalProperties", false))
        .put("annotations", new JsonObject().put("readOnlyHint", true).put("openWorldHint", false));
  }

  @Override
  public Future<ToolResult> call(ToolCall call) {
    String roomId = ToolArguments.room(call);
    JsonObject args = call.arguments();
    for (String key : args.fieldNames()) {
      if (!key.equals("roomId") && !key.equals("screenshot") && !key.equals("viewport")) {
        throw new Failure(
            FailureCode.INVALID_REQUEST,
            "unknown argument " + key + "; canvas_view takes roomId, screenshot and viewport");
      }
    }
    Object screenshot = args.getValue("screenshot");
    if (screenshot != null && !(screenshot instanceof Boolean)) {
      throw new Failure(FailureCode.INVALID_REQUEST, "screenshot must be true or false");
    }
    Viewport viewport = null;
    if (args.getValue("viewport") != null) {
      viewport = Viewport.checked(args.getValue("viewport"));
      if (viewport == null) {
        throw new Failure(
            FailureCode.INVALID_REQUEST,
            "viewport must be {x, y, w, h} of finite numbers with w and h at least 0");
      }
    }
    RoomViewRequest request =
        new RoomViewRequest(roomId, Boolean.TRUE.equals(screenshot), viewport, PAGE);
    return access
        .room(call.grant(), Role.VIEWER, roomId)
        .compose(allowed -> Address.RUNNER_VIEW.ask(bus, request))
        .map(CanvasViewTool::result);
  }

  private static ToolResult result(RoomView view) {
    JsonObject structured = view.toJson();
    RoomView.Image image = view.image();
    if (image == null) {
      return ToolResult.ok(structured);
    }
    // The image goes to the model as an image, not as base64 text in the structured answer.
    structured.remove("image");
    structured.put("image", new JsonObject().put("mime", image.mime()).put("inContent", true));
    return ToolResult.ok(structured).withImage(image.mime(), image.base64());
  }
}
