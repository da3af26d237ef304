package dev.canvasagent.docagent;

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
    String fence = "`".repeat(Math.max(3, longestBacktickRun(unifiedDiff) + 1));
    String body = unifiedDiff.endsWith("\n") ? unifiedDiff : unifiedDiff + "\n";
    return HEADER + "\n" + fence + "diff\n" + body + fence;
  }

  public static boolean isUpdate(String text) {
    return text.startsWith(HEADER);
  }

  private static int longestBacktickRun(String text) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = text.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest;
  }
}
