package dev.canvasagent.bus;

import java.util.regex.Pattern;

/**
 * What a room id may be: it becomes part of event-bus addresses ({@code room.<roomId>.<topic>}), so
 * dots and anything else that could reach another room's addresses are refused. The run request's
 * schema ({@code api/run-request.json}) uses the same pattern.
 */
public final class RoomId {
  public static final Pattern PATTERN = Pattern.compile("^[A-Za-z0-9_-]{1,64}$");

  private RoomId() {}

  public static boolean isValid(String roomId) {
    return roomId != null && PATTERN.matcher(roomId).matches();
  }
}
