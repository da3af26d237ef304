package dev.canvasagent.model.fake.planner;

import java.util.List;

/** How the planner's answers name things. */
final class Phrases {
  private Phrases() {}

  static String quoted(String text) {
    return "“" + text + "”";
  }

  /** A shape by its label, else its id. */
  static String name(SeenShape shape) {
    return quoted(shape.text().isBlank() ? shape.id() : shape.text().strip());
  }

  /** "it" for one shape, "N shapes" for more. */
  static String count(List<SeenShape> shapes) {
    return shapes.size() == 1 ? name(shapes.get(0)) : shapes.size() + " shapes";
  }

  /** {@code “A”, “B” and “C”}. */
  static String list(List<String> items) {
    if (items.size() == 1) {
      return items.get(0);
    }
    return String.join(", ", items.subList(0, items.size() - 1))
        + " and "
        + items.get(items.size() - 1);
  }
}
