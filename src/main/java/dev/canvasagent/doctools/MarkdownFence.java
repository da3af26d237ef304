package dev.canvasagent.doctools;

/**
 * A fenced Markdown code block around any text: the fence is longer than any run of backticks inside
 * it, so text that holds code blocks of its own cannot close it early. The document agent's hidden
 * canvas updates and {@code canvas_get_selection_context}'s chat message both use it.
 */
public final class MarkdownFence {
  private MarkdownFence() {}

  /** {@code text} in a fence with {@code info} (a language, or empty) after the opening backticks. */
  public static String around(String text, String info) {
    String fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
    String body = text.endsWith("\n") ? text : text + "\n";
    return fence + info + "\n" + body + fence;
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
