package dev.canvasagent.store.memory;

import dev.canvasagent.store.SharedAcrossNodesContract;
import dev.canvasagent.store.Store;
import io.vertx.core.Vertx;

class MemorySharedAcrossNodesTest extends SharedAcrossNodesContract {
  @Override
  protected Store createStore(Vertx vertx) {
    return new MemoryStore();
  }

  @Override
  protected int keysKept(dev.canvasagent.store.RateLimits.Allowance allowance) {
    return ((MemoryRateLimits) store.rateLimits()).keeps(allowance.limit(), allowance.key())
        ? 1
        : 0;
  }
}
