package dev.canvasagent.bench;

/** Integer {@code -D} settings with a default, refused with their name when they are not integers. */
final class BenchProperties {
  private BenchProperties() {}

  static int number(String name, int fallback) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, not '" + value + "'", e);
    }
  }
}
