package dev.canvasagent.config;

import static dev.canvasagent.config.Check.parts;
import static dev.canvasagent.config.Check.whole;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The declared settings are the whole story: each carries its default, which its own check accepts,
 * and the documentation's configuration table lists each with its variable, path and default.
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
  void everyDeclaredDefaultPassesItsOwnCheck() {
    for (Setting setting : Settings.ALL) {
      assertDoesNotThrow(
          () -> ConfigValues.load(List.of(setting), Map.of()).read(setting), setting.path());
    }
  }

  @Test
  void aDefaultItsCheckRefusesStopsTheDeclaration() {
    ConfigException refused =
        assertThrows(
            ConfigException.class,
            () -> Setting.noVariable("limits.widgets", whole(1, 100), "ten", "Widgets."));

    assertEquals(
        "bad configuration: default limits.widgets = 'ten': must be an integer",
        refused.getMessage());
  }

  @Test
  void namedPartsHaveAnObjectForDefaultAndNoVariable() {
    assertThrows(
        ConfigException.class,
        () -> Setting.noVariable("context.budgets", parts(0, 10, "x"), 5, "Parts."));
    assertThrows(
        IllegalArgumentException.class,
        () -> Setting.of("context.budgets", "BUDGETS", parts(0, 10, "x"), new JsonObject(), "P."));
  }

  @Test
  void theDefaultsAreOneObjectShapedByThePaths() {
    JsonObject defaults = ConfigValues.defaults(Settings.ALL);

    assertEquals(8080, defaults.getJsonObject("http").getValue("port"));
    assertEquals(
        49_152,
        defaults.getJsonObject("context").getJsonObject("budgets").getValue("blurryShapes"));
    assertEquals(
        "https://api.openai.com/v1",
        defaults.getJsonObject("providers").getJsonObject("openai").getValue("baseUrl"));
  }

  @Test
  void aPathDeclaredTwiceOrInsideAnothersValueIsAMistake() {
    Setting port = Setting.of("http.port", "PORT", whole(0, 10), 1, "Port.");
    Setting again = Setting.of("http.port", "OTHER_PORT", whole(0, 10), 2, "Port.");
    Setting inside = Setting.of("http.port.low", "LOW_PORT", whole(0, 10), 3, "Port.");

    String twice =
        assertThrows(IllegalStateException.class, () -> ConfigValues.defaults(List.of(port, again)))
            .getMessage();
    String nested =
        assertThrows(
                IllegalStateException.class, () -> ConfigValues.defaults(List.of(port, inside)))
            .getMessage();

    assertTrue(twice.contains("http.port is declared twice"), twice);
    assertTrue(nested.contains("http.port.low is declared inside the value of http.port"), nested);
  }
}
