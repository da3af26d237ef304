package dev.canvasagent.bridge;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/** {@code GET /api/catalog}: the verbs the agent may use on the board, with their parameters and a sample of each. */
final class CatalogRoute {
  private final ActionCatalog catalog;

  CatalogRoute(ActionCatalog catalog) {
    this.catalog = catalog;
  }

  void mount(Router router) {
    router
        .get("/api/catalog")
        .handler(
            ctx ->
                JsonResponse.send(
                    ctx, 200, new JsonObject().put("ok", true).put("verbs", catalog.describe())));
  }
}
