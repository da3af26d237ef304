package dev.canvasagent.config;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The documentation's configuration table, made from the declared settings: one row per setting,
 * then the row of {@code CANVAS_AGENT_CONFIG}. A setting's default is what {@code conf/config.json}
 * holds at its path, so the table, the loader and the file cannot tell different stories.
 */
public final class ConfigurationTable {
  public static final String HEADER = "| Variable | `conf/config.json` | Default | Meaning |";
  static final String NO_DEFAULT = "(not in conf/config.json)";

  /** One row, each cell as Markdown: {@code `HOST`} or {@code —}, {@code `http.host`}, {@code `127.0.0.1`} or {@code empty}. */
  public record Row(String variable, String path, String defaultValue, String meaning) {
    public String markdown() {
      return "| " + variable + " | " + path + " | " + defaultValue + " | " + meaning + " |";
    }
  }

  private ConfigurationTable() {}

  /** The rows of this server's settings, then the row of {@code CANVAS_AGENT_CONFIG}. */
  public static List<Row> rows() {
    List<Row> rows = new ArrayList<>(rows(Settings.ALL, ConfigLoader.readDefaults()));
    rows.add(
        new Row(
            "`" + ConfigLoader.BLOB_VARIABLE + "`",
            "—",
            "empty",
            "JSON overrides, as above. Unknown keys are refused."));
    return rows;
  }

  /** One row per setting, its default read from {@code defaults}. */
  static List<Row> rows(List<Setting> settings, JsonObject defaults) {
    return settings.stream()
        .map(
            setting ->
                new Row(
                    setting.variable().map(variable -> "`" + variable + "`").orElse("—"),
                    setting.check() instanceof Check.Parts
                        ? "`" + setting.path() + ".<part>`"
                        : "`" + setting.path() + "`",
                    defaultCell(setting, defaults),
                    setting.meaning()))
        .toList();
  }

  /** The whole table, header included, as the documentation has it. */
  public static String markdown() {
    StringBuilder table = new StringBuilder(HEADER).append("\n| --- | --- | --- | --- |\n");
    rows().forEach(row -> table.append(row.markdown()).append('\n'));
    return table.toString();
  }

  private static String defaultCell(Setting setting, JsonObject defaults) {
    if (setting.check() instanceof Check.Parts parts) {
      return "see " + parts.describedIn();
    }
    Object value = defaults;
    for (String part : setting.path().split("\\.")) {
      value = value instanceof JsonObject object ? object.getValue(part) : null;
    }
    if (value == null || value instanceof JsonObject) {
      return NO_DEFAULT;
    }
    return "".equals(value) ? "empty" : "`" + value + "`";
  }
}
