package dev.canvasagent.store.files;

import dev.canvasagent.store.AssetStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.CopyOptions;
import io.vertx.core.file.FileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Assets in a directory, the embedded server's default: one folder per room, named by the hex of the
 * room id (room ids are case-sensitive; some file systems are not), holding each asset's bytes under
 * its id and its content type beside it ({@code <id>.type}). Every file is written under a temporary
 * name and moved into place, the type before the bytes, so an asset whose bytes are there is whole:
 * a reader or a crash never sees half of one. All through Vert.x's asynchronous file system, off the
 * event loop.
 */
public final class DirectoryAssetStore implements AssetStore {
  private static final String TYPE_SUFFIX = ".type";
  private final FileSystem files;
  private final Path directory;

  public DirectoryAssetStore(Vertx vertx, Path directory) {
    this.files = vertx.fileSystem();
    this.directory = directory;
  }

  @Override
  public Future<StoredAsset> put(String roomId, String contentType, Buffer bytes) {
    String assetId = AssetStore.idOf(bytes);
    Path room = roomDirectory(roomId);
    String bytesPath = room.resolve(assetId).toString();
    return files
        .exists(bytesPath)
        .compose(
            kept ->
                kept
                    ? get(roomId, assetId).map(found -> found.orElseThrow().asset())
                    : files
                        .mkdirs(room.toString())
                        .compose(
                            made ->
                                writeThenMove(
                                    room,
                                    assetId + TYPE_SUFFIX,
                                    Buffer.buffer(contentType, StandardCharsets.UTF_8.name())))
                        .compose(typed -> writeThenMove(room, assetId, bytes))
                        .map(
                            written ->
                                new StoredAsset(roomId, assetId, contentType, bytes.length())));
  }

  @Override
  public Future<Optional<AssetContent>> get(String roomId, String assetId) {
    if (!ID.matcher(assetId).matches()) {
      return Future.succeededFuture(Optional.empty());
    }
    Path room = roomDirectory(roomId);
    String bytesPath = room.resolve(assetId).toString();
    return files
        .exists(bytesPath)
        .compose(
            kept ->
                !kept
                    ? Future.succeededFuture(Optional.empty())
                    : files
                        .readFile(room.resolve(assetId + TYPE_SUFFIX).toString())
                        .compose(
                            type ->
                                files
                                    .readFile(bytesPath)
                                    .map(
                                        content ->
                                            Optional.of(
                                                new AssetContent(
                                                    new StoredAsset(
                                                        roomId,
                                                        assetId,
                                                        type.toString(StandardCharsets.UTF_8),
                                                        content.length()),
                                                    content)))));
  }

  @Override
  public Future<Set<String>> existing(String roomId, Collection<String> assetIds) {
    Path room = roomDirectory(roomId);
    List<String> asked = new ArrayList<>(new HashSet<>(assetIds));
    List<Future<Boolean>> checks = new ArrayList<>();
    for (String id : asked) {
      checks.add(
          ID.matcher(id).matches()
              ? files.exists(room.resolve(id).toString())
              : Future.succeededFuture(false));
    }
    return Future.all(checks)
        .map(
            done -> {
              Set<String> found = new HashSet<>();
              for (int i = 0; i < asked.size(); i++) {
                if (checks.get(i).result()) {
                  found.add(asked.get(i));
                }
              }
              return found;
            });
  }

  private Path roomDirectory(String roomId) {
    return directory.resolve(
        "room-" + HexFormat.of().formatHex(roomId.getBytes(StandardCharsets.UTF_8)));
  }

  /** Two puts of the same bytes at once both write whole files; whichever moves last wins, equal. */
  private Future<Void> writeThenMove(Path room, String name, Buffer content) {
    String temporary = room.resolve(name + "." + UUID.randomUUID() + ".part").toString();
    return files
        .writeFile(temporary, content)
        .compose(
            written ->
                files.move(
                    temporary,
                    room.resolve(name).toString(),
                    new CopyOptions().setReplaceExisting(true).setAtomicMove(true)));
  }
}
