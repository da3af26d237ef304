package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * What a caller of {@code screenshot.capture} asks for: an image of the room's board from its host,
 * for a session, of {@code bounds} (null: the host's own view). {@code docVersion} is the board
 * revision as a string; without it a capture is never reused. With {@code fresh} (a follow-up pass)
 * the host is asked again even when the cache holds that revision and bounds. Answered with a
 * {@link Screenshot}, NO_HOST when no client of the room can take one, or SCREENSHOT_TIMEOUT.
 */
public record ScreenshotRequest(
    String roomId, String sessionId, Viewport bounds, String docVersion, boolean fresh)
    implements BusMessage {
  public static final int MAX_DOC_VERSION_CHARS = 128;

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject().put("roomId", roomId).put("sessionId", sessionId).put("fresh", fresh);
    if (bounds != null) {
      json.put("bounds", bounds.toJson());
    }
    if (docVersion != null) {
      json.put("docVersion", docVersion);
    }
    return json;
  }

  /** The request, or a {@link Failure} with INVALID_REQUEST naming what is wrong. */
  public static ScreenshotRequest fromJson(JsonObject json) {
    String roomId = text(json, "roomId");
    String sessionId = text(json, "sessionId");
    Viewport bounds = null;
    if (json.getValue("bounds") != null) {
      bounds = Viewport.checked(json.getValue("bounds"));
      if (bounds == null) {
        throw invalid("bounds must be {x, y, w, h} of finite numbers with w and h at least 0");
      }
    }
    String docVersion = null;
    if (json.getValue("docVersion") != null) {
      docVersion = text(json, "docVersion");
      if (docVersion.length() > MAX_DOC_VERSION_CHARS) {
        throw invalid("docVersion is longer than " + MAX_DOC_VERSION_CHARS + " characters");
      }
    }
    Object fresh = json.getValue("fresh");
    if (fresh != null && !(fresh instanceof Boolean)) {
      throw invalid("fresh must be true or false");
    }
    return new ScreenshotRequest(roomId, sessionId, bounds, docVersion, Boolean.TRUE.equals(fresh));
  }

  private static String text(JsonObject json, String field) {
    String text = MessageFields.string(json, field, "ScreenshotRequest");
    if (text.isBlank()) {
      throw invalid(field + " must be a non-empty string");
    }
    return text;
  }

  private static Failure invalid(String why) {
    return new Failure(FailureCode.INVALID_REQUEST, "ScreenshotRequest: " + why);
  }
}
