package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomId;
import dev.canvasagent.bus.RoomTopic;
import java.util.Optional;

/** A room topic's address, taken apart. */
record RoomAddress(String roomId, RoomTopic topic) {
  static Optional<RoomAddress> parse(Object address) {
    if (!(address instanceof String text) || !text.startsWith("room.")) {
      return Optional.empty();
    }
    String rest = text.substring("room.".length());
    int dot = rest.indexOf('.');
    if (dot < 0 || !RoomId.isValid(rest.substring(0, dot))) {
      return Optional.empty();
    }
    return RoomTopic.fromWireName(rest.substring(dot + 1))
        .map(topic -> new RoomAddress(rest.substring(0, dot), topic));
  }
}
