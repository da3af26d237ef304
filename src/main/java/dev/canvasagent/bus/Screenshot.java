package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The answer to a {@link ScreenshotRequest}: the host's image of the board with what the host says it
 * shows (the page {@code bounds} it covers, the host's {@code viewport} and {@code selection}, the
 * {@code docVersion} it was taken at, if the host said), the request and client it came from, and
 * whether it was {@code cached} (taken for an earlier request of the same revision and bounds).
 */
public record Screenshot(
    String requestId,
    String clientId,
    Image image,
    Viewport bounds,
    Viewport viewport,
    List<String> selection,
    String docVersion,
    boolean cached)
    implements BusMessage {

  public Screenshot {
    selection = List.copyOf(selection);
  }

  /** The image: its mime type, its data URL, and its decoded size in bytes. */
  public record Image(String mime, String dataUrl, int bytes) {
    public JsonObject toJson() {
      return new JsonObject().put("mime", mime).put("dataUrl", dataUrl).put("bytes", bytes);
    }

    public static Image fromJson(JsonObject json) {
      return new Image(
          MessageFields.string(json, "mime", "Screenshot.Image"),
          MessageFields.string(json, "dataUrl", "Screenshot.Image"),
          (int) MessageFields.number(json, "bytes", "Screenshot.Image"));
    }
  }

  /** This screenshot, {@code cached} or not. */
  public Screenshot withCached(boolean cached) {
    return new Screenshot(
        requestId, clientId, image, bounds, viewport, selection, docVersion, cached);
  }

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("requestId", requestId)
            .put("clientId", clientId)
            .put("image", image.toJson())
            .put("bounds", bounds.toJson())
            .put("viewport", viewport.toJson())
            .put("selection", new JsonArray(selection));
    if (docVersion != null) {
      json.put("docVersion", docVersion);
    }
    return json.put("cached", cached);
  }

  public static Screenshot fromJson(JsonObject json) {
    return new Screenshot(
        MessageFields.string(json, "requestId", "Screenshot"),
        MessageFields.string(json, "clientId", "Screenshot"),
        Image.fromJson(MessageFields.object(json, "image", "Screenshot")),
        Viewport.fromJson(MessageFields.object(json, "bounds", "Screenshot")),
        Viewport.fromJson(MessageFields.object(json, "viewport", "Screenshot")),
        MessageFields.jsonArray(json, "selection", "Screenshot").stream()
            .map(String.class::cast)
            .toList(),
        json.getString("docVersion"),
        json.getBoolean("cached", false));
  }
}
