package dev.canvasagent.catalog.batch;

import io.vertx.core.json.JsonObject;

/**
 * An operation the resolver skipped (an unknown op; a ref empty, malformed or taken; a connector
 * end naming no object before it; …) or placed top-level (a parentRef naming no frame before it),
 * with the ref that caused it and why.
 */
public record BatchIssue(int index, String ref, String reason) {
  public JsonObject toJson() {
    return new JsonObject().put("index", index).put("ref", ref).put("reason", reason);
  }
}
