package dev.canvasagent.board.geometry;

import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.note;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random changes to a board of the kinds that move shapes' page bounds or paint order: a shape moved,
 * a frame turned or moved with its children, a shape put in another frame or group (a cycle now
 * and then), a shape removed (its children left without a parent) and put back, a new note, a new
 * index. Not always changes the patch engine would accept: the index must hold for any board.
 */
public final class RandomDiffs {
  private final Board board;
  private final Random random;
  private final List<JsonObject> shapes = new ArrayList<>();
  private final List<JsonObject> parents = new ArrayList<>();

  public RandomDiffs(Board board, Random random) {
    this.board = board;
    this.random = random;
    board
        .records()
        .values()
        .forEach(
            record -> {
              if ("shape".equals(record.getValue("typeName"))) {
                shapes.add(record);
                if (List.of("frame", "group").contains(record.getString("type"))) {
                  parents.add(record);
                }
              }
            });
  }

  public RecordDiff next() {
    if (shapes.isEmpty()) {
      return RecordDiff.putting(at("a1", in(ShapeRecords.PAGE_ID, note("fresh", 0, 0))));
    }
    JsonObject shape = pick(shapes).copy();
    return switch (random.nextInt(8)) {
      case 0 ->
          RecordDiff.putting(
              shape.put("x", shape.getDouble("x", 0.0) + random.nextInt(2_000) - 1_000));
      case 1 ->
          parents.isEmpty()
              ? RecordDiff.putting(shape.put("y", -shape.getDouble("y", 0.0)))
              : RecordDiff.putting(
                  pick(parents)
                      .copy()
                      .put("rotation", random.nextDouble() * 3)
                      .put("x", random.nextInt(4_000) - 2_000));
      case 2 ->
          RecordDiff.putting(
              shape.put(
                  "parentId",
                  parents.isEmpty() || random.nextInt(4) == 0
                      ? ShapeRecords.PAGE_ID
                      : pick(parents).getString("id")));
      case 3 -> new RecordDiff(List.of(), List.of(shape.getString("id")));
      case 4 -> {
        // removed and put back in one diff, moved: the index sees the record change, not vanish
        yield new RecordDiff(
            List.of(shape.put("y", random.nextInt(3_000))), List.of(shape.getString("id")));
      }
      case 5 -> {
        String parent = parents.isEmpty() ? ShapeRecords.PAGE_ID : pick(parents).getString("id");
        JsonObject fresh =
            at(
                "a" + random.nextInt(9),
                in(
                    parent,
                    note("n" + random.nextLong(), random.nextInt(500), random.nextInt(500))));
        yield RecordDiff.putting(fresh);
      }
      case 6 -> RecordDiff.putting(shape.put("index", "a" + random.nextInt(50)));
      default -> {
        // a frame and its direct children removed together
        JsonObject parent = parents.isEmpty() ? shape : pick(parents);
        List<String> ids = new ArrayList<>(board.childIds(parent.getString("id")));
        ids.add(parent.getString("id"));
        yield new RecordDiff(List.of(), ids);
      }
    };
  }

  private JsonObject pick(List<JsonObject> from) {
    return from.get(random.nextInt(from.size()));
  }
}
