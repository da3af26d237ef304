package dev.canvasagent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class CatalogReferenceTest {
  @Test
  void docsCatalogIsTheCatalogAsTheBuildWritesIt() throws IOException {
    assertEquals(
        CatalogReference.markdown(ActionCatalog.standard()),
        Files.readString(CatalogReference.PAGE),
        CatalogReference.PAGE
            + " is written by the build (./mvnw verify, or ./mvnw -q process-test-classes);"
            + " commit it as the build left it");
  }

  @Test
  void everyVerbHasARowWithItsKind() throws IOException {
    String page = Files.readString(CatalogReference.PAGE);
    ActionCatalog.standard()
        .entries()
        .forEach(
            entry ->
                assertTrue(
                    page.contains(
                        "| `" + entry.verb().name() + "` | " + entry.verb().kind().name() + " |"),
                    entry.verb().name()));
  }

  @Test
  void paramsListTheRequiredFirstAndMarkTheOptional() {
    JsonObject schema =
        new JsonObject()
            .put("required", new JsonArray().add("shapeIds"))
            .put(
                "properties",
                new JsonObject()
                    .put("originX", new JsonObject())
                    .put("shapeIds", new JsonObject()));
    assertEquals("`shapeIds`, `originX?`", CatalogReference.params(schema));
    assertEquals("—", CatalogReference.params(new JsonObject()));
    assertEquals("No sentence end", CatalogReference.firstSentence("No sentence end"));
    assertEquals("Line shapes up.", CatalogReference.firstSentence("Line shapes up. More words."));
  }
}
