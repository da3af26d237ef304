package dev.canvasagent.catalog.batch;

import java.util.List;

/**
 * What a batch's operations resolve to: its objects and connectors in operation order, the operations
 * skipped, and those placed top-level because their {@code parentRef} did not name a frame before them.
 */
public record ResolvedBatch(
    List<BatchShape> shapes,
    List<BatchConnector> connectors,
    List<BatchIssue> skipped,
    List<BatchIssue> placedTopLevel) {
  public ResolvedBatch {
    shapes = List.copyOf(shapes);
    connectors = List.copyOf(connectors);
    skipped = List.copyOf(skipped);
    placedTopLevel = List.copyOf(placedTopLevel);
  }

  public List<BatchShape> topLevel() {
    return shapes.stream().filter(BatchShape::isTopLevel).toList();
  }

  public List<BatchShape> childrenOf(BatchShape parent) {
    return shapes.stream().filter(shape -> shape.parent() == parent).toList();
  }
}
