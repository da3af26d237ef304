package dev.canvasagent.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic Markdown that reads like a long design document: numbered section headings, prose
 * lines of 8–16 words wrapped near 80 characters, bullet lists, fenced code blocks and blank lines.
 * Words are drawn at random, so almost every prose line is unique, as in real text (a patch's context
 * lines then name one place). About one prose line in 40 holds a capitalised "-ing" word (what the
 * grep bench's regex looks for) and one in 200 the phrase "lease manager" (its literal).
 */
final class MarkdownCorpus {
  private static final String[] WORDS = {
    "the",
    "a",
    "server",
    "document",
    "agent",
    "room",
    "board",
    "change",
    "revision",
    "patch",
    "hunk",
    "line",
    "browser",
    "client",
    "event",
    "bus",
    "store",
    "snapshot",
    "undo",
    "redo",
    "lease",
    "holder",
    "epoch",
    "token",
    "model",
    "answer",
    "shape",
    "label",
    "arrow",
    "layout",
    "is",
    "was",
    "keeps",
    "sends",
    "reads",
    "writes",
    "checks",
    "refuses",
    "applies",
    "with",
    "from",
    "into",
    "after",
    "before",
    "every",
    "one",
    "two",
    "its",
    "their",
    "when",
    "then",
    "only",
    "never",
    "once",
    "again",
    "quickly",
    "later",
    "still"
  };
  private static final String[] CAPITALS = {
    "The", "A", "Every", "Each", "This", "That", "Its", "One", "When", "Then"
  };
  private static final String[] GERUNDS = {
    "Routing", "Testing", "Rendering", "Loading", "Streaming", "Patching"
  };
  private static final String[] CODE = {
    "    var text = store.find(docId);",
    "    if (text.isEmpty()) {",
    "      return Failure.future(NOT_FOUND, docId);",
    "    }",
    "    return apply(text.get(), patch);"
  };

  private final Random random;
  private int section;

  MarkdownCorpus(long seed) {
    this.random = new Random(seed);
  }

  /** Exactly {@code count} lines. */
  List<String> lines(int count) {
    List<String> lines = new ArrayList<>(count + 64);
    while (lines.size() < count) {
      block(lines);
    }
    return new ArrayList<>(lines.subList(0, count));
  }

  /** Whole lines, as many as fit in {@code maxBytes} of UTF-8 with their newlines, at least {@code minBytes}. */
  String text(int minBytes, int maxBytes) {
    StringBuilder text = new StringBuilder(maxBytes);
    List<String> lines = new ArrayList<>();
    int bytes = 0;
    while (bytes < minBytes) {
      lines.clear();
      block(lines);
      for (String line : lines) {
        int size = line.getBytes(StandardCharsets.UTF_8).length + 1;
        if (bytes + size > maxBytes) {
          return text.toString();
        }
        text.append(line).append('\n');
        bytes += size;
      }
    }
    return text.toString();
  }

  /** A heading, a paragraph or two, maybe a list, maybe a code block, blank lines between. */
  private void block(List<String> lines) {
    section++;
    lines.add(
        "## "
            + section
            + ". "
            + CAPITALS[random.nextInt(CAPITALS.length)]
            + " "
            + words(2 + random.nextInt(4)));
    lines.add("");
    for (int paragraph = 1 + random.nextInt(2); paragraph > 0; paragraph--) {
      for (int line = 3 + random.nextInt(6); line > 0; line--) {
        lines.add(prose());
      }
      lines.add("");
    }
    if (random.nextInt(3) == 0) {
      for (int item = 2 + random.nextInt(4); item > 0; item--) {
        lines.add("- " + words(4 + random.nextInt(6)));
      }
      lines.add("");
    }
    if (random.nextInt(5) == 0) {
      lines.add("```java");
      lines.add("// section " + section);
      lines.addAll(List.of(CODE));
      lines.add("```");
      lines.add("");
    }
  }

  String prose() {
    StringBuilder line =
        new StringBuilder(CAPITALS[random.nextInt(CAPITALS.length)])
            .append(' ')
            .append(words(8 + random.nextInt(9)));
    int pick = random.nextInt(200);
    if (pick < 5) {
      line.append(' ').append(GERUNDS[random.nextInt(GERUNDS.length)]).append(" again");
    } else if (pick == 5) {
      line.append(" through the lease manager");
    }
    return line.append('.').toString();
  }

  private String words(int count) {
    StringBuilder words = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        words.append(' ');
      }
      words.append(WORDS[random.nextInt(WORDS.length)]);
    }
    return words.toString();
  }
}
