package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The room as a run's model sees it, without a prompt around it ({@link ContextBuilder#view}): the
 * sections of the parts that show the room, exactly as the prompt's structured context holds them,
 * and the frame their coordinates are in.
 *
 * @param sections each part's JSON under its {@link dev.canvasagent.model.ModelContext} key; a part
 *     with nothing to show has no key
 * @param viewport the viewport in the model's coordinates {@code {x, y, w, h}}: the viewport part's,
 *     or without a viewport the whole board's bounds (0, 0, 0, 0 on an empty board)
 * @param image the screenshot part's image, or null
 * @param shapes the shapes on the board
 * @param inView those fully inside the viewport (all of them without one)
 * @param listed those the shapes section lists
 * @param outOfView those the clusters count
 * @param clusters the clusters listed
 * @param cut the parts whose own budget left something out, in priority order
 * @param wholeBoard whether the inputs had no viewport, so the view is the whole board
 */
public record ModelView(
    JsonObject sections,
    JsonObject viewport,
    ModelRequest.Image image,
    int shapes,
    int inView,
    int listed,
    int outOfView,
    int clusters,
    List<String> cut,
    boolean wholeBoard,
    CoordinateFrame frame) {

  public ModelView {
    cut = List.copyOf(cut);
  }

  /** The section under {@code key} as a list of objects, empty when the part showed nothing. */
  public List<JsonObject> objects(String key) {
    return section(key).stream().map(JsonObject.class::cast).toList();
  }

  /** The section under {@code key} as a list of strings, empty when the part showed nothing. */
  public List<String> strings(String key) {
    return section(key).stream().map(String.class::cast).toList();
  }

  private JsonArray section(String key) {
    return sections.getValue(key) instanceof JsonArray array ? array : new JsonArray();
  }
}
