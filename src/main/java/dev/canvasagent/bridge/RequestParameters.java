package dev.canvasagent.bridge;

import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** The path and query parameters more than one resource reads, each checked before any use. */
final class RequestParameters {
  private RequestParameters() {}

  /** The path's room id, or null after answering 400. */
  static String roomId(RoutingContext ctx) {
    String roomId = ctx.pathParam("roomId");
    if (RoomId.isValid(roomId)) {
      return roomId;
    }
    HttpErrors.send(
        ctx, FailureCode.INVALID_REQUEST, "roomId must match " + RoomId.PATTERN.pattern());
    return null;
  }

  /** The query parameter as a number in range, or null after answering 400. */
  static Long queryLong(RoutingContext ctx, String name, long fallback, long min, long max) {
    List<String> values = ctx.queryParam(name);
    if (values.isEmpty()) {
      return fallback;
    }
    try {
      long value = Long.parseLong(values.get(0));
      if (values.size() == 1 && value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    HttpErrors.send(
        ctx,
        FailureCode.INVALID_REQUEST,
        name + " must be one integer between " + min + " and " + max);
    return null;
  }
}
