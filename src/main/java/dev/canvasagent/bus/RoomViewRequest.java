package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * What a caller of {@code runner.view} asks for: the room as a model sees it. {@code viewport} (page
 * space) names the part of the board to look at; without it the room's own viewports are used, the
 * host's first, as a run does, and without those the whole board. {@code origin} (page space) is the
 * point the model's coordinates are offset from, for a caller that keeps one across views as a
 * session does; without it the view's top-left, as a session's first run fixes it (0,0 when the view is
 * the whole board). With {@code screenshot} the host's image comes too, when it can.
 */
public record RoomViewRequest(String roomId, boolean screenshot, Viewport viewport, Origin origin)
    implements BusMessage {
  private static final String MESSAGE = "RoomViewRequest";

  /** Without an origin: the view's own top-left. */
  public RoomViewRequest(String roomId, boolean screenshot, Viewport viewport) {
    this(roomId, screenshot, viewport, null);
  }

  /** A page point the model's coordinates count from. */
  public record Origin(double x, double y) {
    public JsonObject toJson() {
      return new JsonObject().put("x", x).put("y", y);
    }
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("roomId", roomId).put("screenshot", screenshot);
    if (viewport != null) {
      json.put("viewport", viewport.toJson());
    }
    if (origin != null) {
      json.put("origin", origin.toJson());
    }
    return json;
  }

  /** The request, or a {@link Failure} with INVALID_REQUEST naming the field that is wrong. */
  public static RoomViewRequest fromJson(JsonObject json) {
    String roomId = MessageFields.optionalString(json, "roomId", MESSAGE);
    if (roomId == null || roomId.isBlank()) {
      throw invalid("roomId must be a non-empty string");
    }
    if (!RoomId.isValid(roomId)) {
      throw invalid("roomId must be 1 to 64 letters, digits, '_' or '-'");
    }
    Object screenshot = json.getValue("screenshot");
    if (screenshot != null && !(screenshot instanceof Boolean)) {
      throw invalid("screenshot must be true or false");
    }
    Viewport viewport = null;
    if (json.getValue("viewport") != null) {
      viewport = Viewport.checked(json.getValue("viewport"));
      if (viewport == null) {
        throw invalid("viewport must be {x, y, w, h} of finite numbers with w and h at least 0");
      }
    }
    Origin origin = null;
    if (json.getValue("origin") != null) {
      origin = origin(json.getValue("origin"));
    }
    return new RoomViewRequest(roomId, Boolean.TRUE.equals(screenshot), viewport, origin);
  }

  private static Origin origin(Object value) {
    if (value instanceof JsonObject point
        && point.getValue("x") instanceof Number x
        && point.getValue("y") instanceof Number y
        && Double.isFinite(x.doubleValue())
        && Double.isFinite(y.doubleValue())) {
      return new Origin(x.doubleValue(), y.doubleValue());
    }
    throw invalid("origin must be {x, y} of finite numbers");
  }

  private static Failure invalid(String why) {
    return new Failure(FailureCode.INVALID_REQUEST, MESSAGE + ": " + why);
  }
}
