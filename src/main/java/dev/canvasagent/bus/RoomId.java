package dev.canvasagent.bus;

import java.util.regex.Pattern;

/**
 * What a room id may be: it becomes part of event-bus addresses ({@code room.<roomId>.<topic>}), so
 * dots and anything else that could reach another room's addresses are refused. The run request's
 * schema ({@code api/run-request.json}) uses the same pattern.
 */
public final class RoomId {
  /** The characters of a room id, as a regular expression without anchors (for address patterns). */
  public static final String CHARACTERS = "[A-Za-z0-9_-]{1,64}";

  /**
   * The whole id, for {@code matcher(id).matches()} only. No {@code ^…$}: with {@code find()} Java's
   * {@code $} would also match before a final line terminator, and "demo\n" would pass.
   */
  public static final Pattern PATTERN = Pattern.compile(CHARACTERS);

  private RoomId() {}

  public static boolean isValid(String roomId) {
    return roomId != null && PATTERN.matcher(roomId).matches();
  }
}
