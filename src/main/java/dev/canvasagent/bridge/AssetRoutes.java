package dev.canvasagent.bridge;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.AssetStore;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/rooms/{roomId}/assets}: the images and videos of a room's board. An editor uploads the
 * bytes themselves (the type sniffed from them, {@link AssetTypes}); a viewer reads one back by its
 * id, the SHA-256 of its bytes, so its answer never changes and is cached as immutable. Browsers load
 * images without headers, so the read also takes the token as {@code ?access_token=} ({@link
 * EdgeAccess}). The bytes go straight to the store, never over the event bus: they may be megabytes,
 * and nothing but the store needs them.
 */
final class AssetRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(AssetRoutes.class);

  /** A year: the longest a cache honours; the content under an id never changes. */
  static final long MAX_AGE_SECONDS = 365L * 24 * 60 * 60;

  static final String UPLOAD_PATH = "/api/rooms/:roomId/assets";
  static final String ASSET_ID_PATH = "/api/rooms/:roomId/assets/:assetId";

  private final AssetStore assets;
  private final int maxBytes;

  AssetRoutes(AssetStore assets, int maxBytes) {
    this.assets = assets;
    this.maxBytes = maxBytes;
  }

  void mount(Router router) {
    // Who may upload is known from the token alone: refused before a byte of the body is read (a
    // route of its own, since Vert.x wants a body handler first on its route).
    router.post(UPLOAD_PATH).handler(AssetRoutes::mayUpload);
    router
        .post(UPLOAD_PATH)
        .handler(BodyHandler.create(false).setBodyLimit(maxBytes))
        .handler(this::upload)
        .failureHandler(BodyTooLarge.answer("an asset", maxBytes, "CANVAS_AGENT_ASSET_MAX_BYTES"));
    router.get(ASSET_ID_PATH).handler(this::read);
  }

  private static void mayUpload(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId != null && EdgeAccess.room(ctx, Role.EDITOR, roomId)) {
      ctx.next();
    }
  }

  /** The bytes kept as the room's asset, answered with its id and the {@code src} a record names. */
  private void upload(RoutingContext ctx) {
    String roomId = ctx.pathParam("roomId");
    Buffer bytes = ctx.body().buffer();
    if (bytes == null || bytes.length() == 0) {
      HttpErrors.send(ctx, FailureCode.INVALID_REQUEST, "the body is empty: send the file's bytes");
      return;
    }
    var type = AssetTypes.sniff(bytes);
    if (type.isEmpty()) {
      HttpErrors.send(
          ctx,
          FailureCode.UNSUPPORTED_MEDIA_TYPE,
          "the bytes are not an image or video this server keeps (" + AssetTypes.KNOWN + ")");
      return;
    }
    assets
        .put(roomId, type.get(), bytes)
        .onSuccess(
            stored -> {
              LOG.atInfo()
                  .addKeyValue("roomId", roomId)
                  .addKeyValue("assetId", stored.assetId())
                  .addKeyValue("contentType", stored.contentType())
                  .addKeyValue("bytes", stored.size())
                  .log("asset.stored");
              JsonResponse.send(
                  ctx,
                  201,
                  new JsonObject()
                      .put("ok", true)
                      .put("roomId", roomId)
                      .put("assetId", stored.assetId())
                      .put("src", "asset:" + stored.assetId())
                      .put("url", "/api/rooms/" + roomId + "/assets/" + stored.assetId())
                      .put("contentType", stored.contentType())
                      .put("size", stored.size()));
            })
        .onFailure(error -> HttpErrors.send(ctx, Failure.storeUnavailable("asset.put", error)));
  }

  private void read(RoutingContext ctx) {
    String roomId = RequestParameters.roomId(ctx);
    if (roomId == null || !EdgeAccess.room(ctx, Role.VIEWER, roomId)) {
      return;
    }
    String assetId = ctx.pathParam("assetId");
    if (!AssetStore.ID.matcher(assetId).matches()) {
      HttpErrors.send(
          ctx, FailureCode.NOT_FOUND, "no asset " + shown(assetId) + " in room " + roomId);
      return;
    }
    String etag = "\"" + assetId + "\"";
    if (etag.equals(ctx.request().getHeader("if-none-match"))) {
      cacheHeaders(ctx).setStatusCode(304).end();
      return;
    }
    assets
        .get(roomId, assetId)
        .onSuccess(
            found -> {
              if (found.isEmpty()) {
                HttpErrors.send(
                    ctx, FailureCode.NOT_FOUND, "no asset " + assetId + " in room " + roomId);
                return;
              }
              cacheHeaders(ctx)
                  .putHeader("content-type", found.get().asset().contentType())
                  .end(found.get().bytes());
            })
        .onFailure(error -> HttpErrors.send(ctx, Failure.storeUnavailable("asset.get", error)));
  }

  /**
   * Private: the answer depends on the token, so a shared cache must not keep it; immutable: the
   * bytes under an id never change. The rest keeps a file opened by itself from doing anything but
   * show: no sniffing, no script, no referrer carrying the token elsewhere.
   */
  private static io.vertx.core.http.HttpServerResponse cacheHeaders(RoutingContext ctx) {
    return ctx.response()
        .putHeader("cache-control", "private, max-age=" + MAX_AGE_SECONDS + ", immutable")
        .putHeader("etag", "\"" + ctx.pathParam("assetId") + "\"")
        .putHeader("x-content-type-options", "nosniff")
        .putHeader("content-security-policy", "default-src 'none'; sandbox")
        .putHeader("referrer-policy", "no-referrer");
  }

  private static String shown(String assetId) {
    return assetId.length() <= 70 ? assetId : assetId.substring(0, 70) + "…";
  }
}
