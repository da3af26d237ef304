package dev.canvasagent.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The documentation's configuration table, made from the declared settings: one row per setting (its
 * variable, its path in {@code CANVAS_AGENT_CONFIG}, its declared default and its meaning), then the
 * row of {@code CANVAS_AGENT_CONFIG}. The loader starts from the same defaults, so the table and the
 * loader cannot tell different stories.
 */
public final class ConfigurationTable {
  public static final String HEADER =
      "| Variable | Path in `CANVAS_AGENT_CONFIG` | Default | Meaning |";

  /** One row, each cell as Markdown: {@code `HOST`} or {@code —}, {@code `http.host`}, {@code `127.0.0.1`} or {@code empty}. */
  public record Row(String variable, String path, String defaultValue, String meaning) {
    public String markdown() {
      return "| " + variable + " | " + path + " | " + defaultValue + " | " + meaning + " |";
    }
  }

  private ConfigurationTable() {}

  /** The rows of this server's settings, then the row of {@code CANVAS_AGENT_CONFIG}. */
  public static List<Row> rows() {
    List<Row> rows = new ArrayList<>(rows(Settings.ALL));
    rows.add(
        new Row(
            "`" + ConfigLoader.BLOB_VARIABLE + "`",
            "—",
            "empty",
            "JSON overrides, as above. Unknown keys are refused."));
    return rows;
  }

  /** One row per setting. */
  static List<Row> rows(List<Setting> settings) {
    return settings.stream()
        .map(
            setting ->
                new Row(
                    setting.variable().map(variable -> "`" + variable + "`").orElse("—"),
                    setting.check() instanceof Check.Parts
                        ? "`" + setting.path() + ".<part>`"
                        : "`" + setting.path() + "`",
                    defaultCell(setting),
                    setting.meaning()))
        .toList();
  }

  /** The whole table, header included, as the documentation has it. */
  public static String markdown() {
    StringBuilder table = new StringBuilder(HEADER).append("\n| --- | --- | --- | --- |\n");
    rows().forEach(row -> table.append(row.markdown()).append('\n'));
    return table.toString();
  }

  private static String defaultCell(Setting setting) {
    if (setting.check() instanceof Check.Parts parts) {
      return "see " + parts.describedIn();
    }
    return "".equals(setting.defaultValue()) ? "empty" : "`" + setting.defaultValue() + "`";
  }
}
