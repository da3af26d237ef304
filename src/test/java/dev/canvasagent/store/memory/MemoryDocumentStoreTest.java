package dev.canvasagent.store.memory;

import dev.canvasagent.store.DocumentStoreContract;
import dev.canvasagent.store.Store;
import io.vertx.core.Vertx;

class MemoryDocumentStoreTest extends DocumentStoreContract {
  @Override
  protected Store createStore(Vertx vertx) {
    return new MemoryStore();
  }
}
