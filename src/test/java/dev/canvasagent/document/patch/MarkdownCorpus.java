package dev.canvasagent.document.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Real-ish Markdown documents from a seed: headings, paragraphs, lists, code fences, tables,
 * unicode (accents, CJK, emoji beyond the BMP), trailing spaces, many blank and repeated lines (so
 * a hunk's context is often found in several places), LF, CRLF or mixed line ends, with or without
 * a final newline. A document is a list of lines, each with its own line end.
 */
final class MarkdownCorpus {
  private static final String[] WORDS = {
    "canvas",
    "agent",
    "lease",
    "patch",
    "hunk",
    "revision",
    "naïve",
    "café",
    "日本語",
    "中文",
    "emoji 🎉",
    "👩‍💻",
    "Ünïcödé",
    "the",
    "a",
    "of",
    "and",
    "to",
    "edit",
    "line",
    "document",
    "—",
    "«quoted»",
    "x²",
    "tab\there",
    "`code`",
    "**bold**",
    "_it_"
  };
  private static final String[] REPEATED = {"", "", "", "---", "- [ ] todo", "```", "  ", "Notes"};

  private final Random random;

  MarkdownCorpus(Random random) {
    this.random = random;
  }

  /** A whole document as lines; the last may lack its line end. */
  List<String> document() {
    if (random.nextInt(40) == 0) {
      return new ArrayList<>();
    }
    var eol = lineEnds();
    var lines = new ArrayList<String>();
    int blocks = 1 + random.nextInt(18);
    for (int b = 0; b < blocks; b++) {
      for (var content : block()) {
        lines.add(content + eol.next());
      }
    }
    if (!lines.isEmpty() && random.nextInt(5) == 0) {
      dropFinalLineEnd(lines);
    }
    return lines;
  }

  /** New lines in the style of the document around them. */
  List<String> freshLines(int count, String lineEnd) {
    var lines = new ArrayList<String>();
    for (int i = 0; i < count; i++) {
      lines.add(line() + lineEnd);
    }
    return lines;
  }

  String line() {
    return switch (random.nextInt(7)) {
      case 0 -> REPEATED[random.nextInt(REPEATED.length)];
      case 1 -> "- " + words(1 + random.nextInt(5));
      case 2 -> "#".repeat(1 + random.nextInt(3)) + " " + words(1 + random.nextInt(4));
      case 3 -> "    " + words(2);
      default -> words(2 + random.nextInt(10)) + (random.nextInt(8) == 0 ? "  " : "");
    };
  }

  static void dropFinalLineEnd(List<String> lines) {
    int last = lines.size() - 1;
    lines.set(last, lines.get(last).replaceFirst("\r?\n$", ""));
  }

  static String text(List<String> lines) {
    return String.join("", lines);
  }

  private List<String> block() {
    var block = new ArrayList<String>();
    switch (random.nextInt(8)) {
      case 0 -> block.add("#".repeat(1 + random.nextInt(4)) + " " + words(1 + random.nextInt(5)));
      case 1 -> {
        int items = 1 + random.nextInt(6);
        for (int i = 0; i < items; i++) {
          block.add((random.nextBoolean() ? "- " : (i + 1) + ". ") + words(1 + random.nextInt(6)));
          if (random.nextInt(4) == 0) {
            block.add("  - " + words(2));
          }
        }
      }
      case 2 -> {
        block.add("```" + (random.nextBoolean() ? "java" : ""));
        int code = 1 + random.nextInt(6);
        for (int i = 0; i < code; i++) {
          block.add((random.nextBoolean() ? "\t" : "    ") + "call(\"" + words(1) + "\");");
        }
        block.add("```");
      }
      case 3 -> {
        block.add("| " + words(1) + " | " + words(1) + " |");
        block.add("|---|---|");
        block.add("| " + words(1) + " | " + words(2) + " |");
      }
      case 4 -> block.add(REPEATED[random.nextInt(REPEATED.length)]);
      default -> {
        int lines = 1 + random.nextInt(4);
        for (int i = 0; i < lines; i++) {
          block.add(line());
        }
      }
    }
    if (random.nextInt(3) > 0) {
      block.add("");
    }
    return block;
  }

  private String words(int count) {
    var words = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        words.append(' ');
      }
      words.append(WORDS[random.nextInt(WORDS.length)]);
    }
    return words.toString();
  }

  /** Line ends for one document: all LF, all CRLF, or a mix. */
  LineEnds lineEnds() {
    int style = random.nextInt(6);
    return new LineEnds(random, style == 0 ? 1.0 : style == 1 ? 0.3 : 0.0);
  }

  static final class LineEnds {
    private final Random random;
    private final double crlf;

    LineEnds(Random random, double crlf) {
      this.random = random;
      this.crlf = crlf;
    }

    String next() {
      return random.nextDouble() < crlf ? "\r\n" : "\n";
    }
  }
}
