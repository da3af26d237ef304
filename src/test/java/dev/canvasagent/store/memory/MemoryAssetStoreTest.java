package dev.canvasagent.store.memory;

import dev.canvasagent.store.AssetStore;
import dev.canvasagent.store.AssetStoreContract;
import io.vertx.core.Vertx;

class MemoryAssetStoreTest extends AssetStoreContract {
  @Override
  protected AssetStore createAssets(Vertx vertx) {
    return new MemoryAssetStore();
  }
}
