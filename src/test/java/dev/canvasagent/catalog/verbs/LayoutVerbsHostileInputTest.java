package dev.canvasagent.catalog.verbs;

import static dev.canvasagent.support.TestShapes.arrow;
import static dev.canvasagent.support.TestShapes.at;
import static dev.canvasagent.support.TestShapes.board;
import static dev.canvasagent.support.TestShapes.draw;
import static dev.canvasagent.support.TestShapes.frame;
import static dev.canvasagent.support.TestShapes.geo;
import static dev.canvasagent.support.TestShapes.group;
import static dev.canvasagent.support.TestShapes.in;
import static dev.canvasagent.support.TestShapes.line;
import static dev.canvasagent.support.TestShapes.note;
import static dev.canvasagent.support.TestShapes.rotated;
import static dev.canvasagent.support.TestShapes.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SchemaSamples;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every layout verb does with input meant to break it: names that are not shapes, repeated and
 * far too many ids, and numbers and types the schema would have refused. Each either makes a valid
 * diff or is rejected with a reason; nothing else escapes.
 */
class LayoutVerbsHostileInputTest {
  /** The verbs of the catalog that act on a list of shapes: their schema requires {@code shapeIds}. */
  static final List<String> SHAPE_LIST_VERBS =
      VerbHarness.CATALOG.entries().stream()
          .filter(
              entry -> {
                JsonObject schema = entry.schema().document();
                JsonObject shapeIds =
                    schema.getJsonObject("properties").getJsonObject("shapeIds", new JsonObject());
                return schema.getJsonArray("required", new JsonArray()).contains("shapeIds")
                    && SchemaSamples.isShapeReference(
                        shapeIds.getJsonObject("items", new JsonObject()));
              })
          .map(entry -> entry.verb().name())
          .toList();

  static List<String> shapeListVerbs() {
    return SHAPE_LIST_VERBS;
  }

  /** The shape-list verbs and {@code place}, which moves one shape beside another. */
  static List<String> layoutVerbs() {
    List<String> verbs = new ArrayList<>(SHAPE_LIST_VERBS);
    verbs.add("place");
    return verbs;
  }

  static final Board BOARD =
      board(
          at("a1", geo("a", 0, 0, 100, 50)),
          at("a2", rotated(0.7, geo("b", 300, 40, 80, 80))),
          at("a3", note("c", -200, 300)),
          at("a4", group("g", 500, 500)),
          at("a1", in("g", text("t", 0, 0, 120, "one\ntwo"))),
          at("a2", in("g", arrow("arrow", 40, 40, 100, -20))),
          at("a5", rotated(1.2, frame("f", 800, 0, 300, 200))),
          at("a1", in("f", line("l", 10, 10, 0, 0, 50, 50))),
          at("a2", in("f", draw("d", 60, 60, 0, 0, 10, 4, 25, -6))),
          new JsonObject()
              .put("id", "shape:notashape")
              .put("typeName", "binding")
              .put("type", "arrow"));

  /** Params that pass {@code verb}'s schema, for these shapes: its schema's example, naming them. */
  static JsonObject params(String verb, String... shapes) {
    JsonObject example =
        VerbHarness.CATALOG
            .entry(verb)
            .orElseThrow()
            .schema()
            .document()
            .getJsonArray("examples")
            .getJsonObject(0);
    return example.copy().put("shapeIds", VerbHarness.ids(shapes));
  }

  @ParameterizedTest
  @MethodSource("layoutVerbs")
  void theVerbIsInTheCatalogAsABoardVerbAndItsExamplePassesItsSchema(String verb) {
    VerbHarness harness = new VerbHarness(verb);
    assertEquals(VerbKind.BOARD, harness.entry.verb().kind());
    JsonObject schema = harness.entry.schema().document();
    assertNotNull(schema.getString("description"));
    JsonArray examples = schema.getJsonArray("examples");
    assertEquals(1, examples.size());
    assertEquals(Optional.empty(), harness.violations(examples.getJsonObject(0)));
  }

  @ParameterizedTest
  @MethodSource("shapeListVerbs")
  void anUnknownShapeIsRejectedByName(String verb) {
    ActionRejected rejected =
        new VerbHarness(verb).rejected(BOARD, params(verb, "a", "ghost", "c"));
    assertEquals("unknown shape 'ghost'", rejected.getMessage());
  }

  @ParameterizedTest
  @MethodSource("shapeListVerbs")
  void aRecordThatIsNotAShapeIsRejected(String verb) {
    ActionRejected rejected =
        new VerbHarness(verb).rejected(BOARD, params(verb, "a", "shape:notashape", "c"));
    assertEquals("'notashape' is not a shape", rejected.getMessage());
  }

  @ParameterizedTest
  @MethodSource("shapeListVerbs")
  void tenThousandIdsAreRefusedByTheSchemaAndByTheVerb(String verb) {
    String[] many = new String[10_000];
    java.util.Arrays.fill(many, "a");
    VerbHarness harness = new VerbHarness(verb);
    Optional<String> violations = harness.violations(params(verb, many));
    assertTrue(
        violations.isPresent() && violations.get().contains("shapeIds"),
        String.valueOf(violations));
    assertTrue(
        harness.rejectedUnchecked(BOARD, params(verb, many)).getMessage().contains("at most 200"));
  }

  @ParameterizedTest
  @MethodSource("shapeListVerbs")
  void idsThatCannotBeShapeIdsAreRefused(String verb) {
    VerbHarness harness = new VerbHarness(verb);
    assertTrue(harness.violations(params(verb, "a", "no spaces!", "c")).isPresent());
    assertEquals(
        "'no spaces!' is not a shape id",
        harness.rejectedUnchecked(BOARD, params(verb, "a", "no spaces!", "c")).getMessage());

    JsonObject numbers = params(verb, "a").put("shapeIds", new JsonArray().add(1).add(2).add(3));
    assertTrue(harness.violations(numbers).isPresent());
    harness.rejectedUnchecked(BOARD, numbers);

    String megabyte = "x".repeat(1_000_000) + "!";
    assertTrue(
        harness.rejectedUnchecked(BOARD, params(verb, megabyte, "a", "c")).getMessage().length()
            < 200,
        "not echoed back");

    JsonObject notAnArray = params(verb, "a").put("shapeIds", "a");
    assertTrue(harness.violations(notAnArray).isPresent());
    harness.rejectedUnchecked(BOARD, notAnArray);
  }

  @ParameterizedTest
  @MethodSource("shapeListVerbs")
  void referencedShapesAreTheRecordIdsTheActionNeeds(String verb) {
    JsonObject params = params(verb, "a", "shape:b", "a", "not valid!");
    assertEquals(
        Set.of("shape:a", "shape:b"), new VerbHarness(verb).entry.verb().referencedShapes(params));
  }

  @ParameterizedTest
  @ValueSource(strings = {"move", "resize", "rotate", "align", "stack", "reorder"})
  void aRepeatedIdMeansTheShapeOnce(String verb) {
    VerbHarness harness = new VerbHarness(verb);
    JsonObject once = harness.sanitize(BOARD, params(verb, "a", "b")).diff().toJson();
    JsonObject repeated =
        harness.sanitize(BOARD, params(verb, "a", "b", "a", "shape:b")).diff().toJson();
    assertEquals(once, repeated);
  }

  /**
   * A few thousand actions with random values of random types where the schema expects numbers,
   * strings and ids, against a board of every shape type: each ends in a valid diff or a rejection.
   */
  @Test
  void randomHostileParamsEndInAValidDiffOrARejection() {
    Random random = new Random(42);
    List<String> verbs = layoutVerbs();
    List<String> fields =
        List.of(
            "shapeIds",
            "x",
            "y",
            "dx",
            "dy",
            "scaleX",
            "scaleY",
            "originX",
            "originY",
            "degrees",
            "alignment",
            "direction",
            "gap",
            "to",
            "groupId",
            "shapeId",
            "referenceShapeId",
            "side",
            "sideOffset",
            "align",
            "alignOffset");
    int accepted = 0;
    for (int run = 0; run < 3000; run++) {
      String verb = verbs.get(random.nextInt(verbs.size()));
      JsonObject params =
          verb.equals("place")
              ? new JsonObject()
                  .put("shapeId", "a")
                  .put("referenceShapeId", "c")
                  .put("side", "left")
              : params(verb, "a", "b", "c", "t");
      for (int change = random.nextInt(4); change >= 0; change--) {
        params.put(fields.get(random.nextInt(fields.size())), hostileValue(random));
      }
      VerbHarness harness = new VerbHarness(verb);
      try {
        harness.sanitizeUnchecked(BOARD, params);
        accepted++;
      } catch (ActionRejected rejected) {
        assertFalse(rejected.getMessage().isBlank());
      } catch (AssertionError | RuntimeException escaped) {
        throw new AssertionError(verb + " " + params.encode() + ": " + escaped, escaped);
      }
    }
    assertTrue(accepted > 100, "some hostile actions are still made valid, got " + accepted);
  }

  static Object hostileValue(Random random) {
    return switch (random.nextInt(16)) {
      case 0 -> Double.NaN;
      case 1 -> Double.POSITIVE_INFINITY;
      case 2 -> Double.NEGATIVE_INFINITY;
      case 3 -> 1e308;
      case 4 -> -1e308;
      case 5 -> 0;
      case 6 -> -1;
      case 7 -> random.nextGaussian() * 1000;
      case 8 -> "left";
      case 9 -> "";
      case 10 -> new JsonArray().add("a").add("g").add("t");
      case 11 -> new JsonObject().put("x", 1);
      case 12 -> true;
      case 13 -> Long.MAX_VALUE;
      case 14 ->
          List.of("front", "back", "horizontal", "vertical", "top", "center", "end")
              .get(random.nextInt(7));
      default -> VerbHarness.ids("f", "l", "d", "arrow");
    };
  }
}
