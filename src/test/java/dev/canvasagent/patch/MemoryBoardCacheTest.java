package dev.canvasagent.patch;

import dev.canvasagent.store.Store;
import dev.canvasagent.store.memory.MemoryStore;
import io.vertx.core.Vertx;

/** The board cache contract on the embedded store, both nodes sharing the one store of the process. */
class MemoryBoardCacheTest extends BoardCacheContract {
  private final MemoryStore store = new MemoryStore();

  @Override
  protected Store storeFor(Vertx vertx) {
    return store;
  }
}
