package dev.canvasagent.catalog.batch;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The layout directives a batch may name: three templates (SWOT 2×2, columns, journey stages) and
 * five generic arrangements (grid, rows, flowchart top-down and left-right, freeform).
 */
public enum LayoutDirective {
  SWOT_2X2("swot-2x2"),
  COLUMNS("columns"),
  JOURNEY_STAGES("journey-stages"),
  GRID("grid"),
  ROWS("rows"),
  FLOWCHART_TOP_DOWN("flowchart-top-down"),
  FLOWCHART_LEFT_RIGHT("flowchart-left-right"),
  FREEFORM("freeform");

  private final String wireName;

  LayoutDirective(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static List<String> wireNames() {
    return Arrays.stream(values()).map(LayoutDirective::wireName).toList();
  }

  /** The directive a model named; empty for none or an unknown name (then the batch is laid out in a row). */
  public static Optional<LayoutDirective> of(String wireName) {
    return Arrays.stream(values())
        .filter(directive -> directive.wireName.equals(wireName))
        .findFirst();
  }
}
