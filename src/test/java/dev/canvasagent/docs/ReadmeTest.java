package dev.canvasagent.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The reference pages are where a newcomer looks after the README: they must not fall behind the
 * catalog or the configuration.
 */
class ReadmeTest {
  /** The page that holds the configuration table. */
  static final Path CONFIGURATION_PAGE = Path.of("docs/configuration.md");

  static String read(Path page) throws IOException {
    return Files.readString(page);
  }

  @Test
  void theConfigurationTableNamesEveryVariable() throws IOException {
    String table = read(CONFIGURATION_PAGE);
    for (String variable : dev.canvasagent.config.ConfigLoaderAccess.variables()) {
      assertTrue(
          table.contains("`" + variable + "`"),
          variable + " is missing from " + CONFIGURATION_PAGE + "'s table");
    }
  }
}
