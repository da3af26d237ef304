package dev.canvasagent.store.pg;

import dev.canvasagent.store.AssetStore;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Assets in {@code canvas_assets}, bytes and all, so every node sharing the database serves every
 * room's assets and a restart keeps them. A put is one insert that does nothing for bytes already
 * kept, then the row read back: two nodes putting the same file at once keep one row.
 */
final class PgAssetStore implements AssetStore {
  private final Pool pool;

  PgAssetStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<StoredAsset> put(String roomId, String contentType, Buffer bytes) {
    String assetId = AssetStore.idOf(bytes);
    return pool.preparedQuery(Sql.PUT_ASSET)
        .execute(Tuple.of(roomId, assetId, contentType, (long) bytes.length(), bytes))
        .compose(
            inserted -> pool.preparedQuery(Sql.FIND_ASSET_TYPE).execute(Tuple.of(roomId, assetId)))
        .map(
            rows -> {
              Row row = rows.iterator().next();
              return new StoredAsset(
                  roomId, assetId, row.getString("content_type"), row.getLong("size"));
            });
  }

  @Override
  public Future<Optional<AssetContent>> get(String roomId, String assetId) {
    return pool.preparedQuery(Sql.FIND_ASSET)
        .execute(Tuple.of(roomId, assetId))
        .map(
            rows -> {
              if (!rows.iterator().hasNext()) {
                return Optional.empty();
              }
              Row row = rows.iterator().next();
              return Optional.of(
                  new AssetContent(
                      new StoredAsset(
                          roomId, assetId, row.getString("content_type"), row.getLong("size")),
                      row.getBuffer("bytes")));
            });
  }

  @Override
  public Future<Set<String>> existing(String roomId, Collection<String> assetIds) {
    if (assetIds.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    return pool.preparedQuery(Sql.EXISTING_ASSETS)
        .execute(Tuple.tuple().addString(roomId).addArrayOfString(assetIds.toArray(new String[0])))
        .map(
            rows -> {
              Set<String> found = new HashSet<>();
              rows.forEach(row -> found.add(row.getString(0)));
              return found;
            });
  }
}
