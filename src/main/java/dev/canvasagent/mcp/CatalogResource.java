package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.doctools.DocumentToolCatalog;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * {@code canvas://catalog}: the board verbs and the document tools with their JSON Schemas, the same
 * documents {@code GET /api/catalog} and {@code GET /api/docs/tools} answer. It never changes while the
 * server runs, so a subscription to it is accepted and never notified.
 */
final class CatalogResource implements McpResource {
  static final String URI = "canvas://catalog";

  private final String text;

  CatalogResource(ActionCatalog catalog, DocumentToolCatalog documentTools) {
    this.text =
        new JsonObject()
            .put("verbs", catalog.describe())
            .put("documentTools", documentTools.describe())
            .encodePrettily();
  }

  @Override
  public Future<JsonArray> list(McpSession session, Grant grant) {
    return Future.succeededFuture(
        new JsonArray()
            .add(
                new JsonObject()
                    .put("uri", URI)
                    .put("name", "catalog")
                    .put("title", "Board verbs and document tools")
                    .put(
                        "description",
                        "Every board verb (name, kind, params schema, sample) and every document tool, as /api/catalog and /api/docs/tools answer them.")
                    .put("mimeType", "application/json")));
  }

  @Override
  public Optional<JsonObject> template() {
    return Optional.empty();
  }

  @Override
  public boolean owns(String uri) {
    return URI.equals(uri);
  }

  @Override
  public Future<JsonArray> read(String uri, McpSession session, Grant grant) {
    return Future.succeededFuture(
        new JsonArray()
            .add(
                new JsonObject()
                    .put("uri", URI)
                    .put("mimeType", "application/json")
                    .put("text", text)));
  }

  @Override
  public Future<Void> subscribe(String uri, McpSession session, Grant grant) {
    session.subscribe(uri, () -> {});
    return Future.succeededFuture();
  }
}
