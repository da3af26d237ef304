package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.StyleNormalizer;
import dev.canvasagent.catalog.batch.BatchConnector;
import dev.canvasagent.catalog.batch.BatchLayout;
import dev.canvasagent.catalog.batch.BatchShape;
import dev.canvasagent.catalog.batch.OperationKind;
import dev.canvasagent.catalog.batch.ResolvedBatch;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tldraw records of a laid-out batch, its group's top-left at {@code origin} on the page:
 * frames, notes, geo shapes and texts in operation order (a child in its frame's local space, after
 * its frame), then the connectors and the template's links as arrows bound at both ends, above
 * everything. Colors go through {@link StyleNormalizer}, so every alias works on every color field.
 */
final class BatchRecords {
  /**
   * The notes' colors in the four SWOT quadrants, the batch's first four top-level frames
   * (Strengths, Weaknesses, Opportunities, Threats, in that order), when the model gives none.
   */
  static final List<String> SWOT_COLORS = List.of("green", "red", "blue", "orange");

  static final String NOTE_COLOR = "yellow";

  private final Board board;
  private final boolean brandPalette;
  private final List<JsonObject> records = new ArrayList<>();

  /** Shape record id by operation index, in operation order. */
  private final Map<Integer, String> ids = new LinkedHashMap<>();

  private final Map<Integer, Vec> pageTopLeft = new HashMap<>();
  private final Map<Integer, Box> pageBoxes = new HashMap<>();
  private final Map<String, String> lastChildIndex = new HashMap<>();
  private String lastPageIndex;

  private BatchRecords(Board board, boolean brandPalette) {
    this.board = board;
    this.brandPalette = brandPalette;
    this.lastPageIndex = board.topIndexOnPage(ShapeRecords.PAGE_ID).orElse(null);
  }

  /** What the batch puts on the board, and the record id each object's ref got (by operation index). */
  record Built(List<JsonObject> records, Map<Integer, String> ids) {}

  static Built build(
      ResolvedBatch batch,
      BatchLayout.Result layout,
      Vec origin,
      String title,
      boolean swotColors,
      Board board,
      boolean brandPalette) {
    BatchRecords builder = new BatchRecords(board, brandPalette);
    layout.title().ifPresent(box -> builder.title(title.strip(), box, origin));
    List<BatchShape> quadrants =
        batch.topLevel().stream().filter(shape -> shape.kind() == OperationKind.FRAME).toList();
    for (BatchShape shape : batch.shapes()) {
      String fallbackColor = null;
      if (swotColors
          && shape.parent() != null
          && quadrants.indexOf(shape.parent()) >= 0
          && quadrants.indexOf(shape.parent()) < 4) {
        fallbackColor = SWOT_COLORS.get(quadrants.indexOf(shape.parent()));
      }
      builder.shape(shape, layout.box(shape), origin, fallbackColor);
    }
    for (BatchConnector connector : batch.connectors()) {
      String arrowId = ShapeIds.newAgentId();
      builder.arrow(
          arrowId,
          connector.from().index(),
          connector.to().index(),
          connector.label(),
          connector.color());
      builder.ids.put(connector.index(), arrowId);
    }
    for (BatchLayout.Link link : layout.links()) {
      builder.arrow(ShapeIds.newAgentId(), link.from().index(), link.to().index(), "", null);
    }
    return new Built(builder.records, builder.ids);
  }

  private void title(String text, Box box, Vec origin) {
    JsonObject props = ShapeRecords.textProps(text, box.width());
    props.put("size", "l");
    records.add(
        ShapeRecords.shape(
            ShapeIds.newAgentId(),
            "text",
            origin.x() + box.minX(),
            origin.y() + box.minY(),
            nextPageIndex(),
            props));
  }

  private void shape(BatchShape shape, Box box, Vec origin, String fallbackColor) {
    String id = ShapeIds.newAgentId();
    Vec topLeft;
    String parentId;
    String index;
    if (shape.isTopLevel()) {
      topLeft = origin.plus(box.topLeft());
      pageTopLeft.put(shape.index(), topLeft);
      parentId = ShapeRecords.PAGE_ID;
      index = nextPageIndex();
    } else {
      topLeft = box.topLeft();
      pageTopLeft.put(shape.index(), pageTopLeft.get(shape.parent().index()).plus(topLeft));
      parentId = ids.get(shape.parent().index());
      index = FractionalIndex.after(lastChildIndex.get(parentId));
      lastChildIndex.put(parentId, index);
    }
    Vec page = pageTopLeft.get(shape.index());
    pageBoxes.put(shape.index(), Box.of(page.x(), page.y(), box.width(), box.height()));
    JsonObject props =
        switch (shape.kind()) {
          case FRAME -> ShapeRecords.frameProps(box.width(), box.height(), shape.text());
          case NOTE ->
              ShapeRecords.noteProps(shape.text())
                  .put("color", fallbackColor == null ? NOTE_COLOR : fallbackColor);
          case TEXT -> ShapeRecords.textProps(shape.text(), box.width());
          default ->
              ShapeRecords.geoProps(geo(shape.geo()), box.width(), box.height(), shape.text())
                  .put("fill", "solid");
        };
    color(shape.color(), props);
    ids.put(shape.index(), id);
    records.add(
        ShapeRecords.shape(id, kindType(shape.kind()), topLeft.x(), topLeft.y(), index, props)
            .put("parentId", parentId));
  }

  /** An arrow from the center of one object to the center of the other, bound to both, on the page above everything. */
  private void arrow(String id, int fromIndex, int toIndex, String label, String color) {
    Vec start = pageBoxes.get(fromIndex).center();
    Vec end = pageBoxes.get(toIndex).center();
    JsonObject props =
        ShapeRecords.arrowProps(
            end.x() - start.x(), end.y() - start.y(), label == null ? "" : label);
    color(color, props);
    records.add(ShapeRecords.shape(id, "arrow", start.x(), start.y(), nextPageIndex(), props));
    records.add(ArrowBindings.binding(id, "start", ids.get(fromIndex)));
    records.add(ArrowBindings.binding(id, "end", ids.get(toIndex)));
  }

  private void color(String requested, JsonObject props) {
    if (requested != null) {
      StyleNormalizer.normalize("color", requested, brandPalette)
          .ifPresent(color -> props.put("color", color));
    }
  }

  private static String geo(String requested) {
    return requested == null
        ? "rectangle"
        : StyleNormalizer.normalize("geo", requested, false).orElse("rectangle");
  }

  private static String kindType(OperationKind kind) {
    return switch (kind) {
      case FRAME -> "frame";
      case NOTE -> "note";
      case TEXT -> "text";
      default -> "geo";
    };
  }

  private String nextPageIndex() {
    lastPageIndex = FractionalIndex.after(lastPageIndex);
    return lastPageIndex;
  }
}
