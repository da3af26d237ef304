package dev.canvasagent.store.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.store.Store;
import dev.canvasagent.store.StoreContract;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

class MemoryStoreTest extends StoreContract {
  @Override
  protected Store createStore(Vertx vertx) {
    return new MemoryStore();
  }

  @Test
  void itIsTheMemoryKind() {
    assertEquals("memory", store.kind());
  }
}
