package dev.canvasagent.catalog.batch;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The five operations of a batch, by their {@code op} value. */
public enum OperationKind {
  FRAME("createFrame"),
  NOTE("createNote"),
  SHAPE("createShape"),
  TEXT("createText"),
  CONNECTOR("createConnector");

  private final String op;

  OperationKind(String op) {
    this.op = op;
  }

  public String op() {
    return op;
  }

  public static List<String> ops() {
    return Arrays.stream(values()).map(OperationKind::op).toList();
  }

  public static Optional<OperationKind> of(Object op) {
    return Arrays.stream(values()).filter(kind -> kind.op.equals(op)).findFirst();
  }
}
