package dev.canvasagent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Figures of the server's {@code run.finished} lines, read from its log. */
final class RunFinishedLines {
  private RunFinishedLines() {}

  /**
   * Per run id (the pattern's first group), the whole numbers of its other groups, for every line the
   * pattern finds.
   */
  static Map<String, long[]> byRunId(Path log, Pattern pattern) throws IOException {
    Map<String, long[]> lines = new HashMap<>();
    try (Stream<String> all = Files.lines(log)) {
      all.map(pattern::matcher)
          .filter(Matcher::find)
          .forEach(
              line -> {
                long[] figures = new long[line.groupCount() - 1];
                for (int i = 0; i < figures.length; i++) {
                  figures[i] = Long.parseLong(line.group(i + 2));
                }
                lines.put(line.group(1), figures);
              });
    }
    return lines;
  }
}
