package dev.canvasagent.catalog.batch;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Vec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Where a new group of shapes goes: the spot nearest the anchor (the requester's viewport,
 * top-left) at or right of and below it, where the group keeps {@code gap} from every shape already
 * on the page. Candidates are the anchor and the right and bottom edges of the shapes (plus the
 * gap), the nearest of them and the edge past all shapes; right of everything is always free, so
 * there is always an answer.
 */
public final class FreeSpot {
  /** Candidate lines each way, nearest the anchor first: bounds the work on a crowded board. */
  static final int MAX_CANDIDATES = 64;

  private FreeSpot() {}

  /**
   * The first free spot in reading order (top to bottom, then left to right) from {@code area}'s
   * top-left where the whole group fits inside {@code area}: things placed one after another fill a
   * row before starting the next, as a person would lay them out. When none fits, {@link #near} the
   * area's top-left (outside it, but clear of every shape).
   */
  public static Vec within(Box area, Size group, List<Box> occupied, double gap) {
    List<Vec> spots = spots(area.topLeft(), occupied, gap);
    spots.sort(Comparator.comparingDouble(Vec::y).thenComparingDouble(Vec::x));
    for (Vec spot : spots) {
      if (Box.of(spot.x(), spot.y(), group.w(), group.h()).isWithin(area)
          && isFree(spot, group, occupied, gap)) {
        return spot;
      }
    }
    return near(area.topLeft(), group, occupied, gap);
  }

  public static Vec near(Vec anchor, Size group, List<Box> occupied, double gap) {
    for (Vec spot : spots(anchor, occupied, gap)) {
      if (isFree(spot, group, occupied, gap)) {
        return spot;
      }
    }
    double right = anchor.x();
    for (Box box : occupied) {
      right = Math.max(right, box.maxX() + gap);
    }
    return new Vec(right, anchor.y());
  }

  /** The candidate spots, nearest the anchor first. */
  private static List<Vec> spots(Vec anchor, List<Box> occupied, double gap) {
    List<Double> xs =
        candidates(anchor.x(), occupied.stream().map(box -> box.maxX() + gap).toList());
    List<Double> ys =
        candidates(anchor.y(), occupied.stream().map(box -> box.maxY() + gap).toList());
    List<Vec> spots = new ArrayList<>();
    for (double x : xs) {
      for (double y : ys) {
        spots.add(new Vec(x, y));
      }
    }
    spots.sort(
        Comparator.<Vec>comparingDouble(spot -> (spot.x() - anchor.x()) + (spot.y() - anchor.y()))
            .thenComparingDouble(Vec::y)
            .thenComparingDouble(Vec::x));
    return spots;
  }

  private static List<Double> candidates(double anchor, List<Double> edges) {
    TreeSet<Double> values = new TreeSet<>();
    values.add(anchor);
    edges.stream().filter(edge -> edge > anchor).forEach(values::add);
    List<Double> nearest = new ArrayList<>(values.stream().limit(MAX_CANDIDATES).toList());
    // Past every shape is always a candidate, however many lie between.
    if (!nearest.contains(values.last())) {
      nearest.add(values.last());
    }
    return nearest;
  }

  static boolean isFree(Vec spot, Size group, List<Box> occupied, double gap) {
    for (Box box : occupied) {
      boolean apart =
          spot.x() + group.w() + gap <= box.minX()
              || box.maxX() + gap <= spot.x()
              || spot.y() + group.h() + gap <= box.minY()
              || box.maxY() + gap <= spot.y();
      if (!apart) {
        return false;
      }
    }
    return true;
  }
}
