package dev.canvasagent.runner;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonArray;
import java.nio.charset.StandardCharsets;

/**
 * The part of every run's prompt that does not depend on the run: the system prompt and the catalog's
 * tools, built once per runner and shared read-only by its runs, with their size for the run's token
 * estimate.
 */
record FixedPrompt(String system, JsonArray tools, int bytes) {
  static FixedPrompt of(ActionCatalog catalog) {
    String system = SystemPrompt.build(catalog);
    JsonArray tools = catalog.describe();
    return new FixedPrompt(
        system,
        tools,
        system.getBytes(StandardCharsets.UTF_8).length
            + tools.encode().getBytes(StandardCharsets.UTF_8).length);
  }
}
