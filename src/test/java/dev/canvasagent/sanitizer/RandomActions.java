package dev.canvasagent.sanitizer;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Random;

/**
 * Random actions for property tests: every verb, mostly plausible params with shape ids from the
 * board, mixed with hostile values (unknown ids, huge and negative numbers, wrong types, empty lists).
 */
final class RandomActions {
  static final List<String> VERBS =
      List.of(
          "create_shape",
          "create_shape",
          "create_shape",
          "update_shape",
          "delete_shape",
          "label",
          "pen",
          "apply_preset",
          "move",
          "resize",
          "rotate",
          "align",
          "distribute",
          "stack",
          "reorder",
          "group",
          "ungroup",
          "place",
          "clear",
          "set_viewport",
          "think",
          "message",
          "todo",
          "add_detail",
          "review");
  static final List<String> KINDS =
      List.of(
          "box",
          "rectangle",
          "ellipse",
          "star",
          "sticky",
          "headline",
          "text",
          "frame",
          "line",
          "draw",
          "arrow",
          "cloud",
          "r",
          "teleporter");
  static final List<String> COLORS =
      List.of(
          "blue",
          "red",
          "purple",
          "pink",
          "brutalist orange",
          "charcoal",
          "yel",
          "r",
          "light-violet",
          "green",
          "nope");

  private final Random random;

  /** Batches draw from their own stream, so adding them left the other verbs' sequences as they were. */
  private final Random batchRandom;

  RandomActions(long seed) {
    this.random = new Random(seed);
    this.batchRandom = new Random(~seed);
  }

  String verb() {
    return batchRandom.nextInt(VERBS.size()) == 0
        ? "batch_operations"
        : VERBS.get(random.nextInt(VERBS.size()));
  }

  JsonObject params(String verb, Board board) {
    return switch (verb) {
      case "create_shape" -> createShape();
      case "batch_operations" -> batch();
      case "update_shape" ->
          new JsonObject()
              .put("shapeId", shapeId(board))
              .put("x", number())
              .put("y", number())
              .put("text", "updated " + random.nextInt(100))
              .put("props", new JsonObject().put("color", pick(COLORS)).put("w", number()));
      case "delete_shape" ->
          new JsonObject().put("shapeIds", shapeIds(board, 1 + random.nextInt(3)));
      case "label" ->
          new JsonObject()
              .put("shapeId", shapeId(board))
              .put("text", "label " + random.nextInt(100));
      case "pen" ->
          new JsonObject()
              .put("points", points(2 + random.nextInt(30)))
              .put("closed", random.nextBoolean())
              .put("style", random.nextBoolean() ? "smooth" : "straight")
              .put("color", pick(COLORS));
      case "apply_preset" ->
          random.nextBoolean()
              ? new JsonObject()
                  .put(
                      "preset",
                      pick(List.of("hero", "Callout", "muted", "wireframe", "tag", "bogus")))
                  .put("targetIds", shapeIds(board, 1 + random.nextInt(2)))
              : new JsonObject()
                  .put("preset", "Label")
                  .put("x", number())
                  .put("y", number())
                  .put("text", "preset");
      case "move" ->
          random.nextBoolean()
              ? new JsonObject()
                  .put("shapeIds", shapeIds(board, 1 + random.nextInt(3)))
                  .put("x", number())
                  .put("y", number())
              : new JsonObject()
                  .put("shapeIds", shapeIds(board, 1 + random.nextInt(3)))
                  .put("dx", number())
                  .put("dy", number());
      case "resize" ->
          new JsonObject()
              .put("shapeIds", shapeIds(board, 1 + random.nextInt(3)))
              .put("scaleX", 0.1 + random.nextDouble() * 3)
              .put("scaleY", random.nextInt(10) == 0 ? -1 : 0.1 + random.nextDouble() * 3)
              .put("originX", number())
              .put("originY", number());
      case "rotate" ->
          new JsonObject()
              .put("shapeIds", shapeIds(board, 1 + random.nextInt(3)))
              .put("degrees", number());
      case "align" ->
          new JsonObject()
              .put("shapeIds", shapeIds(board, 2 + random.nextInt(3)))
              .put(
                  "alignment",
                  pick(
                      List.of(
                          "left",
                          "center-horizontal",
                          "right",
                          "top",
                          "center-vertical",
                          "bottom",
                          "diagonal")));
      case "distribute" ->
          new JsonObject()
              .put("shapeIds", shapeIds(board, 3 + random.nextInt(3)))
              .put("direction", pick(List.of("horizontal", "vertical")));
      case "stack" ->
          new JsonObject()
              .put("shapeIds", shapeIds(board, 2 + random.nextInt(3)))
              .put("direction", pick(List.of("horizontal", "vertical")))
              .put("gap", Math.abs(number()) % 200);
      case "reorder" ->
          new JsonObject()
              .put("shapeIds", shapeIds(board, 1 + random.nextInt(2)))
              .put("to", pick(List.of("front", "forward", "backward", "back")));
      case "group" -> new JsonObject().put("shapeIds", shapeIds(board, 2 + random.nextInt(3)));
      case "ungroup" -> new JsonObject().put("shapeIds", shapeIds(board, 1));
      case "place" ->
          new JsonObject()
              .put("shapeId", shapeId(board))
              .put("referenceShapeId", shapeId(board))
              .put("side", pick(List.of("top", "bottom", "left", "right")))
              .put("sideOffset", number() % 100);
      case "clear" -> new JsonObject();
      case "set_viewport", "review" ->
          new JsonObject()
              .put("x", number())
              .put("y", number())
              .put("w", 1 + Math.abs(number()) % 2000)
              .put("h", 1 + Math.abs(number()) % 2000);
      case "think", "message" -> new JsonObject().put("text", "words " + random.nextInt(1000));
      case "todo" -> new JsonObject().put("text", "todo " + random.nextInt(1000));
      case "add_detail" -> new JsonObject().put("intent", "more");
      default -> new JsonObject();
    };
  }

  /** A batch of a few objects and connectors; refs from a small pool, so some collide or name nothing. */
  static final List<String> DIRECTIVES =
      List.of(
          "swot-2x2",
          "columns",
          "journey-stages",
          "grid",
          "rows",
          "flowchart-top-down",
          "flowchart-left-right",
          "freeform");

  private JsonObject batch() {
    io.vertx.core.json.JsonArray operations = new io.vertx.core.json.JsonArray();
    int count = 1 + batchRandom.nextInt(8);
    for (int i = 0; i < count; i++) {
      String ref = "r" + batchRandom.nextInt(6);
      JsonObject operation =
          switch (batchRandom.nextInt(5)) {
            case 0 -> new JsonObject().put("op", "createFrame").put("name", "f" + i);
            case 1 -> new JsonObject().put("op", "createNote").put("text", "n" + i);
            case 2 ->
                new JsonObject()
                    .put("op", "createShape")
                    .put("text", "s" + i)
                    .put("w", 10 + batchRandom.nextInt(300));
            case 3 -> new JsonObject().put("op", "createText").put("text", "t" + i);
            default ->
                new JsonObject()
                    .put("op", "createConnector")
                    .put("fromRef", "r" + batchRandom.nextInt(6))
                    .put("toRef", "r" + batchRandom.nextInt(6));
          };
      operation.put("ref", ref).put("color", COLORS.get(batchRandom.nextInt(COLORS.size())));
      if (batchRandom.nextInt(3) == 0 && !"createConnector".equals(operation.getString("op"))) {
        operation.put("parentRef", "r" + batchRandom.nextInt(6));
      }
      operations.add(operation);
    }
    return new JsonObject()
        .put("operations", operations)
        .put("layoutDirective", DIRECTIVES.get(batchRandom.nextInt(DIRECTIVES.size())));
  }

  private JsonObject createShape() {
    String kind = pick(KINDS);
    JsonObject params =
        new JsonObject()
            .put("type", kind)
            .put("x", number())
            .put("y", number())
            .put("text", "t" + random.nextInt(1000))
            .put(
                "props",
                new JsonObject().put("color", pick(COLORS)).put("w", number()).put("h", number()));
    if (random.nextInt(4) == 0) {
      params.put("id", "s" + random.nextInt(50));
    }
    if (kind.equals("line") || kind.equals("draw") || kind.equals("arrow")) {
      params.put("points", points(2 + random.nextInt(random.nextInt(20) == 0 ? 1500 : 20)));
      params.getJsonObject("props").remove("w");
      params.getJsonObject("props").remove("h");
    }
    if (random.nextInt(5) == 0) {
      params.put("rotation", number());
    }
    return params;
  }

  private JsonArray points(int count) {
    JsonArray points = new JsonArray();
    double x = number() % 5000;
    double y = number() % 5000;
    for (int i = 0; i < count; i++) {
      x += random.nextGaussian() * 30;
      y += random.nextGaussian() * 30;
      points.add(new JsonObject().put("x", x).put("y", y));
    }
    return points;
  }

  /** Mostly modest numbers, sometimes huge, negative or fractional. */
  private double number() {
    return switch (random.nextInt(10)) {
      case 0 -> 1e12 * (random.nextBoolean() ? 1 : -1);
      case 1 -> -random.nextDouble() * 1000;
      case 2 -> random.nextDouble();
      default -> random.nextInt(2000);
    };
  }

  private String shapeId(Board board) {
    List<String> ids =
        board.records().values().stream()
            .filter(record -> "shape".equals(record.getString("typeName")))
            .map(record -> ShapeIds.modelId(record.getString("id")))
            .toList();
    if (ids.isEmpty() || random.nextInt(8) == 0) {
      return random.nextBoolean() ? "ghost" + random.nextInt(5) : "shape:other-room-shape";
    }
    return ids.get(random.nextInt(ids.size()));
  }

  private JsonArray shapeIds(Board board, int count) {
    JsonArray ids = new JsonArray();
    for (int i = 0; i < count; i++) {
      ids.add(shapeId(board));
    }
    return ids;
  }

  private <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
