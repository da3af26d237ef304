package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.StyleNormalizer;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.catalog.batch.BatchIssue;
import dev.canvasagent.catalog.batch.BatchLayout;
import dev.canvasagent.catalog.batch.BatchShape;
import dev.canvasagent.catalog.batch.FreeSpot;
import dev.canvasagent.catalog.batch.LayoutDirective;
import dev.canvasagent.catalog.batch.RefResolver;
import dev.canvasagent.catalog.batch.ResolvedBatch;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code batch_operations}: a whole structure in one action. Operations name each other by ref
 * (frames before their children, objects before the connectors between them), a layout directive
 * arranges the result, and the group lands in free space near the requester's viewport. Everything
 * becomes one record diff, so one board revision. Operations the resolver skips, and objects placed
 * top-level for want of their frame, are listed in the action's {@code result}, which the runner
 * reports back.
 */
public final class BatchOperationsVerb implements ActionVerb {
  /**
   * The most operations one batch may hold (50): more is refused by the schema's {@code maxItems},
   * which a test checks against this.
   */
  public static final int MAX_OPERATIONS = 50;

  /** Room kept between the group and the shapes already on the page. */
  static final double CLEARANCE = 40;

  @Override
  public String name() {
    return "batch_operations";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    if (!(params.getValue("operations") instanceof JsonArray operations) || operations.isEmpty()) {
      throw new ActionRejected("operations must hold 1 to " + MAX_OPERATIONS + " operations");
    }
    if (operations.size() > MAX_OPERATIONS) {
      throw new ActionRejected(
          "a batch holds at most " + MAX_OPERATIONS + " operations; split it into several");
    }
    Optional<LayoutDirective> directive = directive(params.getValue("layoutDirective"));
    String title = params.getValue("title") instanceof String text && !text.isBlank() ? text : null;
    ResolvedBatch batch = RefResolver.resolve(operations);
    if (batch.shapes().isEmpty() && title == null) {
      throw new ActionRejected(
          "nothing to create: "
              + batch.skipped().stream()
                  .map(issue -> "#" + issue.index() + " " + issue.reason())
                  .collect(Collectors.joining("; ")));
    }
    BatchLayout.Result layout = BatchLayout.arrange(batch, directive, title);
    Vec origin =
        FreeSpot.within(
            context.placementArea(), layout.group(), occupied(context.board()), CLEARANCE);
    if (!Double.isFinite(origin.x()) || !Double.isFinite(origin.y())) {
      throw new ActionRejected("the numbers in this action are out of range");
    }
    origin = new Vec(VerbRanges.coordinate(origin.x()), VerbRanges.coordinate(origin.y()));
    BatchRecords.Built built =
        BatchRecords.build(
            batch,
            layout,
            origin,
            title,
            directive.equals(Optional.of(LayoutDirective.SWOT_2X2)),
            context.board(),
            context.brandPalette());
    JsonObject normalized =
        params
            .copy()
            .put("operations", normalizedColors(operations, context.brandPalette()))
            .put("result", result(batch, built));
    return new SanitizedAction(normalized, new RecordDiff(built.records(), List.of()));
  }

  private static Optional<LayoutDirective> directive(Object requested) {
    if (requested == null) {
      return Optional.empty();
    }
    return Optional.of(
        LayoutDirective.of(requested instanceof String name ? name : null)
            .orElseThrow(
                () ->
                    new ActionRejected(
                        "unknown layoutDirective; one of " + LayoutDirective.wireNames())));
  }

  /**
   * The page bounds of every top-level shape: what the new group must keep clear of. The page's
   * children, not every record; in no particular order, which {@link FreeSpot} does not depend on.
   */
  static List<Box> occupied(Board board) {
    ShapeGeometry geometry = new ShapeGeometry(board);
    List<Box> boxes = new ArrayList<>();
    for (String id : board.childIds(ShapeRecords.PAGE_ID)) {
      geometry
          .pageBounds(id)
          .filter(
              box ->
                  Double.isFinite(box.minX())
                      && Double.isFinite(box.maxX())
                      && Double.isFinite(box.minY())
                      && Double.isFinite(box.maxY()))
          .ifPresent(boxes::add);
    }
    return boxes;
  }

  /**
   * The operations with the color of every operation kind as tldraw names it, aliases mapped
   * (purple is violet); an unknown color is left as written.
   */
  private static JsonArray normalizedColors(JsonArray operations, boolean brandPalette) {
    JsonArray normalized = new JsonArray();
    for (Object operation : operations) {
      if (operation instanceof JsonObject object
          && object.getValue("color") instanceof String color) {
        JsonObject copy = object.copy();
        StyleNormalizer.normalize("color", color, brandPalette)
            .ifPresent(value -> copy.put("color", value));
        normalized.add(copy);
      } else {
        normalized.add(operation);
      }
    }
    return normalized;
  }

  /** What the model is told: each ref's shape id, what was skipped and what was placed top-level, each with its ref. */
  private static JsonObject result(ResolvedBatch batch, BatchRecords.Built built) {
    JsonObject shapes = new JsonObject();
    for (BatchShape shape : batch.shapes()) {
      shapes.put(shape.ref(), ShapeIds.modelId(built.ids().get(shape.index())));
    }
    batch
        .connectors()
        .forEach(
            connector ->
                shapes.put(connector.ref(), ShapeIds.modelId(built.ids().get(connector.index()))));
    return new JsonObject()
        .put("shapes", shapes)
        .put("skipped", new JsonArray(batch.skipped().stream().map(BatchIssue::toJson).toList()))
        .put(
            "placedTopLevel",
            new JsonArray(batch.placedTopLevel().stream().map(BatchIssue::toJson).toList()));
  }
}
