package dev.canvasagent.catalog;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * docs/catalog.md, made from the action catalog: one row per verb with its kind, its params as its
 * schema names them and the first sentence of what the schema tells the model. The build writes it
 * ({@code process-test-classes}), so a new verb reaches the docs with its class and its schema;
 * {@code CatalogReferenceTest} fails when the page and the catalog differ.
 */
public final class CatalogReference {
  static final Path PAGE = Path.of("docs/catalog.md");

  private CatalogReference() {}

  /**
   * Writes the page to {@code args[0]} (docs/catalog.md by default) when it has changed. Under
   * {@code CI=true} it writes nothing and fails the build instead: a clean clone must hold the page
   * its catalog makes.
   */
  public static void main(String[] args) throws IOException {
    Path page = args.length > 0 ? Path.of(args[0]) : PAGE;
    String markdown = markdown(ActionCatalog.standard());
    if (Files.exists(page) && Files.readString(page).equals(markdown)) {
      return;
    }
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new IllegalStateException(
          page + " is not what the catalog makes: run ./mvnw verify locally and commit the page");
    }
    Files.writeString(page, markdown, StandardCharsets.UTF_8);
  }

  static String markdown(ActionCatalog catalog) {
    StringBuilder page =
        new StringBuilder(
            """
            # The action catalog

            <!-- Written by the build from src/main/resources/catalog/*.json (test class
                 catalog/CatalogReference); edit the schemas, not this page. -->

            Every verb the agent may use, in the order models are shown them. Its params and what it
            does are its JSON Schema's (`src/main/resources/catalog/<verb>.json`), which also
            validates what the model sends and is served by `GET /api/catalog`; a param with `?` is
            optional. What the kinds mean, and the rules every verb follows, are in
            [boards](boards.md#the-action-catalog).

            | Verb | Kind | Params | What it does |
            | --- | --- | --- | --- |
            """);
    for (ActionCatalog.Entry entry : catalog.entries()) {
      JsonObject schema = entry.schema().document();
      page.append("| `")
          .append(entry.verb().name())
          .append("` | ")
          .append(entry.verb().kind().name())
          .append(" | ")
          .append(params(schema))
          .append(" | ")
          .append(firstSentence(schema.getString("description", "")).replace("|", "\\|"))
          .append(" |\n");
    }
    return page.toString();
  }

  /** The schema's properties, the required ones first; "—" for none. */
  static String params(JsonObject schema) {
    JsonArray required = schema.getJsonArray("required", new JsonArray());
    JsonObject properties = schema.getJsonObject("properties", new JsonObject());
    List<String> names = new ArrayList<>();
    required.forEach(name -> names.add("`" + name + "`"));
    properties.fieldNames().stream()
        .filter(name -> !required.contains(name))
        .forEach(name -> names.add("`" + name + "?`"));
    return names.isEmpty() ? "—" : String.join(", ", names);
  }

  static String firstSentence(String description) {
    String text = description.replaceAll("\\s+", " ").strip();
    int end = text.indexOf(". ");
    return end < 0 ? text : text.substring(0, end + 1);
  }
}
