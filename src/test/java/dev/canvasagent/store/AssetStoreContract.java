package dev.canvasagent.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.store.AssetStore.AssetContent;
import dev.canvasagent.store.AssetStore.StoredAsset;
import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every asset store does, wherever it keeps the bytes: an asset is named by its content within
 * its room, the same bytes put twice are one asset, another room does not have it, and what is read
 * back is exactly what was put.
 */
@ExtendWith(VertxExtension.class)
public abstract class AssetStoreContract {
  protected AssetStore assets;
  String room;
  String otherRoom;

  protected abstract AssetStore createAssets(Vertx vertx);

  @BeforeEach
  void open(Vertx vertx) {
    assets = createAssets(vertx);
    room = "room-" + UUID.randomUUID();
    otherRoom = "Room-" + UUID.randomUUID();
  }

  static Buffer bytes(String text) {
    return Buffer.buffer(text);
  }

  @Test
  void anAssetIsNamedByItsContentAndReadBackWhole() {
    Buffer png = Buffer.buffer(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xff});
    StoredAsset stored = Await.result(assets.put(room, "image/png", png));
    assertEquals(AssetStore.idOf(png), stored.assetId());
    assertTrue(AssetStore.ID.matcher(stored.assetId()).matches());
    assertEquals(new StoredAsset(room, stored.assetId(), "image/png", 8), stored);

    AssetContent read = Await.result(assets.get(room, stored.assetId())).orElseThrow();
    assertEquals(stored, read.asset());
    assertArrayEquals(png.getBytes(), read.bytes().getBytes());
  }

  @Test
  void theSameBytesPutTwiceAreOneAssetKeptAsFirstPut() {
    StoredAsset first = Await.result(assets.put(room, "image/gif", bytes("GIF89a same")));
    StoredAsset again = Await.result(assets.put(room, "image/gif", bytes("GIF89a same")));
    assertEquals(first, again);
    StoredAsset other = Await.result(assets.put(room, "image/gif", bytes("GIF89a other")));
    assertTrue(!other.assetId().equals(first.assetId()));
  }

  @Test
  void concurrentPutsOfTheSameBytesKeepOneWholeAsset() {
    List<Future<StoredAsset>> puts =
        List.of(
            assets.put(room, "image/webp", bytes("RIFF....WEBP x")),
            assets.put(room, "image/webp", bytes("RIFF....WEBP x")),
            assets.put(room, "image/webp", bytes("RIFF....WEBP x")));
    Await.result(Future.all(puts));
    String id = puts.get(0).result().assetId();
    puts.forEach(put -> assertEquals(id, put.result().assetId()));
    assertEquals(
        "RIFF....WEBP x", Await.result(assets.get(room, id)).orElseThrow().bytes().toString());
  }

  @Test
  void anotherRoomDoesNotHaveTheAsset() {
    StoredAsset stored = Await.result(assets.put(room, "image/png", bytes("only here")));
    assertEquals(Optional.empty(), Await.result(assets.get(otherRoom, stored.assetId())));
    assertEquals(Set.of(), Await.result(assets.existing(otherRoom, List.of(stored.assetId()))));
    String lowerCased = room.toLowerCase().equals(room) ? room.toUpperCase() : room.toLowerCase();
    assertEquals(
        Set.of(),
        Await.result(assets.existing(lowerCased, List.of(stored.assetId()))),
        "room ids are case-sensitive");
  }

  @Test
  void existingAnswersOnlyTheAssetsTheRoomHas() {
    StoredAsset a = Await.result(assets.put(room, "image/png", bytes("a")));
    StoredAsset b = Await.result(assets.put(room, "video/mp4", bytes("b")));
    String missing = AssetStore.idOf(bytes("never put"));
    assertEquals(
        Set.of(a.assetId(), b.assetId()),
        Await.result(
            assets.existing(room, List.of(a.assetId(), b.assetId(), missing, "not-an-id"))));
    assertEquals(Set.of(), Await.result(assets.existing(room, List.of())));
  }

  @Test
  void anUnknownOrMalformedIdIsNoAsset() {
    assertEquals(
        Optional.empty(), Await.result(assets.get(room, AssetStore.idOf(bytes("never put")))));
    assertEquals(Optional.empty(), Await.result(assets.get(room, "../../etc/passwd")));
  }
}
