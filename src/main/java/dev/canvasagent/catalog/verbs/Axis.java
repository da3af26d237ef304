package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.Vec;
import dev.canvasagent.catalog.ActionRejected;

/** One axis of the page, for the verbs that lay shapes out along a direction. */
final class Axis {
  private Axis() {}

  static boolean horizontal(Object direction) {
    if ("horizontal".equals(direction)) {
      return true;
    }
    if ("vertical".equals(direction)) {
      return false;
    }
    throw new ActionRejected("direction must be horizontal or vertical, got '" + direction + "'");
  }

  static double start(Box box, boolean horizontal) {
    return horizontal ? box.minX() : box.minY();
  }

  static double end(Box box, boolean horizontal) {
    return horizontal ? box.maxX() : box.maxY();
  }

  static double length(Box box, boolean horizontal) {
    return horizontal ? box.width() : box.height();
  }

  static Vec along(double distance, boolean horizontal) {
    return horizontal ? new Vec(distance, 0) : new Vec(0, distance);
  }
}
