package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/mcp.md names every tool {@code tools/list} lists, so a new verb or tool cannot go unmentioned. */
class McpDocTest {
  @Test
  void theToolTableNamesEveryTool() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      McpServer server =
          CanvasMcp.server(
              vertx,
              ActionCatalog.standard(),
              new DocumentToolCatalog(),
              RunAdmission.UNLIMITED,
              1_000);
      McpSession session =
          new McpSession("0".repeat(32), McpProtocol.LATEST, new JsonObject(), "doc", null, 0);
      JsonObject listed =
          Await.result(
              server.request(
                  session,
                  Grant.open(),
                  JsonRpcMessage.read(
                      new JsonObject()
                          .put("jsonrpc", "2.0")
                          .put("id", 1)
                          .put("method", "tools/list")),
                  ToolProgress.NONE));
      String tools = Files.readString(Path.of("docs/mcp.md"));
      tools = tools.substring(tools.indexOf("## Tools"), tools.indexOf("## The transport"));
      String section = tools;
      List<String> missing =
          listed.getJsonArray("tools").stream()
              .map(tool -> ((JsonObject) tool).getString("name"))
              .filter(name -> !section.contains("`" + name + "`"))
              .toList();
      assertEquals(List.of(), missing, "tools docs/mcp.md's Tools section does not name");
    } finally {
      Await.result(vertx.close());
    }
  }
}
