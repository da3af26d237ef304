package dev.canvasagent.catalog.dialect;

import java.util.Locale;

/**
 * A way of naming the board's verbs that models are prompted with elsewhere. Each is read into our own
 * verbs ({@link VerbDialects}); none is ever shown to a model.
 */
public enum Dialect {
  /** The tldraw agent starter kit's actions: {@code _type}, {@code create}, {@code shapeId}, {@code intent}, … */
  KIT("the tldraw agent starter kit's actions"),
  /** Seed 002's (ShruAI's) {@code wb_*} tools and their SimpleShape. */
  SHRUAI("seed 002's wb_* tools"),
  /** Seed 003's (CollabBoard's) camelCase tools: {@code batchOperations}, {@code createDiagram}. */
  COLLABBOARD("seed 003's camelCase tools"),
  /** Our own names in another case or with other separators: {@code createShape}, {@code CREATE-SHAPE}. */
  SPELLING("our own verb names, spelled in another case or with other separators");

  private final String description;

  Dialect(String description) {
    this.description = description;
  }

  /** The name logs and run summaries use: {@code kit}, {@code shruai}, {@code collabboard}, {@code spelling}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public String description() {
    return description;
  }
}
