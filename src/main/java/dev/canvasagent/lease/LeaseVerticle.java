package dev.canvasagent.lease;

import dev.canvasagent.bus.CanvasVerticle;
import io.vertx.core.Future;

/**
 * The lease manager: exclusive, expiring leases on documents, with an epoch every write must carry.
 * Documents do not exist in this server yet, so it takes no lease requests; it is deployed so that
 * the topology, health and shutdown already include it.
 */
public final class LeaseVerticle extends CanvasVerticle {
  @Override
  public String name() {
    return "lease";
  }

  @Override
  protected Future<?> startVerticle() {
    return Future.succeededFuture();
  }
}
