package dev.canvasagent.document.patch;

/**
 * One line of a hunk without its one-character prefix. {@code text} ends with {@code \n} unless a
 * {@code \ No newline at end of file} marker followed it; a {@code \r} before the newline is kept, so
 * CRLF documents are matched byte for byte.
 */
public record HunkLine(LineKind kind, String text) {}
