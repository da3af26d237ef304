package dev.canvasagent.doctools;

import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The document tools and the draft-07 schema of each one's arguments ({@code doctools/<tool>.json}). */
public final class DocumentToolCatalog {
  public static final List<String> LEASE_TOOLS =
      List.of("canvas_check_out", "canvas_renew_lease", "canvas_check_in");
  public static final List<String> READ_TOOLS =
      List.of(
          "canvas_grep",
          "canvas_read_lines",
          "canvas_read_all",
          "canvas_get_content",
          "canvas_get_diff",
          "canvas_get_selection_context");
  public static final List<String> WRITE_TOOLS =
      List.of(
          "canvas_apply_patch",
          "canvas_replace_lines",
          "canvas_insert_lines",
          "canvas_delete_lines",
          "canvas_search_replace",
          "canvas_save_snapshot",
          "canvas_revert_to_snapshot",
          "canvas_undo",
          "canvas_redo");

  private final Map<String, JsonSchemaFile> schemas = new LinkedHashMap<>();

  public DocumentToolCatalog() {
    for (List<String> group : List.of(LEASE_TOOLS, READ_TOOLS, WRITE_TOOLS)) {
      group.forEach(tool -> schemas.put(tool, JsonSchemaFile.load("doctools/" + tool + ".json")));
    }
  }

  public Optional<JsonSchemaFile> schema(String tool) {
    return Optional.ofNullable(schemas.get(tool));
  }

  /** {@code [{name, kind: lease|read|write, description, parameters}]}, for clients and model tool lists. */
  public JsonArray describe() {
    JsonArray tools = new JsonArray();
    schemas.forEach(
        (name, schema) -> {
          JsonObject document = schema.document();
          String kind =
              LEASE_TOOLS.contains(name) ? "lease" : READ_TOOLS.contains(name) ? "read" : "write";
          tools.add(
              new JsonObject()
                  .put("name", name)
                  .put("kind", kind)
                  .put("description", document.getString("description"))
                  .put("parameters", document));
        });
    return tools;
  }
}
