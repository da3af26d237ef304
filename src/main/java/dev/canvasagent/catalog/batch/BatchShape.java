package dev.canvasagent.catalog.batch;

/**
 * One object of a batch after its refs are resolved: the operation's {@code index} (unique in the
 * batch), its ref, what it is, the frame it sits in ({@code null}: top-level), its text (a frame's
 * name), its color as the model wrote it, a geo kind for shapes, and for frames and shapes the size
 * asked for or the default (null for notes and texts, whose size follows from their kind and text).
 */
public record BatchShape(
    int index,
    String ref,
    OperationKind kind,
    BatchShape parent,
    String text,
    String color,
    String geo,
    Size requested) {
  public boolean isTopLevel() {
    return parent == null;
  }
}
