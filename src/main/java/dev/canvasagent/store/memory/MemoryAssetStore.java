package dev.canvasagent.store.memory;

import dev.canvasagent.store.AssetStore;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Assets in this process's memory, for tests: the embedded server keeps them in a directory instead
 * ({@code files/DirectoryAssetStore}), so that images do not weigh on the heap.
 */
public final class MemoryAssetStore implements AssetStore {
  private final Object lock = new Object();
  private final Map<List<String>, AssetContent> assets = new HashMap<>();

  @Override
  public Future<StoredAsset> put(String roomId, String contentType, Buffer bytes) {
    String assetId = AssetStore.idOf(bytes);
    synchronized (lock) {
      AssetContent kept =
          assets.computeIfAbsent(
              List.of(roomId, assetId),
              key ->
                  new AssetContent(
                      new StoredAsset(roomId, assetId, contentType, bytes.length()), bytes.copy()));
      return Future.succeededFuture(kept.asset());
    }
  }

  @Override
  public Future<Optional<AssetContent>> get(String roomId, String assetId) {
    synchronized (lock) {
      return Future.succeededFuture(
          Optional.ofNullable(assets.get(List.of(roomId, assetId)))
              .map(kept -> new AssetContent(kept.asset(), kept.bytes().copy())));
    }
  }

  @Override
  public Future<Set<String>> existing(String roomId, Collection<String> assetIds) {
    synchronized (lock) {
      return Future.succeededFuture(
          assetIds.stream()
              .filter(id -> assets.containsKey(List.of(roomId, id)))
              .collect(Collectors.toSet()));
    }
  }
}
