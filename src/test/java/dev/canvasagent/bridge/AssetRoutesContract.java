package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.AssetStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A room's assets over HTTP, with auth on: an editor uploads the bytes, a viewer reads them back with
 * their type and cache headers (with a header or, as an {@code <img>} does, {@code ?access_token=}),
 * and the board keeps an asset record, and an image shape on it, once the file is there. Every bad
 * input is refused with its code, and nothing is stored.
 */
@ExtendWith(VertxExtension.class)
abstract class AssetRoutesContract {
  static final byte[] PNG =
      new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H'};

  @TempDir Path assetDirectory;
  TestServer server;
  TestTokens tokens;
  String roomId;
  String otherRoom;

  protected abstract Optional<DatabaseConfig> database();

  @BeforeEach
  void start(Vertx vertx) {
    Map<String, String> env = new HashMap<>(TestTokens.ENVIRONMENT);
    env.put("CANVAS_AGENT_ASSET_MAX_BYTES", "4096");
    env.put("CANVAS_AGENT_ASSET_DIR", assetDirectory.toString());
    server = TestServer.start(vertx, TestServer.config(env).withDatabase(database()));
    tokens = new TestTokens(vertx);
    roomId = "assets-" + UUID.randomUUID().toString().substring(0, 8);
    otherRoom = "other-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  HttpResponse<Buffer> upload(String room, String token, Buffer bytes) {
    return Await.result(
        server
            .http()
            .post("/api/rooms/" + room + "/assets")
            .putHeader("authorization", TestTokens.bearer(token))
            .putHeader("content-type", "application/octet-stream")
            .sendBuffer(bytes));
  }

  HttpResponse<Buffer> read(String room, String assetId, String token) {
    return Await.result(
        server
            .http()
            .get("/api/rooms/" + room + "/assets/" + assetId)
            .putHeader("authorization", TestTokens.bearer(token))
            .send());
  }

  HttpResponse<Buffer> change(String room, long base, JsonObject... records) {
    return Await.result(
        server
            .http()
            .post("/api/rooms/" + room + "/changes")
            .putHeader("authorization", TestTokens.bearer(tokens.editor(room)))
            .sendJsonObject(
                new JsonObject()
                    .put("baseRevision", base)
                    .put("put", new JsonArray(List.of(records)))));
  }

  static String code(HttpResponse<Buffer> response) {
    return response.bodyAsJsonObject().getJsonObject("error").getString("code");
  }

  static JsonObject imageAsset(String id, String src) {
    return new JsonObject()
        .put("id", id)
        .put("typeName", "asset")
        .put("type", "image")
        .put(
            "props",
            new JsonObject()
                .put("w", 2)
                .put("h", 1)
                .put("name", "pic.png")
                .put("isAnimated", false)
                .put("mimeType", "image/png")
                .put("src", src)
                .put("fileSize", PNG.length))
        .put("meta", new JsonObject());
  }

  static JsonObject image(String id, String assetId) {
    return ShapeRecords.shape(
        id,
        "image",
        10,
        10,
        "a1",
        new JsonObject()
            .put("w", 200)
            .put("h", 100)
            .put("playing", true)
            .put("url", "")
            .put("assetId", assetId)
            .put("crop", null)
            .put("flipX", false)
            .put("flipY", false)
            .put("altText", "a chart"));
  }

  @Test
  void anEditorUploadsAndAViewerReadsItBackCachedForEver() {
    HttpResponse<Buffer> uploaded = upload(roomId, tokens.editor(roomId), Buffer.buffer(PNG));
    assertEquals(201, uploaded.statusCode(), uploaded.bodyAsString());
    JsonObject body = uploaded.bodyAsJsonObject();
    String assetId = AssetStore.idOf(Buffer.buffer(PNG));
    assertEquals(assetId, body.getString("assetId"));
    assertEquals("asset:" + assetId, body.getString("src"));
    assertEquals("image/png", body.getString("contentType"));
    assertEquals("/api/rooms/" + roomId + "/assets/" + assetId, body.getString("url"));

    HttpResponse<Buffer> read = read(roomId, assetId, tokens.viewer(roomId));
    assertEquals(200, read.statusCode());
    assertArrayEquals(PNG, read.body().getBytes());
    assertEquals("image/png", read.getHeader("content-type"));
    assertEquals("private, max-age=31536000, immutable", read.getHeader("cache-control"));
    assertEquals("\"" + assetId + "\"", read.getHeader("etag"));
    assertEquals("nosniff", read.getHeader("x-content-type-options"));

    HttpResponse<Buffer> byQuery =
        Await.result(
            server
                .http()
                .get(body.getString("url") + "?access_token=" + tokens.viewer(roomId))
                .send());
    assertEquals(200, byQuery.statusCode(), "an <img> sends its token in the query");
    assertArrayEquals(PNG, byQuery.body().getBytes());

    HttpResponse<Buffer> revalidated =
        Await.result(
            server
                .http()
                .get(body.getString("url"))
                .putHeader("authorization", TestTokens.bearer(tokens.viewer(roomId)))
                .putHeader("if-none-match", "\"" + assetId + "\"")
                .send());
    assertEquals(304, revalidated.statusCode());
  }

  @Test
  void eachKnownTypeIsSniffedFromItsBytes() {
    Map<String, byte[]> files =
        Map.of(
            "image/jpeg", new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff, (byte) 0xe0, 1},
            "image/gif", "GIF89a....".getBytes(),
            "image/webp", "RIFF\0\0\0\0WEBPVP8 ".getBytes(),
            "video/mp4", "\0\0\0\u0018ftypisom\0\0\0\0".getBytes(),
            "video/webm",
                new byte[] {
                  0x1a,
                  0x45,
                  (byte) 0xdf,
                  (byte) 0xa3,
                  (byte) 0x9f,
                  'B',
                  (byte) 0x82,
                  (byte) 0x84,
                  'w',
                  'e',
                  'b',
                  'm'
                });
    files.forEach(
        (type, bytes) -> {
          HttpResponse<Buffer> uploaded =
              upload(roomId, tokens.editor(roomId), Buffer.buffer(bytes));
          assertEquals(201, uploaded.statusCode(), type + ": " + uploaded.bodyAsString());
          assertEquals(type, uploaded.bodyAsJsonObject().getString("contentType"));
          assertEquals(
              type,
              read(roomId, uploaded.bodyAsJsonObject().getString("assetId"), tokens.admin())
                  .getHeader("content-type"));
        });
  }

  @Test
  void badUploadsAreRefusedWithNothingStored() {
    Buffer svg = Buffer.buffer("<svg xmlns=\"http://www.w3.org/2000/svg\"><script/></svg>");
    HttpResponse<Buffer> wrongType = upload(roomId, tokens.editor(roomId), svg);
    assertEquals(415, wrongType.statusCode());
    assertEquals("UNSUPPORTED_MEDIA_TYPE", code(wrongType));
    assertStoredNothing(roomId, svg);

    Buffer large = Buffer.buffer(PNG).appendBuffer(Buffer.buffer(new byte[5000]));
    HttpResponse<Buffer> tooLarge = upload(roomId, tokens.editor(roomId), large);
    assertEquals(413, tooLarge.statusCode());
    assertEquals("BODY_TOO_LARGE", code(tooLarge));
    assertTrue(tooLarge.bodyAsString().contains("CANVAS_AGENT_ASSET_MAX_BYTES"));
    assertStoredNothing(roomId, large);

    HttpResponse<Buffer> empty = upload(roomId, tokens.editor(roomId), Buffer.buffer());
    assertEquals(400, empty.statusCode());
    assertEquals("INVALID_REQUEST", code(empty));

    HttpResponse<Buffer> viewer = upload(roomId, tokens.viewer(roomId), Buffer.buffer(PNG));
    assertEquals(403, viewer.statusCode());
    assertEquals("FORBIDDEN", code(viewer));
    HttpResponse<Buffer> anotherRoom = upload(otherRoom, tokens.editor(roomId), Buffer.buffer(PNG));
    assertEquals(403, anotherRoom.statusCode());
    assertStoredNothing(roomId, Buffer.buffer(PNG));
    assertStoredNothing(otherRoom, Buffer.buffer(PNG));
  }

  @Test
  void anAssetIsReadOnlyInItsRoomByItsViewers() {
    String assetId =
        upload(roomId, tokens.editor(roomId), Buffer.buffer(PNG))
            .bodyAsJsonObject()
            .getString("assetId");
    HttpResponse<Buffer> elsewhere = read(otherRoom, assetId, tokens.admin());
    assertEquals(404, elsewhere.statusCode());
    assertEquals("NOT_FOUND", code(elsewhere));
    HttpResponse<Buffer> outsider = read(roomId, assetId, tokens.viewer(otherRoom));
    assertEquals(403, outsider.statusCode());
    HttpResponse<Buffer> noToken =
        Await.result(server.http().get("/api/rooms/" + roomId + "/assets/" + assetId).send());
    assertEquals(401, noToken.statusCode());
    HttpResponse<Buffer> malformed = read(roomId, "not-an-id", tokens.admin());
    assertEquals(404, malformed.statusCode());
  }

  @Test
  void theBoardKeepsAnAssetRecordAndItsImageOnceTheFileIsUploaded() {
    String assetId =
        upload(roomId, tokens.editor(roomId), Buffer.buffer(PNG))
            .bodyAsJsonObject()
            .getString("assetId");
    // As tldraw does it: the record first without a file (uploading), its image, then its src.
    HttpResponse<Buffer> pending =
        change(roomId, 0, imageAsset("asset:pic", null), image("shape:img", "asset:pic"));
    assertEquals(200, pending.statusCode(), pending.bodyAsString());
    HttpResponse<Buffer> uploaded = change(roomId, 1, imageAsset("asset:pic", "asset:" + assetId));
    assertEquals(200, uploaded.statusCode(), uploaded.bodyAsString());
    JsonArray records = board(roomId).getJsonArray("records");
    assertEquals(2, records.size(), records.encode());
    assertEquals(imageAsset("asset:pic", "asset:" + assetId), records.getJsonObject(0));
    assertEquals("asset:pic", records.getJsonObject(1).getJsonObject("props").getString("assetId"));
  }

  @Test
  void recordsPointingAtAMissingAssetAreRefusedWithNothingCommitted() {
    String notUploaded = AssetStore.idOf(Buffer.buffer("never uploaded"));
    HttpResponse<Buffer> missingFile =
        change(roomId, 0, imageAsset("asset:gone", "asset:" + notUploaded));
    assertEquals(422, missingFile.statusCode(), missingFile.bodyAsString());
    assertEquals("INVALID_RECORD", code(missingFile));
    assertTrue(missingFile.bodyAsString().contains("has no asset " + notUploaded));

    String inOtherRoom =
        upload(otherRoom, tokens.editor(otherRoom), Buffer.buffer(PNG))
            .bodyAsJsonObject()
            .getString("assetId");
    HttpResponse<Buffer> otherRooms =
        change(roomId, 0, imageAsset("asset:x", "asset:" + inOtherRoom));
    assertEquals(422, otherRooms.statusCode(), "another room's file is not this room's");

    HttpResponse<Buffer> missingRecord = change(roomId, 0, image("shape:img", "asset:nothere"));
    assertEquals(422, missingRecord.statusCode());
    assertTrue(missingRecord.bodyAsString().contains("is not an asset on the board"));

    HttpResponse<Buffer> outsideUrl =
        change(roomId, 0, imageAsset("asset:web", "https://tracker.example/pixel.png"));
    assertEquals(422, outsideUrl.statusCode());
    assertEquals(0, board(roomId).getLong("revision"));
    assertEquals(0, board(roomId).getJsonArray("records").size());
  }

  JsonObject board(String room) {
    return Await.result(
            server
                .http()
                .get("/api/rooms/" + room + "/board")
                .putHeader("authorization", TestTokens.bearer(tokens.admin()))
                .send())
        .bodyAsJsonObject();
  }

  void assertStoredNothing(String room, Buffer bytes) {
    assertEquals(404, read(room, AssetStore.idOf(bytes), tokens.admin()).statusCode());
  }
}
