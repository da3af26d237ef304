package dev.canvasagent.bridge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A room's most recent events, bounded, for clients that reconnect: given the last event id a
 * client saw, the events after it, or nothing when that id is not one this buffer can continue from
 * (too old, from another node or process) and the client must be resynced.
 */
final class ReplayBuffer {
  private final String incarnationId;
  private final int capacity;
  private final Deque<RoomEvent> events = new ArrayDeque<>();
  private long lastNumber;

  ReplayBuffer(String incarnationId, int capacity) {
    this.incarnationId = incarnationId;
    this.capacity = capacity;
  }

  String nextId() {
    return incarnationId + "-" + (++lastNumber);
  }

  void append(RoomEvent event) {
    events.addLast(event);
    while (events.size() > capacity) {
      events.removeFirst();
    }
  }

  /** The id of the newest event numbered so far (null before any). */
  String latestId() {
    return lastNumber == 0 ? null : incarnationId + "-" + lastNumber;
  }

  /** The events after {@code lastEventId}, or empty when the client cannot be continued from there. */
  Optional<List<RoomEvent>> after(String lastEventId) {
    long number = numberOf(lastEventId);
    if (number < 0 || number > lastNumber) {
      return Optional.empty();
    }
    long oldest = events.isEmpty() ? lastNumber + 1 : numberOf(events.peekFirst().id());
    if (number < oldest - 1) {
      return Optional.empty();
    }
    List<RoomEvent> missed = new ArrayList<>();
    for (RoomEvent event : events) {
      if (numberOf(event.id()) > number) {
        missed.add(event);
      }
    }
    return Optional.of(missed);
  }

  private long numberOf(String eventId) {
    if (eventId == null || !eventId.startsWith(incarnationId + "-")) {
      return -1;
    }
    try {
      return Long.parseLong(eventId.substring(incarnationId.length() + 1));
    } catch (NumberFormatException notOurs) {
      return -1;
    }
  }
}
