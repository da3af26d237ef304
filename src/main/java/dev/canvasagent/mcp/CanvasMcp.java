package dev.canvasagent.mcp;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.doctools.DocumentToolCatalog;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** This server's MCP tools, resources and prompts, put together for the bridge's {@code /mcp}. */
public final class CanvasMcp {
  private CanvasMcp() {}

  public static McpServer server(
      Vertx vertx, ActionCatalog catalog, DocumentToolCatalog documentTools) {
    McpAccess access = new McpAccess(vertx.eventBus());
    List<McpTool> tools = new ArrayList<>();
    tools.addAll(BoardVerbTool.all(vertx.eventBus(), access, catalog));
    tools.add(new CanvasViewTool(vertx.eventBus(), access));
    tools.addAll(DocumentTool.all(vertx.eventBus(), access, documentTools));
    List<McpResource> resources = new ArrayList<>();
    resources.add(new CatalogResource(catalog, documentTools));
    return new McpServer(tools, resources, List.of(), version());
  }

  /** The jar's version (its manifest's {@code Implementation-Version}); "development" from classes. */
  static String version() {
    return Optional.ofNullable(CanvasMcp.class.getPackage().getImplementationVersion())
        .orElse("development");
  }
}
