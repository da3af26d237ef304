package dev.canvasagent.bridge;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ShapeKinds;
import dev.canvasagent.catalog.StyleNormalizer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * {@code GET /api/catalog}: the verbs the agent may use on the board, with their parameters and a
 * sample of each, and the words the server reads as shape kinds and colors, so a client previewing
 * an action reads it as the server will.
 */
final class CatalogRoute {
  private final ActionCatalog catalog;
  private final boolean brandPalette;

  CatalogRoute(ActionCatalog catalog, boolean brandPalette) {
    this.catalog = catalog;
    this.brandPalette = brandPalette;
  }

  void mount(Router router) {
    router
        .get("/api/catalog")
        .handler(
            ctx ->
                JsonResponse.send(
                    ctx,
                    200,
                    new JsonObject()
                        .put("ok", true)
                        .put("verbs", catalog.describe())
                        .put("shapeKinds", ShapeKinds.words())
                        .put("colorAliases", StyleNormalizer.describeColorAliases(brandPalette))));
  }
}
