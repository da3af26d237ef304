package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Each shape under its place: its {@code type}, {@code parentId}, {@code x} and {@code y}, which two
 * identical shapes share whatever their ids and indexes. Kept as the records change, like {@link
 * RecordLinks}, so "the shapes that may be this one's copy" reads one group, not the board.
 *
 * <p>The key is built so that values equal as JSON (vert.x's equality: {@code 100} and {@code 100.0}
 * are the same number, as are {@code 0.0} and {@code -0.0}) give the same key: numbers by their
 * double value, strings as they are, anything else (absent, null, an object) one common mark.
 * Different values may share a key now and then (two longs beyond 2^53, an object): the group holds
 * candidates, and the caller compares the records.
 */
final class ShapePlaces {
  static final ShapePlaces EMPTY = new ShapePlaces(GroupedIds.EMPTY);

  private final GroupedIds byPlace;

  private ShapePlaces(GroupedIds byPlace) {
    this.byPlace = byPlace;
  }

  ShapePlaces plus(String key, JsonObject record) {
    return isShapeUnderOwnId(key, record)
        ? new ShapePlaces(byPlace.plus(place(record), "", key))
        : this;
  }

  ShapePlaces minus(String key, JsonObject record) {
    return isShapeUnderOwnId(key, record)
        ? new ShapePlaces(byPlace.minus(place(record), "", key))
        : this;
  }

  /** The ids of the shapes placed as {@code shape} may be, by id. */
  List<String> placedLike(JsonObject shape) {
    return byPlace.ids(place(shape));
  }

  private static boolean isShapeUnderOwnId(String key, JsonObject record) {
    return "shape".equals(record.getValue("typeName")) && key.equals(record.getValue("id"));
  }

  private static String place(JsonObject shape) {
    StringBuilder place = new StringBuilder();
    for (String field : List.of("type", "parentId", "x", "y")) {
      place.append(value(shape.getValue(field))).append('\u0000');
    }
    return place.toString();
  }

  private static String value(Object value) {
    if (value instanceof Number number) {
      double x = number.doubleValue();
      // 0.0 == -0.0 in JSON equality, so both are one place.
      return "n" + (x == 0 ? 0.0 : x);
    }
    if (value instanceof CharSequence text) {
      return "s" + text;
    }
    return "o";
  }
}
