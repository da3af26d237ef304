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

  /**
   * {@code admission}: the edge's run limits, which a run asked here counts against as one asked over
   * {@code /api} does; {@code delegationTimeoutMs}: how long a delegated document edit may take.
   */
  public static McpServer server(
      Vertx vertx,
      ActionCatalog catalog,
      DocumentToolCatalog documentTools,
      RunAdmission admission,
      long delegationTimeoutMs) {
    McpAccess access = new McpAccess(vertx.eventBus());
    List<McpTool> tools = new ArrayList<>();
    tools.addAll(BoardVerbTool.all(vertx.eventBus(), access, catalog));
    tools.add(new CanvasViewTool(vertx.eventBus(), access));
    tools.addAll(DocumentTool.all(vertx.eventBus(), access, documentTools));
    tools.add(new AgentRunTool(vertx.eventBus(), access, admission));
    tools.add(new EditRequestTool(vertx.eventBus(), access, admission, delegationTimeoutMs));
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
