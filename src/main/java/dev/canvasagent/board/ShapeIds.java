package dev.canvasagent.board;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Shape ids as the model writes them ({@code box1}, bare) and as tldraw stores them
 * ({@code shape:box1}). Shapes the agent creates without naming them get {@code shape:ag:<nanoid>}.
 */
public final class ShapeIds {
  public static final String PREFIX = "shape:";

  /** What a model may call a shape: it becomes part of a record id, so nothing else. */
  public static final Pattern MODEL_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private static final Pattern RECORD_ID = Pattern.compile("shape:[A-Za-z0-9_:-]{1,80}");
  private static final String NANOID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
  static final int NANOID_LENGTH = 12;

  private ShapeIds() {}

  /** The record id for a model's reference ({@code box1} or {@code shape:box1}), or null if it cannot be one. */
  public static String recordId(String reference) {
    if (reference == null) {
      return null;
    }
    String id = reference.startsWith(PREFIX) ? reference : PREFIX + reference;
    return RECORD_ID.matcher(id).matches() ? id : null;
  }

  /** The id as the model sees it: the record id without {@code shape:}. */
  public static String modelId(String recordId) {
    return recordId.startsWith(PREFIX) ? recordId.substring(PREFIX.length()) : recordId;
  }

  public static String newAgentId() {
    return PREFIX + "ag:" + nanoid();
  }

  public static String nanoid() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    StringBuilder id = new StringBuilder(NANOID_LENGTH);
    for (int i = 0; i < NANOID_LENGTH; i++) {
      id.append(NANOID_ALPHABET.charAt(random.nextInt(NANOID_ALPHABET.length())));
    }
    return id.toString();
  }
}
