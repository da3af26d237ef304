package dev.canvasagent.document.patch;

/** What a hunk line does: kept (context), taken out of the document, or put into it. */
public enum LineKind {
  CONTEXT,
  REMOVED,
  ADDED
}
