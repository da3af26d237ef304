package dev.canvasagent.document.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The edits a writer or a model makes: lines replaced, inserted, deleted, whitespace touched, text
 * added at the start or the end, the final newline added or taken away.
 */
final class RandomEdits {
  private final Random random;
  private final MarkdownCorpus corpus;

  RandomEdits(Random random, MarkdownCorpus corpus) {
    this.random = random;
    this.corpus = corpus;
  }

  List<String> edit(List<String> original) {
    var lines = new ArrayList<>(original);
    boolean endedWithNewline = lines.isEmpty() || lines.get(lines.size() - 1).endsWith("\n");
    if (!endedWithNewline) {
      lines.set(lines.size() - 1, lines.get(lines.size() - 1) + "\n");
    }
    String eol = lines.stream().anyMatch(l -> l.endsWith("\r\n")) ? "\r\n" : "\n";
    int edits = 1 + random.nextInt(5);
    for (int e = 0; e < edits; e++) {
      int at = random.nextInt(lines.size() + 1);
      switch (random.nextInt(7)) {
        case 0, 1 -> lines.addAll(at, corpus.freshLines(1 + random.nextInt(3), eol));
        case 2 -> {
          int count = Math.min(1 + random.nextInt(3), lines.size() - at);
          lines.subList(at, at + count).clear();
        }
        case 3 -> lines.add(0, corpus.line() + eol);
        case 4 -> lines.add(corpus.line() + eol);
        case 5 -> {
          if (at < lines.size()) {
            lines.set(at, lines.get(at).replaceFirst("(\r?\n)$", " $1"));
          }
        }
        default -> {
          if (at < lines.size()) {
            lines.set(at, corpus.line() + eol);
          }
        }
      }
    }
    boolean endsWithNewline = random.nextInt(6) == 0 ? !endedWithNewline : endedWithNewline;
    if (!endsWithNewline && !lines.isEmpty()) {
      MarkdownCorpus.dropFinalLineEnd(lines);
    }
    return lines;
  }
}
