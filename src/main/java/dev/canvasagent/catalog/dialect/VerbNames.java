package dev.canvasagent.catalog.dialect;

import java.util.Locale;

/**
 * Verb names compared the way models misspell them: case and separators do not count, so {@code
 * createShape}, {@code create-shape}, {@code CREATE_SHAPE} and {@code Create Shape} are one name.
 */
public final class VerbNames {
  private VerbNames() {}

  /** The name in lower case with everything but letters and digits left out. */
  public static String normalized(String name) {
    StringBuilder normalized = new StringBuilder(name.length());
    name.toLowerCase(Locale.ROOT)
        .codePoints()
        .filter(Character::isLetterOrDigit)
        .forEach(normalized::appendCodePoint);
    return normalized.toString();
  }
}
