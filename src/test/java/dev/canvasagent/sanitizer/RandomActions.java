package dev.canvasagent.sanitizer;

import dev.canvasagent.board.Board;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.SchemaSamples;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Random actions for property tests: every verb of the catalog, with params its schema accepts
 * ({@link SchemaSamples#valid}: shape ids from the board, now and then unknown ones, extreme numbers)
 * and, one time in ten, params it refuses ({@link SchemaSamples#invalid}: wrong types, out of range,
 * missing or unknown keys). A verb needs nothing here to be exercised; the {@code refinements} only add
 * what a schema cannot say about a verb's meaning.
 */
final class RandomActions {
  /** How much more often than the others a verb is drawn: creating shapes gives the others a board. */
  static final Map<String, Integer> WEIGHTS = Map.of("create_shape", 3);

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

  private final Random random;
  private final SchemaSamples samples;
  private final List<ActionCatalog.Entry> entries;
  private final List<String> draws = new ArrayList<>();

  /**
   * Hand-written params for verbs whose meaning a schema cannot say, used for half of their actions
   * (the schema-driven ones for the other half): a shape whose type decides what else it needs (x and
   * y, or points); a batch whose parents come before their children and whose connectors name
   * objects of the same batch; groups to ungroup, which the board has only now and then.
   */
  private final Map<String, Function<Board, JsonObject>> refinements =
      Map.of(
          "create_shape", board -> createShape(),
          "batch_operations", board -> batch(),
          "ungroup", this::ungroup);

  RandomActions(long seed) {
    this(seed, ActionCatalog.standard().entries());
  }

  RandomActions(long seed, java.util.Collection<ActionCatalog.Entry> entries) {
    this.random = new Random(seed);
    this.samples = new SchemaSamples(random);
    this.entries = List.copyOf(entries);
    for (ActionCatalog.Entry entry : this.entries) {
      String name = entry.verb().name();
      for (int i = 0; i < WEIGHTS.getOrDefault(name, 1); i++) {
        draws.add(name);
      }
    }
  }

  /** Every verb these actions draw from, in catalog order. */
  List<String> verbs() {
    return entries.stream().map(entry -> entry.verb().name()).toList();
  }

  String verb() {
    return draws.get(random.nextInt(draws.size()));
  }

  JsonObject params(String verb, Board board) {
    ActionCatalog.Entry entry =
        entries.stream()
            .filter(candidate -> candidate.verb().name().equals(verb))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no verb " + verb));
    if (random.nextInt(10) == 0) {
      return samples.invalid(entry.schema(), board);
    }
    Function<Board, JsonObject> refinement = refinements.get(verb);
    if (refinement != null && random.nextBoolean()) {
      return refinement.apply(board);
    }
    return samples.valid(entry.schema(), board);
  }

  /** A batch of a few objects and connectors; refs from a small pool, so some collide or name nothing. */
  private JsonObject batch() {
    JsonArray operations = new JsonArray();
    int count = 1 + random.nextInt(8);
    for (int i = 0; i < count; i++) {
      String ref = "r" + random.nextInt(6);
      JsonObject operation =
          switch (random.nextInt(5)) {
            case 0 -> new JsonObject().put("op", "createFrame").put("name", "f" + i);
            case 1 -> new JsonObject().put("op", "createNote").put("text", "n" + i);
            case 2 ->
                new JsonObject()
                    .put("op", "createShape")
                    .put("text", "s" + i)
                    .put("w", 10 + random.nextInt(300));
            case 3 -> new JsonObject().put("op", "createText").put("text", "t" + i);
            default ->
                new JsonObject()
                    .put("op", "createConnector")
                    .put("fromRef", "r" + random.nextInt(6))
                    .put("toRef", "r" + random.nextInt(6));
          };
      operation.put("ref", ref).put("color", pick(COLORS));
      if (random.nextInt(3) == 0 && !"createConnector".equals(operation.getString("op"))) {
        operation.put("parentRef", "r" + random.nextInt(6));
      }
      operations.add(operation);
    }
    return new JsonObject().put("operations", operations).put("layoutDirective", pick(DIRECTIVES));
  }

  private JsonObject ungroup(Board board) {
    List<String> groups =
        board.records().values().stream()
            .filter(record -> "group".equals(record.getString("type")))
            .map(record -> record.getString("id"))
            .toList();
    JsonArray shapeIds = new JsonArray();
    for (int i = random.nextInt(2); i >= 0 && !groups.isEmpty(); i--) {
      shapeIds.add(pick(groups));
    }
    return new JsonObject().put("shapeIds", shapeIds.isEmpty() ? shapeIds.add("ghost") : shapeIds);
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

  private <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
