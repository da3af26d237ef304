package dev.canvasagent.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the documentation's configuration table (rows {@code | VAR | path | default | meaning |}
 * under {@link ConfigurationTable#HEADER}) and says where it differs from the declared settings: a
 * row missing, a row no declaration has, or another default. The meaning is the documentation's to
 * word; the variable, path and default are the code's.
 */
final class ConfigurationTableCheck {
  /** Where the configuration table is documented: the one line to change when the table moves. */
  static final Path DOCUMENT = Path.of("docs/configuration.md");

  private ConfigurationTableCheck() {}

  /** The rows of the first table under {@link ConfigurationTable#HEADER} in {@code document}. */
  static List<ConfigurationTable.Row> documentedRows(String document) {
    List<String> lines = document.lines().toList();
    int header = lines.indexOf(ConfigurationTable.HEADER);
    if (header < 0) {
      throw new AssertionError(
          "no configuration table (" + ConfigurationTable.HEADER + ") in " + DOCUMENT);
    }
    List<ConfigurationTable.Row> rows = new ArrayList<>();
    // The header, then the |---| line, then rows until the first line that is not one.
    for (String line : lines.subList(header + 2, lines.size())) {
      if (!line.startsWith("|")) {
        break;
      }
      String[] cells = line.substring(1, line.length() - 1).strip().split(" \\| ", 4);
      if (cells.length != 4) {
        throw new AssertionError("a configuration table row without four cells: " + line);
      }
      rows.add(
          new ConfigurationTable.Row(
              cells[0].strip(), cells[1].strip(), cells[2].strip(), cells[3].strip()));
    }
    return rows;
  }

  /** Each difference in words, with the declared row to paste where one is missing; empty when they agree. */
  static List<String> differences(
      List<ConfigurationTable.Row> documented, List<ConfigurationTable.Row> declared) {
    Map<String, ConfigurationTable.Row> byKey = new LinkedHashMap<>();
    documented.forEach(row -> byKey.put(key(row), row));
    List<String> differences = new ArrayList<>();
    for (ConfigurationTable.Row row : declared) {
      ConfigurationTable.Row written = byKey.remove(key(row));
      if (written == null) {
        differences.add("missing from the table: " + row.markdown());
      } else if (!written.defaultValue().equals(row.defaultValue())) {
        differences.add(
            row.variable()
                + " "
                + row.path()
                + ": the table's default is "
                + written.defaultValue()
                + ", the declaration's "
                + row.defaultValue());
      }
    }
    byKey
        .values()
        .forEach(row -> differences.add("in the table but not declared: " + row.markdown()));
    return differences;
  }

  private static String key(ConfigurationTable.Row row) {
    return row.variable() + " " + row.path();
  }
}
