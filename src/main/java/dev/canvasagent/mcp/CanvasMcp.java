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
    tools.addAll(DocumentTool.all(vertx.eventBus(), access, documentTools));
    List<McpResource> resources = new ArrayList<>();
    resources.add(new CatalogResource(catalog, documentTools));
    ResourceSubscriptions subscriptions =
        new ResourceSubscriptions(vertx, CoalescedUpdates.WINDOW_MS);
    resources.add(new BoardResource(vertx.eventBus(), access, subscriptions));
    resources.add(new DocumentResource(vertx.eventBus(), access, subscriptions));
    List<McpPrompt> prompts = List.of(new DrawDiagramPrompt(), new EditDocumentPrompt());
    return new McpServer(tools, resources, prompts, version());
  }

  /** The jar's version (its manifest's {@code Implementation-Version}); "development" from classes. */
  static String version() {
    return Optional.ofNullable(CanvasMcp.class.getPackage().getImplementationVersion())
        .orElse("development");
  }
}
