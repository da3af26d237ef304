package dev.canvasagent.document.patch;

/** What the parser made of a patch text: a diff of one document, or why not. */
public sealed interface ParseResult {
  record Parsed(UnifiedDiff diff) implements ParseResult {}

  record Rejected(PatchRejection rejection) implements ParseResult {}
}
