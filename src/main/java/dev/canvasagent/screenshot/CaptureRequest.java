package dev.canvasagent.screenshot;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * What a caller of {@code screenshot.capture} asks for: {@code {roomId, sessionId, bounds?, docVersion?,
 * fresh?}}, {@code docVersion} being the board revision as a string. Without it a capture is never
 * reused; with {@code fresh: true} (a follow-up pass) the host is asked again even when the cache holds
 * that revision and bounds, and the new image replaces the cached one.
 */
record CaptureRequest(
    String roomId, String sessionId, JsonObject bounds, String docVersion, boolean fresh) {
  static final int MAX_DOC_VERSION_CHARS = 128;

  /** The request, or a {@link Failure} with INVALID_REQUEST naming what is wrong. */
  static CaptureRequest fromJson(JsonObject body) {
    if (body == null) {
      throw invalid("the capture request is not a JSON object");
    }
    String roomId = text(body, "roomId");
    String sessionId = text(body, "sessionId");
    JsonObject bounds = null;
    if (body.getValue("bounds") != null) {
      bounds = ScreenshotReply.rectangle(body.getValue("bounds"));
      if (bounds == null) {
        throw invalid("bounds must be {x, y, w, h} of finite numbers with w and h at least 0");
      }
    }
    String docVersion = null;
    if (body.getValue("docVersion") != null) {
      docVersion = text(body, "docVersion");
      if (docVersion.length() > MAX_DOC_VERSION_CHARS) {
        throw invalid("docVersion is longer than " + MAX_DOC_VERSION_CHARS + " characters");
      }
    }
    Object fresh = body.getValue("fresh");
    if (fresh != null && !(fresh instanceof Boolean)) {
      throw invalid("fresh must be true or false");
    }
    return new CaptureRequest(roomId, sessionId, bounds, docVersion, Boolean.TRUE.equals(fresh));
  }

  Optional<ScreenshotCache.Key> cacheKey() {
    if (docVersion == null) {
      return Optional.empty();
    }
    String boundsKey =
        bounds == null
            ? ""
            : String.join(
                ",",
                Double.toString(bounds.getDouble("x")),
                Double.toString(bounds.getDouble("y")),
                Double.toString(bounds.getDouble("w")),
                Double.toString(bounds.getDouble("h")));
    return Optional.of(new ScreenshotCache.Key(roomId, docVersion, boundsKey));
  }

  /** The {@code agent:screenshot_request} the room's host gets for one attempt. */
  JsonObject toHostRequest(String requestId, int maxSide) {
    JsonObject request =
        new JsonObject()
            .put("type", "agent:screenshot_request")
            .put("sessionId", sessionId)
            .put("requestId", requestId)
            .put("maxSize", new JsonObject().put("w", maxSide).put("h", maxSide));
    if (bounds != null) {
      request.put("bounds", bounds.copy());
    }
    return request;
  }

  private static String text(JsonObject body, String field) {
    if (!(body.getValue(field) instanceof String text) || text.isBlank()) {
      throw invalid(field + " must be a non-empty string");
    }
    return text;
  }

  private static Failure invalid(String why) {
    return new Failure(FailureCode.INVALID_REQUEST, why);
  }
}
