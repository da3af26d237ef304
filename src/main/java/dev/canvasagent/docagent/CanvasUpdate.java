package dev.canvasagent.docagent;

import dev.canvasagent.doctools.MarkdownFence;

/**
 * A hidden canvas-update message: the fixed header, then the unified diff in a fenced block. Plain
 * text, so any provider takes it as a user message; the fence is longer than any run of backticks
 * inside the diff, so a diff of Markdown code blocks cannot close it early.
 */
public final class CanvasUpdate {
  public static final String HEADER =
      "Canvas update (do not display to user). Apply this diff to your internal canvas state:";

  private CanvasUpdate() {}

  public static String message(String unifiedDiff) {
    return HEADER + "\n" + MarkdownFence.around(unifiedDiff, "diff");
  }

  public static boolean isUpdate(String text) {
    return text.startsWith(HEADER);
  }
}
