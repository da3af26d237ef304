package dev.canvasagent.bus;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * A verticle of the server: it answers its health probe ({@code health.<name>}) beside its own work,
 * and counts as started only once both are registered.
 */
public abstract class CanvasVerticle extends VerticleBase {
  /** The verticle's name in health reports and logs. */
  public abstract String name();

  /** Starts the verticle's own consumers and servers. */
  protected abstract Future<?> startVerticle();

  /** What the verticle reports about itself; {@code ok:false} marks it unhealthy. */
  protected Future<JsonObject> health() {
    return Future.succeededFuture(new JsonObject().put("ok", true));
  }

  @Override
  public final Future<?> start() {
    MessageConsumer<JsonObject> probe =
        vertx.eventBus().consumer(Address.health(name()), message ->
            health().onComplete(report -> message.reply(
                report.succeeded()
                    ? report.result()
                    : new JsonObject().put("ok", false).put("error", String.valueOf(report.cause().getMessage())))));
    return Future.join(probe.completion(), startVerticle());
  }
}
