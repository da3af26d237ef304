package dev.canvasagent.mcp;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.DocumentToolCall;
import dev.canvasagent.doctools.DocumentToolCatalog;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * A document tool ({@code canvas_check_out}, {@code canvas_apply_patch}, …) as an MCP tool: the same
 * schema as {@code POST /api/docs/{id}/tools/{tool}} plus {@code docId}, the same lease manager behind
 * it ({@code doc.tool}). The MCP session is the caller: a lease it checks out is its own, and a person
 * who edits the document preempts it exactly as they preempt the document agent.
 */
final class DocumentTool implements McpTool {
  private final EventBus bus;
  private final McpAccess access;
  private final String name;
  private final JsonObject descriptor;

  private DocumentTool(EventBus bus, McpAccess access, String name, JsonObject schema) {
    this.bus = bus;
    this.access = access;
    this.name = name;
    JsonObject docId =
        new JsonObject()
            .put("type", "string")
            .put("minLength", 1)
            .put("maxLength", ToolArguments.MAX_DOC_ID_CHARS)
            .put("description", "The document's id (doc-<uuid>).");
    this.descriptor =
        new JsonObject()
            .put("name", name)
            .put("description", schema.getString("description"))
            .put(
                "inputSchema",
                ToolArguments.inputSchema(
                    schema, new JsonObject().put("docId", docId), List.of("docId")))
            .put(
                "annotations",
                new JsonObject()
                    .put("readOnlyHint", DocumentToolCatalog.READ_TOOLS.contains(name))
                    .put("destructiveHint", false)
                    .put("openWorldHint", false));
  }

  static List<McpTool> all(EventBus bus, McpAccess access, DocumentToolCatalog catalog) {
    List<McpTool> tools = new ArrayList<>();
    for (List<String> group :
        List.of(
            DocumentToolCatalog.LEASE_TOOLS,
            DocumentToolCatalog.READ_TOOLS,
            DocumentToolCatalog.WRITE_TOOLS)) {
      for (String tool : group) {
        tools.add(
            new DocumentTool(bus, access, tool, catalog.schema(tool).orElseThrow().document()));
      }
    }
    return tools;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public JsonObject descriptor() {
    return descriptor;
  }

  @Override
  public Future<ToolResult> call(ToolCall call) {
    String docId = ToolArguments.document(call.arguments());
    JsonObject args = ToolArguments.without(call.arguments(), "docId");
    return access
        .document(call.grant(), Role.EDITOR, docId)
        .compose(
            allowed ->
                Address.DOC_TOOL.ask(
                    bus, new DocumentToolCall(docId, name, args, call.session().actor())))
        .map(answer -> ToolResult.ok(answer.result()));
  }
}
