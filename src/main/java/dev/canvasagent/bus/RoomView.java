package dev.canvasagent.bus;

import dev.canvasagent.board.CoordinateFrame;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The runner's answer to {@code runner.view}: the room as a run's model sees it, made by the same
 * prompt parts. Coordinates are the model's: offset from {@code frame}'s origin and rounded, the
 * rounding kept in {@code frame} so a caller can map a value back ({@link CoordinateFrame#toPage}).
 * {@code shapes}, {@code selectedShapes} and {@code peripheral} carry JSON objects on purpose: they
 * are the model's format as the prompt parts write it, relayed to MCP clients unchanged.
 *
 * @param revision the board revision the view was made from (0 for a room nothing was drawn in)
 * @param viewport the part of the board viewed, in the model's coordinates
 * @param viewportSource where the viewport came from: {@code request}, {@code host} (the room's
 *     viewports, the host's first) or {@code board} (none: the whole board's bounds)
 * @param selection the model ids of the selected shapes on the board (the room's, host's first)
 * @param selectedShapes the selected shapes in full, as the prompt's {@code selectedShapes}
 * @param shapes the shapes fully inside the viewport, back to front, as the prompt's {@code shapes}
 * @param peripheral the shapes outside the viewport as clusters {@code {bounds, count}}
 * @param cut the parts whose budget left something out ({@code blurryShapes}, {@code peripheral}, …)
 * @param image the host's screenshot, when asked and taken; null otherwise
 * @param imageUnavailable why a screenshot asked for is not there; null otherwise
 */
public record RoomView(
    String roomId,
    long revision,
    CoordinateFrame frame,
    Bounds viewport,
    String viewportSource,
    List<String> selection,
    List<JsonObject> selectedShapes,
    List<JsonObject> shapes,
    List<JsonObject> peripheral,
    Counts counts,
    List<String> cut,
    Image image,
    ImageUnavailable imageUnavailable)
    implements BusMessage {
  private static final String MESSAGE = "RoomView";

  public RoomView {
    selection = List.copyOf(selection);
    selectedShapes = List.copyOf(selectedShapes);
    shapes = List.copyOf(shapes);
    peripheral = List.copyOf(peripheral);
    cut = List.copyOf(cut);
  }

  /** A rectangle in the model's coordinates. */
  public record Bounds(long x, long y, long w, long h) {
    public JsonObject toJson() {
      return new JsonObject().put("x", x).put("y", y).put("w", w).put("h", h);
    }

    public static Bounds fromJson(JsonObject json) {
      return new Bounds(
          MessageFields.number(json, "x", "RoomView.Bounds"),
          MessageFields.number(json, "y", "RoomView.Bounds"),
          MessageFields.number(json, "w", "RoomView.Bounds"),
          MessageFields.number(json, "h", "RoomView.Bounds"));
    }
  }

  /**
   * How many shapes there are, seen and not.
   *
   * @param shapes the shapes on the board (painted)
   * @param inView those fully inside the viewport
   * @param listed those in {@code shapes} (fewer than {@code inView} when the part's cap or budget cut)
   * @param outOfView those in the clusters
   * @param clusters the clusters listed
   * @param selected the selected shapes on the board
   */
  public record Counts(
      int shapes, int inView, int listed, int outOfView, int clusters, int selected) {
    public JsonObject toJson() {
      return new JsonObject()
          .put("shapes", shapes)
          .put("inView", inView)
          .put("listed", listed)
          .put("outOfView", outOfView)
          .put("clusters", clusters)
          .put("selected", selected);
    }

    public static Counts fromJson(JsonObject json) {
      String message = "RoomView.Counts";
      return new Counts(
          MessageFields.integer(json, "shapes", message),
          MessageFields.integer(json, "inView", message),
          MessageFields.integer(json, "listed", message),
          MessageFields.integer(json, "outOfView", message),
          MessageFields.integer(json, "clusters", message),
          MessageFields.integer(json, "selected", message));
    }
  }

  /** The host's screenshot as the model gets it: its mime type and its bytes in base64. */
  public record Image(String mime, String base64) {
    public JsonObject toJson() {
      return new JsonObject().put("mime", mime).put("base64", base64);
    }

    public static Image fromJson(JsonObject json) {
      return new Image(
          MessageFields.string(json, "mime", "RoomView.Image"),
          MessageFields.string(json, "base64", "RoomView.Image"));
    }
  }

  /**
   * Why there is no screenshot: the capture's failure code ({@code NO_HOST}, {@code
   * SCREENSHOT_TIMEOUT}, …) or {@code OVER_BUDGET} / {@code UNREADABLE} for an image the screenshot
   * part would not give a model, and a reason for people.
   */
  public record ImageUnavailable(String code, String reason) {
    public JsonObject toJson() {
      return new JsonObject().put("code", code).put("reason", reason);
    }

    public static ImageUnavailable fromJson(JsonObject json) {
      return new ImageUnavailable(
          MessageFields.string(json, "code", "RoomView.ImageUnavailable"),
          MessageFields.string(json, "reason", "RoomView.ImageUnavailable"));
    }
  }

  @Override
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("roomId", roomId)
            .put("revision", revision)
            .put("frame", frame.toJson())
            .put("viewport", viewport.toJson())
            .put("viewportSource", viewportSource)
            .put("selection", new JsonArray(selection))
            .put("selectedShapes", MessageFields.array(selectedShapes))
            .put("shapes", MessageFields.array(shapes))
            .put("peripheral", MessageFields.array(peripheral))
            .put("counts", counts.toJson())
            .put("cut", new JsonArray(cut));
    if (image != null) {
      json.put("image", image.toJson());
    }
    if (imageUnavailable != null) {
      json.put("imageUnavailable", imageUnavailable.toJson());
    }
    return json;
  }

  public static RoomView fromJson(JsonObject json) {
    JsonObject image = json.getJsonObject("image");
    JsonObject unavailable = json.getJsonObject("imageUnavailable");
    return new RoomView(
        MessageFields.string(json, "roomId", MESSAGE),
        MessageFields.number(json, "revision", MESSAGE),
        CoordinateFrame.fromJson(MessageFields.object(json, "frame", MESSAGE)),
        Bounds.fromJson(MessageFields.object(json, "viewport", MESSAGE)),
        MessageFields.string(json, "viewportSource", MESSAGE),
        strings(MessageFields.jsonArray(json, "selection", MESSAGE)),
        MessageFields.objects(json, "selectedShapes", MESSAGE),
        MessageFields.objects(json, "shapes", MESSAGE),
        MessageFields.objects(json, "peripheral", MESSAGE),
        Counts.fromJson(MessageFields.object(json, "counts", MESSAGE)),
        strings(MessageFields.jsonArray(json, "cut", MESSAGE)),
        image == null ? null : Image.fromJson(image),
        unavailable == null ? null : ImageUnavailable.fromJson(unavailable));
  }

  private static List<String> strings(JsonArray array) {
    return array.stream().map(String.class::cast).toList();
  }
}
