package dev.canvasagent.support;

import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.bound;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.note;
import static dev.canvasagent.support.TestShapes.rotated;
import static dev.canvasagent.support.TestShapes.text;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Boards as people make them, at any size, from a seed: frames holding notes, boxes, text and now and
 * then a group; loose notes, boxes and text; arrows bound at both ends to shapes drawn before them.
 * About one shape per 300 by 300 units of page, so a viewport sees a few dozen.
 */
public final class GeneratedBoards {
  private final Random random;
  private final double side;
  private final List<JsonObject> records = new ArrayList<>();
  private final List<String> targets = new ArrayList<>();
  private String pageIndex;
  private int shapes;
  private int next;

  private GeneratedBoards(Random random, int shapeCount) {
    this.random = random;
    this.side = Math.sqrt(shapeCount) * 300;
  }

  /** A board of about {@code shapeCount} shapes (within a frame's worth), and their bindings. */
  public static Board generate(long seed, int shapeCount) {
    GeneratedBoards boards = new GeneratedBoards(new Random(seed), shapeCount);
    while (boards.shapes < shapeCount) {
      boards.addSomething();
    }
    return TestShapes.board(boards.records);
  }

  private void addSomething() {
    int pick = random.nextInt(100);
    double x = random.nextDouble() * side - side / 2;
    double y = random.nextDouble() * side - side / 2;
    if (pick < 6) {
      addFrame(x, y);
    } else if (pick < 24 && targets.size() >= 2) {
      addArrow(x, y);
    } else {
      target(onPage(loose(name(), x, y)));
    }
  }

  private void addFrame(double x, double y) {
    String id = name();
    double w = 600 + random.nextInt(900);
    double h = 400 + random.nextInt(700);
    JsonObject frame = onPage(frame(id, x, y, w, h));
    if (random.nextInt(4) == 0) {
      rotated(random.nextDouble() * 0.5, frame);
    }
    target(frame);
    String childIndex = null;
    int children = 3 + random.nextInt(10);
    for (int i = 0; i < children; i++) {
      childIndex = FractionalIndex.after(childIndex);
      JsonObject child =
          loose(name(), random.nextDouble() * (w - 200), random.nextDouble() * (h - 200));
      target(add(at(childIndex, in(id, child))));
    }
    if (random.nextInt(3) == 0) {
      String groupId = name();
      childIndex = FractionalIndex.after(childIndex);
      add(at(childIndex, in(id, group(groupId, 20, 20))));
      add(at("a1", in(groupId, geo(name(), 0, 0, 80, 60))));
      add(at("a2", in(groupId, text(name(), 90, 0, 120, "grouped"))));
    }
  }

  private void addArrow(double x, double y) {
    String id = name();
    JsonObject arrow =
        onPage(TestShapes.arrow(id, x, y, 40 + random.nextInt(400), random.nextInt(300) - 150));
    String from = targets.get(random.nextInt(targets.size()));
    String to = targets.get(random.nextInt(targets.size()));
    records.add(bound(id + "-start", arrow.getString("id"), "start", from));
    records.add(bound(id + "-end", arrow.getString("id"), "end", to));
  }

  private JsonObject loose(String id, double x, double y) {
    return switch (random.nextInt(3)) {
      case 0 -> note(id, x, y);
      case 1 -> geo(id, x, y, 60 + random.nextInt(240), 40 + random.nextInt(160));
      default -> text(id, x, y, 80 + random.nextInt(300), "text " + id);
    };
  }

  private JsonObject onPage(JsonObject shape) {
    pageIndex = FractionalIndex.after(pageIndex);
    return add(at(pageIndex, in(ShapeRecords.PAGE_ID, shape)));
  }

  private JsonObject add(JsonObject shape) {
    records.add(shape);
    shapes++;
    return shape;
  }

  private void target(JsonObject shape) {
    targets.add(shape.getString("id"));
  }

  private String name() {
    return "g" + next++;
  }
}
