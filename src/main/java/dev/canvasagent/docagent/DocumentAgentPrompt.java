package dev.canvasagent.docagent;

import dev.canvasagent.doctools.DocumentToolCatalog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What the document agent's model is told and which tools it is offered: the read and write tools
 * without their lease arguments, which the server holds and fills in itself.
 */
public final class DocumentAgentPrompt {
  public static final String SYSTEM =
      """
      You edit one Markdown document like a careful editor, never a typist. The server holds the \
      document's lease for you while you work; you never check out, renew or check in.
      Always locate before editing: canvas_grep or canvas_read_lines / canvas_read_all first, then edit \
      the exact lines you read. Do not retype target text you have not read.
      Prefer small edits: canvas_replace_lines, canvas_insert_lines, canvas_delete_lines, or \
      canvas_apply_patch with a unified diff whose every hunk applies exactly (no fuzz).
      Line numbers drift after each edit: read again before a second edit further down.
      Every result carries revision_id; a write makes a new one.
      If the person edits or interrupts, your lease is void and later writes fail with STALE_EPOCH: stop.
      When done, say in one or two sentences what you changed.""";

  private DocumentAgentPrompt() {}

  /** {@code [{name, description, params}]} as {@code ModelRequest.tools} takes them. */
  public static JsonArray tools(DocumentToolCatalog catalog) {
    JsonArray tools = new JsonArray();
    for (Object item : catalog.describe()) {
      JsonObject tool = (JsonObject) item;
      if ("lease".equals(tool.getString("kind"))) {
        continue;
      }
      JsonObject params = tool.getJsonObject("parameters").copy();
      params.getJsonObject("properties").remove("lease_id");
      params.getJsonObject("properties").remove("canvas_epoch");
      JsonArray required = params.getJsonArray("required", new JsonArray());
      JsonArray kept = new JsonArray();
      required.forEach(
          name -> {
            if (!"lease_id".equals(name) && !"canvas_epoch".equals(name)) {
              kept.add(name);
            }
          });
      params.put("required", kept);
      tools.add(
          new JsonObject()
              .put("name", tool.getString("name"))
              .put("description", tool.getString("description"))
              .put("params", params));
    }
    return tools;
  }
}
