package dev.canvasagent.bridge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A room's most recent events, bounded, for clients that reconnect: given the last event id a
 * client saw, the events after it, or nothing when that id is not one this buffer can continue from
 * (too old, from another incarnation of the room) and the client must be resynced.
 *
 * <p>The room's owner numbers the events ({@link #nextId}); every node that serves the room holds a
 * copy started from the owner's ({@link #seeded}) and appends the owner's events with the owner's ids,
 * so an id from any node resumes on any other.
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

  /** A copy of the owner's buffer: its incarnation, its latest number and the events it still holds. */
  static ReplayBuffer seeded(
      String incarnationId, int capacity, long lastNumber, List<RoomEvent> events) {
    ReplayBuffer buffer = new ReplayBuffer(incarnationId, capacity);
    events.forEach(buffer::append);
    buffer.lastNumber = lastNumber;
    return buffer;
  }

  String incarnationId() {
    return incarnationId;
  }

  long lastNumber() {
    return lastNumber;
  }

  /** The events it holds, oldest first. */
  List<RoomEvent> events() {
    return List.copyOf(events);
  }

  String nextId() {
    return incarnationId + "-" + (++lastNumber);
  }

  /** An event numbered here ({@link #nextId}) or by the owner: the latest number follows it. */
  void append(RoomEvent event) {
    lastNumber = Math.max(lastNumber, numberOf(event.id()));
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

  long numberOf(String eventId) {
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
