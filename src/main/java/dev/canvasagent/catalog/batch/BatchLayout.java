package dev.canvasagent.catalog.batch;

import static dev.canvasagent.catalog.batch.LayoutMetrics.FRAME_GAP;
import static dev.canvasagent.catalog.batch.LayoutMetrics.NOTE_GAP;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Vec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Lays out a resolved batch, in the group's own space with its top-left at (0, 0): each frame's
 * children inside it in local coordinates, frames fitted to them, then the top-level objects by the
 * directive — a template (SWOT 2×2, columns, journey stages with a link between consecutive stages)
 * or a generic arrangement (grid, one row, flowchart tiers). A title goes above everything.
 */
public final class BatchLayout {
  /** Two stages of the journey template the layout links with an arrow. */
  public record Link(BatchShape from, BatchShape to) {}

  /**
   * Where everything goes: per operation index, the box (in its frame's local space for a child, in
   * the group's space for a top-level object), the title's box if there is a title, the links, and
   * the group's size.
   */
  public record Result(Map<Integer, Box> boxes, Optional<Box> title, List<Link> links, Size group) {
    public Box box(BatchShape shape) {
      return boxes.get(shape.index());
    }
  }

  private final ResolvedBatch batch;
  private final Optional<LayoutDirective> directive;
  private final Map<Integer, Size> sizes = new HashMap<>();
  private final Map<Integer, Vec> positions = new HashMap<>();

  private BatchLayout(ResolvedBatch batch, Optional<LayoutDirective> directive) {
    this.batch = batch;
    this.directive = directive;
  }

  public static Result arrange(
      ResolvedBatch batch, Optional<LayoutDirective> directive, String title) {
    return new BatchLayout(batch, directive).arrange(title);
  }

  private Result arrange(String title) {
    // Children come after their frame (parentRef names an earlier op): backwards, every frame's
    // children are sized first.
    List<BatchShape> shapes = batch.shapes();
    for (int i = shapes.size() - 1; i >= 0; i--) {
      sizes.put(shapes.get(i).index(), ownSize(shapes.get(i)));
    }
    List<BatchShape> topLevel = batch.topLevel();
    List<Link> links = arrangeTopLevel(topLevel);
    double top = 0;
    Optional<Box> titleBox = Optional.empty();
    if (title != null && !title.isBlank()) {
      Size titleSize = LayoutMetrics.titleSize(title.strip());
      titleBox = Optional.of(Box.of(0, 0, titleSize.w(), titleSize.h()));
      top = titleSize.h() + NOTE_GAP;
    }
    Map<Integer, Box> boxes = new HashMap<>();
    double right = titleBox.map(Box::maxX).orElse(0.0);
    double bottom = titleBox.map(Box::maxY).orElse(0.0);
    for (BatchShape shape : shapes) {
      Size size = sizes.get(shape.index());
      Vec at = positions.get(shape.index());
      if (shape.isTopLevel()) {
        at = at.plus(new Vec(0, top));
        right = Math.max(right, at.x() + size.w());
        bottom = Math.max(bottom, at.y() + size.h());
      }
      boxes.put(shape.index(), Box.of(at.x(), at.y(), size.w(), size.h()));
    }
    return new Result(boxes, titleBox, links, new Size(right, bottom));
  }

  /** A frame's size once its children sit inside it; the others' own size. */
  private Size ownSize(BatchShape shape) {
    return switch (shape.kind()) {
      case FRAME -> frameSize(shape);
      case NOTE -> new Size(LayoutMetrics.NOTE_W, LayoutMetrics.NOTE_H);
      case TEXT -> LayoutMetrics.textSize(shape.text());
      default -> shape.requested();
    };
  }

  private Size frameSize(BatchShape frame) {
    List<BatchShape> children = batch.childrenOf(frame);
    List<Size> childSizes = children.stream().map(child -> sizes.get(child.index())).toList();
    // A SWOT quadrant holds its notes two across; every other frame stacks them.
    boolean quadrant =
        directive.equals(Optional.of(LayoutDirective.SWOT_2X2)) && frame.isTopLevel();
    List<Vec> local =
        quadrant
            ? FrameContent.grid(childSizes, Math.min(2, Math.max(1, children.size())))
            : FrameContent.stack(childSizes);
    for (int i = 0; i < children.size(); i++) {
      positions.put(children.get(i).index(), local.get(i));
    }
    return FrameContent.fit(frame.requested(), childSizes, local);
  }

  private List<Link> arrangeTopLevel(List<BatchShape> topLevel) {
    LayoutDirective chosen = directive.orElse(LayoutDirective.ROWS);
    return switch (chosen) {
      case SWOT_2X2, COLUMNS, JOURNEY_STAGES -> template(chosen, topLevel);
      case GRID -> {
        place(
            topLevel,
            GridLayout.arrange(
                sizesOf(topLevel), GridLayout.squareColumns(topLevel.size()), FRAME_GAP),
            Vec.ZERO);
        yield List.of();
      }
      case FLOWCHART_TOP_DOWN, FLOWCHART_LEFT_RIGHT -> {
        TieredLayout.Direction direction =
            chosen == LayoutDirective.FLOWCHART_TOP_DOWN
                ? TieredLayout.Direction.TOP_DOWN
                : TieredLayout.Direction.LEFT_RIGHT;
        int[] tiers = TieredLayout.assign(topLevel.size(), edges(topLevel));
        place(
            topLevel,
            TieredLayout.arrange(sizesOf(topLevel), tiers, direction, FRAME_GAP, FRAME_GAP * 1.5),
            Vec.ZERO);
        yield List.of();
      }
      default -> {
        place(topLevel, RowLayout.arrange(sizesOf(topLevel), FRAME_GAP), Vec.ZERO);
        yield List.of();
      }
    };
  }

  /**
   * A template: the top-level frames as its sections, all made the size of the largest so the grid
   * or the columns line up (their children keep their places); anything else top-level in a row below.
   */
  private List<Link> template(LayoutDirective template, List<BatchShape> topLevel) {
    List<BatchShape> sections =
        topLevel.stream().filter(shape -> shape.kind() == OperationKind.FRAME).toList();
    List<BatchShape> others =
        topLevel.stream().filter(shape -> shape.kind() != OperationKind.FRAME).toList();
    double w = 0;
    double h = 0;
    for (BatchShape section : sections) {
      w = Math.max(w, sizes.get(section.index()).w());
      h = Math.max(h, sizes.get(section.index()).h());
    }
    for (BatchShape section : sections) {
      sizes.put(section.index(), new Size(w, h));
    }
    List<Vec> at =
        template == LayoutDirective.SWOT_2X2
            ? GridLayout.arrange(sizesOf(sections), 2, FRAME_GAP)
            : RowLayout.arrange(sizesOf(sections), FRAME_GAP);
    place(sections, at, Vec.ZERO);
    double below = 0;
    for (int i = 0; i < sections.size(); i++) {
      below = Math.max(below, at.get(i).y() + h + FRAME_GAP);
    }
    place(others, RowLayout.arrange(sizesOf(others), FRAME_GAP), new Vec(0, below));
    List<Link> links = new ArrayList<>();
    if (template == LayoutDirective.JOURNEY_STAGES) {
      for (int i = 1; i < sections.size(); i++) {
        links.add(new Link(sections.get(i - 1), sections.get(i)));
      }
    }
    return links;
  }

  /** The connectors between top-level objects, each end lifted to its top-level frame; self-links left out. */
  private List<TieredLayout.Edge> edges(List<BatchShape> topLevel) {
    List<TieredLayout.Edge> edges = new ArrayList<>();
    for (BatchConnector connector : batch.connectors()) {
      int from = topLevel.indexOf(outermost(connector.from()));
      int to = topLevel.indexOf(outermost(connector.to()));
      if (from != to) {
        edges.add(new TieredLayout.Edge(from, to));
      }
    }
    return edges;
  }

  private static BatchShape outermost(BatchShape shape) {
    BatchShape current = shape;
    while (current.parent() != null) {
      current = current.parent();
    }
    return current;
  }

  private List<Size> sizesOf(List<BatchShape> shapes) {
    return shapes.stream().map(shape -> sizes.get(shape.index())).toList();
  }

  private void place(List<BatchShape> shapes, List<Vec> at, Vec offset) {
    for (int i = 0; i < shapes.size(); i++) {
      positions.put(shapes.get(i).index(), at.get(i).plus(offset));
    }
  }
}
