package dev.canvasagent.catalog.dialect;

import io.vertx.core.json.JsonObject;

/**
 * How one dialect's params become the params of our verb. It never changes its input, and throws
 * {@link dev.canvasagent.catalog.ActionRejected} with a reason when the params mean something our verb
 * cannot do.
 */
@FunctionalInterface
public interface ParamsTranslation {
  JsonObject apply(JsonObject params);
}
