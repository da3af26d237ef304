package dev.canvasagent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The declared settings are the whole story: {@code conf/config.json} holds exactly them, and the
 * documentation's configuration table lists each with its variable, path and default.
 */
class DeclaredSettingsTest {

  @Test
  void theDocumentedTableListsEveryDeclaredSettingWithItsVariablePathAndDefault()
      throws IOException {
    List<ConfigurationTable.Row> documented =
        ConfigurationTableCheck.documentedRows(Files.readString(ConfigurationTableCheck.DOCUMENT));

    List<String> differences =
        ConfigurationTableCheck.differences(documented, ConfigurationTable.rows());

    assertEquals(
        List.of(),
        differences,
        ConfigurationTableCheck.DOCUMENT
            + "'s configuration table and the declared settings differ");
  }

  @Test
  void configJsonHasNoKeyThatNoSettingDeclares() throws IOException {
    Set<String> undeclared = new TreeSet<>();
    for (String path : ConfigValues.leafPaths(configJson(), "")) {
      if (Settings.ALL.stream().noneMatch(setting -> covers(setting, path))) {
        undeclared.add(path);
      }
    }
    assertEquals(Set.of(), undeclared, "keys of conf/config.json no setting declares");
  }

  @Test
  void everyDeclaredSettingHasItsDefaultInConfigJson() throws IOException {
    JsonObject defaults = configJson();
    Set<String> missing = new TreeSet<>();
    for (Setting setting : Settings.ALL) {
      Object value = defaults;
      for (String part : setting.path().split("\\.")) {
        value = value instanceof JsonObject object ? object.getValue(part) : null;
      }
      boolean expectedObject = setting.check() instanceof Check.Parts;
      if (value == null || (value instanceof JsonObject) != expectedObject) {
        missing.add(setting.path());
      }
    }
    assertEquals(Set.of(), missing, "declared settings without their default in conf/config.json");
  }

  private static boolean covers(Setting setting, String path) {
    return setting.check() instanceof Check.Parts
        ? path.startsWith(setting.path() + ".")
        : path.equals(setting.path());
  }

  private static JsonObject configJson() throws IOException {
    return new JsonObject(Files.readString(Path.of("conf/config.json")));
  }
}
