package dev.canvasagent.model.fake.planner;

import java.util.List;

/** What {@code debug/fake} says it understands. */
final class PlannerHelp {
  private PlannerHelp() {}

  static String text(List<String> scenarioHelp) {
    StringBuilder text =
        new StringBuilder(
            """
        I'm debug/fake, a rule-based stand-in for a model. I understand plain commands:
        - draw|add|create [N] [color] <shape> [labeled X | called X | saying X | "X"] — shapes: rectangle, box, \
        square, ellipse, circle, oval, triangle, diamond, star, hexagon, cloud, heart, sticky note, text, arrow, line, \
        frame; "boxes labeled A, B and C" draws three; write <text>
        - move it|them|<label> right|left|up|down [by N]
        - delete it|them|<label>; delete everything or clear
        - align them [left|right|top|bottom|center|middle|horizontally|vertically]
        - distribute them [horizontally|vertically]
        - make it|them bigger|smaller; color it|them <color>
        - connect A to B (by their labels)
        "it" is the selected shape, else the topmost one in view; "them" is the selection, else every shape in view.
        """);
    if (!scenarioHelp.isEmpty()) {
      text.append("Scripted scenarios:\n");
      scenarioHelp.forEach(line -> text.append("- ").append(line).append('\n'));
    }
    return text.toString().strip();
  }
}
