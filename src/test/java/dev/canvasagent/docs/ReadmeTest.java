package dev.canvasagent.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.catalog.ActionCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README is where a newcomer looks first: it must not fall behind the catalog or the configuration. */
class ReadmeTest {
  static String readme() throws IOException {
    return Files.readString(Path.of("README.md"));
  }

  @Test
  void theCatalogTableNamesEveryVerb() throws IOException {
    String readme = readme();
    String table = readme.substring(readme.indexOf("## The action catalog"), readme.indexOf("## The sanitizer's rules"));
    ActionCatalog.standard().entries().forEach(entry ->
        assertTrue(table.contains("`" + entry.verb().name() + "`"), entry.verb().name() + " is missing from the README's catalog"));
  }

  @Test
  void theConfigurationTableNamesEveryVariable() throws IOException {
    String readme = readme();
    String table = readme.substring(readme.indexOf("## Configuration"), readme.indexOf("## Architecture"));
    for (String variable : dev.canvasagent.config.ConfigLoaderAccess.variables()) {
      assertTrue(table.contains("`" + variable + "`"), variable + " is missing from the README's configuration table");
    }
  }
}
