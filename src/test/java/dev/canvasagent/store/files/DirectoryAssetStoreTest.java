package dev.canvasagent.store.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.store.AssetStore;
import dev.canvasagent.store.AssetStoreContract;
import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryAssetStoreTest extends AssetStoreContract {
  @TempDir Path directory;
  Vertx vertx;

  @Override
  protected AssetStore createAssets(Vertx vertx) {
    this.vertx = vertx;
    return new DirectoryAssetStore(vertx, directory);
  }

  @Test
  void anotherStoreOnTheSameDirectoryReadsWhatWasKept() {
    var stored = Await.result(assets.put("r", "image/jpeg", Buffer.buffer("jpeg bytes")));
    var reopened = new DirectoryAssetStore(vertx, directory);
    assertEquals(stored, Await.result(reopened.get("r", stored.assetId())).orElseThrow().asset());
  }
}
