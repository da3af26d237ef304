package dev.canvasagent.catalog.batch;

import io.vertx.core.json.JsonObject;

/** An operation the resolver skipped or changed (R19), with the ref that caused it (C8) and why. */
public record BatchIssue(int index, String ref, String reason) {
  public JsonObject toJson() {
    return new JsonObject().put("index", index).put("ref", ref).put("reason", reason);
  }
}
