package dev.canvasagent.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The images and videos people put on a room's board, by room and content: an asset's id is the
 * SHA-256 of its bytes, so the same file put twice is one asset, its bytes never change under its
 * id (its URL may be cached for ever), and an asset of one room is not an asset of another. Three
 * implementations pass the same contract tests: PostgreSQL ({@code canvas_assets}), a directory (the
 * embedded default's, {@code files/DirectoryAssetStore}) and the memory (tests).
 */
public interface AssetStore {
  /** What an asset id looks like: 64 lowercase hex digits. */
  Pattern ID = Pattern.compile("[0-9a-f]{64}");

  /**
   * Keeps {@code bytes} as an asset of {@code roomId} of {@code contentType}; answers its record. The
   * same bytes put again answer the asset already kept (with the content type it was first kept
   * with), and store nothing more.
   */
  Future<StoredAsset> put(String roomId, String contentType, Buffer bytes);

  /** The asset and its bytes, or empty when {@code roomId} has no asset {@code assetId}. */
  Future<Optional<AssetContent>> get(String roomId, String assetId);

  /** Which of {@code assetIds} the room has: a board record may point only at those. */
  Future<Set<String>> existing(String roomId, Collection<String> assetIds);

  /** The id of {@code bytes}: its SHA-256, in lowercase hex. */
  static String idOf(Buffer bytes) {
    try {
      return HexFormat.of()
          .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes.getBytes()));
    } catch (java.security.NoSuchAlgorithmException impossible) {
      // Every Java platform must have SHA-256.
      throw new IllegalStateException(impossible);
    }
  }

  /** One room's asset: its id, what it is ({@code image/png}, …) and how many bytes it has. */
  record StoredAsset(String roomId, String assetId, String contentType, long size) {}

  /** An asset with its bytes. */
  record AssetContent(StoredAsset asset, Buffer bytes) {}
}
