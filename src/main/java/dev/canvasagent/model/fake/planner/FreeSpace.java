package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.planner.CanvasView.Area;
import java.util.ArrayList;
import java.util.List;

/**
 * Where new shapes go: the first spot, scanning the viewport row by row from its top-left, where a
 * block of the given size keeps a gap from every shape in view; when the viewport has no such spot,
 * right of everything. Without a viewport the area is a default screen at the origin.
 */
final class FreeSpace {
  static final Area DEFAULT_AREA = new Area(0, 0, 1280, 800);
  static final double MARGIN = 40;
  static final double GAP = 40;

  /** At most this many candidate positions each way, whatever the viewport's size. */
  private static final int MAX_STEPS = 60;

  private static final double MIN_STEP = 20;

  private final Area area;
  private final List<Area> occupied = new ArrayList<>();

  FreeSpace(CanvasView view) {
    this.area = view.viewport().orElse(DEFAULT_AREA);
    view.shapes().stream()
        .filter(SeenShape::placed)
        .forEach(shape -> occupied.add(new Area(shape.x(), shape.y(), shape.w(), shape.h())));
  }

  /** The top-left of a free block of {@code w × h}, in whole units; the block is then taken. */
  Area take(double w, double h) {
    Area spot = find(w, h);
    occupied.add(spot);
    return spot;
  }

  private Area find(double w, double h) {
    double stepX = Math.max(MIN_STEP, area.w() / MAX_STEPS);
    double stepY = Math.max(MIN_STEP, area.h() / MAX_STEPS);
    for (double y = area.y() + MARGIN; y + h <= area.maxY() - MARGIN; y += stepY) {
      for (double x = area.x() + MARGIN; x + w <= area.maxX() - MARGIN; x += stepX) {
        Area candidate = new Area(Math.round(x), Math.round(y), w, h);
        if (isFree(candidate)) {
          return candidate;
        }
      }
    }
    double right = area.x();
    for (Area shape : occupied) {
      right = Math.max(right, shape.maxX());
    }
    return new Area(Math.round(right + GAP), Math.round(area.y() + MARGIN), w, h);
  }

  private boolean isFree(Area candidate) {
    for (Area shape : occupied) {
      boolean apart =
          candidate.maxX() + GAP <= shape.x()
              || shape.maxX() + GAP <= candidate.x()
              || candidate.maxY() + GAP <= shape.y()
              || shape.maxY() + GAP <= candidate.y();
      if (!apart) {
        return false;
      }
    }
    return true;
  }
}
