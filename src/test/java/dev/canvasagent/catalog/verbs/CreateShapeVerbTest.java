package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.RichText;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code create_shape} as the sanitizer runs it: the verb's JSON Schema first, then the verb turns
 * what passed into one complete tldraw record, or refuses it.
 */
class CreateShapeVerbTest {
  static final ActionCatalog CATALOG = ActionCatalog.standard();
  static final ActionCatalog.Entry CREATE_SHAPE = CATALOG.entry("create_shape").orElseThrow();

  Board board = Board.empty("room-1");

  static Optional<String> violations(JsonObject params) {
    return CREATE_SHAPE.schema().violations(params);
  }

  /** Params that must pass the schema, sanitized against the test's board. */
  SanitizedAction sanitize(JsonObject params) {
    assertEquals(Optional.empty(), violations(params), "the schema accepts " + params.encode());
    SanitizedAction sanitized =
        CREATE_SHAPE
            .verb()
            .sanitize(
                params,
                new dev.canvasagent.catalog.ActionContext(
                    board, dev.canvasagent.board.CoordinateFrame.atOrigin(), true));
    dev.canvasagent.support.TldrawOracle.assertValid(sanitized.diff().put());
    return sanitized;
  }

  JsonObject record(JsonObject params) {
    RecordDiff diff = sanitize(params).diff();
    assertEquals(List.of(), diff.remove());
    assertEquals(1, diff.put().size());
    return diff.put().get(0);
  }

  static JsonObject shape(String type) {
    return new JsonObject().put("type", type).put("x", 10).put("y", 20);
  }

  // The schema

  @Test
  void theSchemaRejectsAnXThatIsNotANumber() {
    Optional<String> violations = violations(shape("rectangle").put("x", "left"));
    assertTrue(violations.isPresent());
    assertTrue(violations.get().contains("#/x"), violations.get());
  }

  @Test
  void theSchemaRejectsAnUnknownTopLevelField() {
    Optional<String> violations = violations(shape("rectangle").put("colour", "blue"));
    assertTrue(violations.isPresent());
    assertTrue(violations.get().contains("colour"), violations.get());
  }

  @Test
  void theSchemaRejectsAMissingType() {
    JsonObject params = shape("rectangle");
    params.remove("type");
    Optional<String> violations = violations(params);
    assertTrue(violations.isPresent());
    assertTrue(violations.get().contains("type"), violations.get());
  }

  @Test
  void theSchemaAcceptsItsOwnExample() {
    JsonObject example = CREATE_SHAPE.schema().document().getJsonArray("examples").getJsonObject(0);
    assertEquals(Optional.empty(), violations(example));
  }

  // Kinds

  @Test
  void aBoxIsAGeoRectangle() {
    JsonObject record = record(shape("box"));
    assertEquals("geo", record.getString("type"));
    assertEquals("rectangle", record.getJsonObject("props").getString("geo"));
  }

  @Test
  void aGeoKindIsAGeoOfThatKind() {
    JsonObject record = record(shape("ellipse"));
    assertEquals("geo", record.getString("type"));
    assertEquals("ellipse", record.getJsonObject("props").getString("geo"));
  }

  @Test
  void aStickyIsANote() {
    assertEquals("note", record(shape("sticky")).getString("type"));
  }

  @Test
  void theNormalizedActionNamesTheTldrawType() {
    JsonObject params = sanitize(shape("sticky")).params();
    assertEquals("note", params.getString("type"));
    assertTrue(params.getString("id").startsWith("shape:"), params.encode());
  }

  @Test
  void anUnknownTypeIsRejected() {
    ActionRejected rejected = assertThrows(ActionRejected.class, () -> sanitize(shape("r")));
    assertTrue(rejected.getMessage().contains("'r'"), rejected.getMessage());
  }

  // Styles and geometry

  @Test
  void aHalfStreamedColorIsDroppedAndTheDefaultKept() {
    JsonObject record = record(shape("rectangle").put("props", new JsonObject().put("color", "r")));
    assertEquals("black", record.getJsonObject("props").getString("color"));
  }

  @Test
  void aTldrawColorIsKept() {
    JsonObject record =
        record(shape("rectangle").put("props", new JsonObject().put("color", "blue")));
    assertEquals("blue", record.getJsonObject("props").getString("color"));
  }

  @Test
  void aStyleTheShapeDoesNotHaveIsDropped() {
    JsonObject record = record(shape("text").put("props", new JsonObject().put("fill", "solid")));
    assertFalse(record.getJsonObject("props").containsKey("fill"), record.encode());
  }

  @Test
  void sizesAreClampedToOneAndOneHundredThousand() {
    JsonObject small =
        record(shape("rectangle").put("props", new JsonObject().put("w", 0).put("h", -50)));
    assertEquals(1.0, small.getJsonObject("props").getDouble("w"));
    assertEquals(1.0, small.getJsonObject("props").getDouble("h"));

    JsonObject large =
        record(shape("rectangle").put("props", new JsonObject().put("w", 1e9).put("h", 100_001)));
    assertEquals(100_000.0, large.getJsonObject("props").getDouble("w"));
    assertEquals(100_000.0, large.getJsonObject("props").getDouble("h"));

    JsonObject inRange =
        record(shape("rectangle").put("props", new JsonObject().put("w", 320).put("h", 160)));
    assertEquals(320.0, inRange.getJsonObject("props").getDouble("w"));
    assertEquals(160.0, inRange.getJsonObject("props").getDouble("h"));
  }

  @Test
  void coordinatesAreClampedToAMillionEitherWay() {
    JsonObject far = record(shape("rectangle").put("x", 5e6).put("y", -5e6));
    assertEquals(1_000_000.0, far.getDouble("x"));
    assertEquals(-1_000_000.0, far.getDouble("y"));

    JsonObject farLeft = record(shape("rectangle").put("x", -1e12));
    assertEquals(-1_000_000.0, farLeft.getDouble("x"));
  }

  // Ids

  @Test
  void aRequestedIdIsUsed() {
    assertEquals("shape:title", record(shape("rectangle").put("id", "title")).getString("id"));
  }

  @Test
  void aRequestedIdThatIsAlreadyOnTheBoardIsRejected() {
    board = board.apply(RecordDiff.putting(record(shape("rectangle").put("id", "title"))), 1);

    ActionRejected rejected =
        assertThrows(ActionRejected.class, () -> sanitize(shape("sticky").put("id", "title")));
    assertTrue(rejected.getMessage().contains("title"), rejected.getMessage());
  }

  @Test
  void withoutARequestedIdEachShapeGetsANewOne() {
    assertFalse(
        record(shape("rectangle"))
            .getString("id")
            .equals(record(shape("rectangle")).getString("id")));
  }

  // The record

  @Test
  void theRecordHasEveryRequiredTopLevelFieldAndRichTextInsteadOfText() {
    JsonObject record = record(shape("rectangle").put("text", "Roadmap\nQ3"));

    assertEquals(
        Set.of(
            "id",
            "typeName",
            "type",
            "x",
            "y",
            "rotation",
            "index",
            "parentId",
            "isLocked",
            "opacity",
            "props",
            "meta"),
        record.fieldNames());
    assertEquals("shape", record.getString("typeName"));
    assertEquals("geo", record.getString("type"));
    assertEquals(10.0, record.getDouble("x"));
    assertEquals(20.0, record.getDouble("y"));
    assertEquals(0.0, record.getDouble("rotation"));
    assertTrue(FractionalIndex.isValid(record.getString("index")));
    assertEquals("page:page", record.getString("parentId"));
    assertEquals(false, record.getBoolean("isLocked"));
    assertEquals(1.0, record.getDouble("opacity"));
    assertEquals(new JsonObject(), record.getJsonObject("meta"));

    JsonObject props = record.getJsonObject("props");
    assertFalse(props.containsKey("text"), "tldraw 5 has no text prop");
    assertEquals(RichText.of("Roadmap\nQ3"), props.getJsonObject("richText"));
  }

  @Test
  void textAndNoteRecordsCarryRichTextToo() {
    for (String type : List.of("text", "note")) {
      JsonObject props = record(shape(type).put("text", "hello")).getJsonObject("props");
      assertFalse(props.containsKey("text"), type);
      assertEquals("hello", RichText.plainText(props.getJsonObject("richText")), type);
    }
  }

  @Test
  void successiveShapesGetIncreasingIndexes() {
    List<String> indexes = new ArrayList<>();
    for (int revision = 1; revision <= 5; revision++) {
      JsonObject record = record(shape("rectangle"));
      indexes.add(record.getString("index"));
      board = board.apply(RecordDiff.putting(record), revision);
    }

    for (int i = 1; i < indexes.size(); i++) {
      assertTrue(indexes.get(i - 1).compareTo(indexes.get(i)) < 0, indexes.toString());
    }
    assertEquals("a0", indexes.get(0), "the first shape on an empty page");
  }

  @Test
  void theVerbChangesTheBoard() {
    assertEquals(dev.canvasagent.catalog.VerbKind.BOARD, CREATE_SHAPE.verb().kind());
  }
}
