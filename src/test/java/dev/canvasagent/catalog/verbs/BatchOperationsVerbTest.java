package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RichText;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.batch.LayoutDirective;
import dev.canvasagent.catalog.batch.LayoutMetrics;
import dev.canvasagent.support.RecordAssertions;
import dev.canvasagent.support.TestShapes;
import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code batch_operations} as the sanitizer runs it: the schema (refs, the five operations, the
 * layout directives, 1 to 50 operations, color aliases) and the resolver's records (the ref map and
 * its skips, templates and arrangements, frames fitted to their children). Every diff is checked
 * with tldraw's own schema and keeps the board whole.
 */
class BatchOperationsVerbTest {
  static final ActionCatalog.Entry BATCH =
      ActionCatalog.standard().entry("batch_operations").orElseThrow();
  static final double EPSILON = 1e-6;

  Board board = Board.empty("room-1");
  CoordinateFrame frame = CoordinateFrame.atOrigin();

  // Building params

  static JsonObject op(String op, String ref, Object... keyValues) {
    JsonObject operation = new JsonObject().put("op", op).put("ref", ref);
    for (int i = 0; i < keyValues.length; i += 2) {
      operation.put((String) keyValues[i], keyValues[i + 1]);
    }
    return operation;
  }

  static JsonObject note(String ref, String text, Object... more) {
    return op("createNote", ref, append(more, "text", text));
  }

  static JsonObject frameOp(String ref, String name, Object... more) {
    return op("createFrame", ref, append(more, "name", name));
  }

  static JsonObject shapeOp(String ref, String text) {
    return op("createShape", ref, "text", text);
  }

  static JsonObject connector(String ref, String from, String to) {
    return op("createConnector", ref, "fromRef", from, "toRef", to);
  }

  static Object[] append(Object[] keyValues, String key, Object value) {
    Object[] all = java.util.Arrays.copyOf(keyValues, keyValues.length + 2);
    all[keyValues.length] = key;
    all[keyValues.length + 1] = value;
    return all;
  }

  static JsonObject batch(JsonObject... operations) {
    return new JsonObject().put("operations", new JsonArray(List.of((Object[]) operations)));
  }

  static JsonObject batch(String directive, JsonObject... operations) {
    return batch(operations).put("layoutDirective", directive);
  }

  static Optional<String> violations(JsonObject params) {
    return BATCH.schema().violations(params);
  }

  // Running it

  /** Params the schema accepts, sanitized; the diff checked by tldraw and against the board. */
  SanitizedAction sanitize(JsonObject params) {
    assertEquals(Optional.empty(), violations(params), "the schema accepts " + params.encode());
    SanitizedAction action = BATCH.verb().sanitize(params, new ActionContext(board, frame, false));
    Board next = board.apply(action.diff(), board.revision() + 1);
    action.diff().put().stream()
        .filter(record -> "shape".equals(record.getString("typeName")))
        .forEach(record -> RecordAssertions.assertValidShape(record, next));
    TldrawOracle.assertValid(action.diff().put());
    assertEquals(Optional.empty(), BoardIntegrity.problem(board, action.diff()));
    assertEquals(List.of(), action.diff().remove());
    return action;
  }

  /** The board after the batch: one diff, so one revision. */
  Board apply(JsonObject params) {
    return board.apply(sanitize(params).diff(), board.revision() + 1);
  }

  static List<JsonObject> shapes(Board board, String type) {
    return board.records().values().stream()
        .filter(
            record ->
                "shape".equals(record.getString("typeName"))
                    && type.equals(record.getString("type")))
        .toList();
  }

  static List<JsonObject> bindings(Board board) {
    return board.records().values().stream()
        .filter(record -> "binding".equals(record.getString("typeName")))
        .toList();
  }

  static String text(JsonObject shape) {
    return RichText.plainText(shape.getJsonObject("props").getJsonObject("richText"));
  }

  static Box bounds(Board board, JsonObject shape) {
    return new ShapeGeometry(board).pageBounds(shape.getString("id")).orElseThrow();
  }

  static JsonObject byText(Board board, String type, String text) {
    return shapes(board, type).stream()
        .filter(
            shape ->
                "frame".equals(type)
                    ? text.equals(shape.getJsonObject("props").getString("name"))
                    : text.equals(text(shape)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " '" + text + "'"));
  }

  static List<JsonObject> childrenOf(Board board, JsonObject parent) {
    return board.records().values().stream()
        .filter(record -> parent.getString("id").equals(record.getString("parentId")))
        .toList();
  }

  static JsonObject result(SanitizedAction action) {
    return action.params().getJsonObject("result");
  }

  // The schema

  @Test
  void theSchemaRejectsAnEmptyOperationsArray() {
    assertTrue(violations(batch()).isPresent());
    assertTrue(violations(new JsonObject()).isPresent(), "operations is required");
  }

  @Test
  void theSchemaMaximumIsTheNamedConstant() {
    assertEquals(
        BatchOperationsVerb.MAX_OPERATIONS,
        BATCH
            .schema()
            .document()
            .getJsonObject("properties")
            .getJsonObject("operations")
            .getInteger("maxItems"));
    assertTrue(
        BATCH
            .schema()
            .document()
            .getString("description")
            .contains("At most " + BatchOperationsVerb.MAX_OPERATIONS + " operations"));
  }

  @Test
  void theSchemaAcceptsOneToFiftyOperationsAndRejectsMore() {
    JsonObject[] notes = new JsonObject[BatchOperationsVerb.MAX_OPERATIONS + 1];
    for (int i = 0; i < notes.length; i++) {
      notes[i] = note("note_" + i, "n" + i);
    }
    assertEquals(Optional.empty(), violations(batch(notes[0])));
    assertEquals(
        Optional.empty(),
        violations(batch(java.util.Arrays.copyOf(notes, BatchOperationsVerb.MAX_OPERATIONS))));
    assertTrue(violations(batch(notes)).isPresent());
    ActionRejected rejected =
        assertThrows(
            ActionRejected.class,
            () -> BATCH.verb().sanitize(batch(notes), new ActionContext(board, frame, false)),
            "the verb holds the limit too");
    assertTrue(
        rejected.getMessage().contains("at most " + BatchOperationsVerb.MAX_OPERATIONS),
        rejected.getMessage());
  }

  @Test
  void eachOperationTypeIsAcceptedWithValidFields() {
    assertEquals(
        Optional.empty(),
        violations(
            batch(
                    frameOp("frame_a", "A", "color", "blue", "w", 400, "h", 300),
                    note("note_a", "hello", "color", "yellow", "parentRef", "frame_a"),
                    op(
                        "createShape",
                        "shape_a",
                        "geo",
                        "ellipse",
                        "text",
                        "step",
                        "color",
                        "red",
                        "w",
                        120,
                        "h",
                        80),
                    op("createText", "text_a", "text", "words", "color", "black"),
                    op(
                        "createConnector",
                        "conn_a",
                        "fromRef",
                        "shape_a",
                        "toRef",
                        "text_a",
                        "label",
                        "next",
                        "color",
                        "grey"))
                .put("layoutDirective", "freeform")
                .put("title", "All five")));
    assertEquals(
        Optional.empty(),
        violations(batch(op("createShape", "shape_b"))),
        "a shape needs only its ref");
  }

  @Test
  void theRefRejectsEmptyShortUppercaseAndLongStrings() {
    for (String ref : List.of("", "a", "Note_A", "note-a", "note a", "x".repeat(41))) {
      assertTrue(violations(batch(note(ref, "t"))).isPresent(), "'" + ref + "'");
    }
    assertEquals(Optional.empty(), violations(batch(note("ab", "t"))));
    assertEquals(Optional.empty(), violations(batch(note("x".repeat(40), "t"))));
    assertTrue(
        violations(batch(note("note_a", "t", "parentRef", "A"))).isPresent(),
        "parentRef is a ref too");
  }

  @Test
  void eachOperationRequiresItsFields() {
    assertTrue(
        violations(batch(op("createConnector", "conn", "toRef", "ab"))).isPresent(), "fromRef");
    assertTrue(
        violations(batch(op("createConnector", "conn", "fromRef", "ab"))).isPresent(), "toRef");
    assertTrue(violations(batch(op("createFrame", "frame_a"))).isPresent(), "a frame's name");
    assertTrue(violations(batch(op("createNote", "note_a"))).isPresent(), "a note's text");
    assertTrue(violations(batch(op("createText", "text_a"))).isPresent(), "a text's text");
    assertTrue(violations(batch(op("createCircle", "c1"))).isPresent(), "an unknown op");
    assertTrue(
        violations(batch(note("note_a", "t", "colour", "red"))).isPresent(), "an unknown field");
  }

  @Test
  void layoutDirectiveAcceptsItsEightValuesAndRejectsOthers() {
    assertEquals(8, LayoutDirective.values().length);
    for (String directive : LayoutDirective.wireNames()) {
      assertEquals(Optional.empty(), violations(batch(directive, note("note_a", "t"))), directive);
    }
    assertTrue(violations(batch("mindmap", note("note_a", "t"))).isPresent());
    assertTrue(violations(batch("SWOT", note("note_a", "t"))).isPresent());
  }

  @Test
  void theSchemaAcceptsItsOwnExample() {
    assertEquals(
        Optional.empty(),
        violations(BATCH.schema().document().getJsonArray("examples").getJsonObject(0)));
  }

  @Test
  void colorAliasesArePreprocessedOnEveryColorField() {
    SanitizedAction action =
        sanitize(
            batch(
                frameOp("frame_a", "A", "color", "purple"),
                note("note_a", "n", "color", "purple", "parentRef", "frame_a"),
                op("createShape", "shape_a", "color", "pink"),
                op("createText", "text_a", "text", "t", "color", "gray"),
                op(
                    "createConnector",
                    "conn_a",
                    "fromRef",
                    "shape_a",
                    "toRef",
                    "text_a",
                    "color",
                    "Purple")));
    Board next = board.apply(action.diff(), 2);
    assertEquals("violet", shapes(next, "frame").get(0).getJsonObject("props").getString("color"));
    assertEquals("violet", shapes(next, "note").get(0).getJsonObject("props").getString("color"));
    assertEquals("light-red", shapes(next, "geo").get(0).getJsonObject("props").getString("color"));
    assertEquals("grey", shapes(next, "text").get(0).getJsonObject("props").getString("color"));
    assertEquals("violet", shapes(next, "arrow").get(0).getJsonObject("props").getString("color"));
    List<String> normalized =
        action.params().getJsonArray("operations").stream()
            .map(operation -> ((JsonObject) operation).getString("color"))
            .toList();
    assertEquals(
        List.of("violet", "violet", "light-red", "grey", "violet"),
        normalized,
        "the published params say it too");
  }

  // The resolver's records

  @Test
  void aSingleNoteMakesExactlyOneNote() {
    SanitizedAction action = sanitize(batch(note("note_hello", "Hello")));
    assertEquals(1, action.diff().put().size());
    JsonObject record = action.diff().put().get(0);
    assertEquals("note", record.getString("type"));
    assertEquals("Hello", text(record));
    assertTrue(record.getString("id").startsWith("shape:ag:"), record.getString("id"));
    assertEquals(
        record.getString("id").substring("shape:".length()),
        result(action).getJsonObject("shapes").getString("note_hello"),
        "the result tells the model each ref's shape id");
    assertEquals(new JsonArray(), result(action).getJsonArray("skipped"));
  }

  @Test
  void threeUnrelatedNotesSitInARow() {
    Board next = apply(batch(note("note_a", "A"), note("note_b", "B"), note("note_c", "C")));
    List<Box> boxes =
        shapes(next, "note").stream()
            .map(note -> bounds(next, note))
            .sorted(Comparator.comparingDouble(Box::minX))
            .toList();
    assertEquals(3, boxes.size());
    for (int i = 1; i < boxes.size(); i++) {
      assertEquals(boxes.get(0).minY(), boxes.get(i).minY(), EPSILON, "one row");
      assertEquals(
          boxes.get(i - 1).maxX() + LayoutMetrics.FRAME_GAP,
          boxes.get(i).minX(),
          EPSILON,
          "FRAME_GAP apart");
    }
    assertEquals(
        List.of("A", "B", "C"),
        shapes(next, "note").stream()
            .sorted(Comparator.comparingDouble(note -> note.getDouble("x")))
            .map(BatchOperationsVerbTest::text)
            .toList(),
        "in operation order");
  }

  @Test
  void aChildIsInsideItsFrameInLocalCoordinates() {
    Board next =
        apply(
            batch(
                frameOp("frame_ideas", "Ideas"),
                note("note_one", "One", "parentRef", "frame_ideas"),
                note("note_two", "Two", "parentRef", "frame_ideas")));
    JsonObject frameRecord = byText(next, "frame", "Ideas");
    List<JsonObject> notes = childrenOf(next, frameRecord);
    assertEquals(2, notes.size());
    JsonObject one = byText(next, "note", "One");
    JsonObject two = byText(next, "note", "Two");
    assertEquals(frameRecord.getString("id"), one.getString("parentId"));
    assertEquals(LayoutMetrics.NOTE_PADDING, one.getDouble("x"), EPSILON);
    assertEquals(
        LayoutMetrics.FRAME_HEADER + LayoutMetrics.NOTE_PADDING, one.getDouble("y"), EPSILON);
    assertEquals(
        LayoutMetrics.FRAME_HEADER
            + LayoutMetrics.NOTE_PADDING
            + LayoutMetrics.NOTE_H
            + LayoutMetrics.NOTE_GAP,
        two.getDouble("y"),
        EPSILON,
        "the second child under the first, NOTE_GAP apart");
    assertTrue(one.getString("index").compareTo(two.getString("index")) < 0);
  }

  @Test
  void aFrameIsFittedToItsChildren() {
    Board next =
        apply(
            batch(
                frameOp("frame_todo", "To do", "w", 900, "h", 100),
                note("note_a", "a", "parentRef", "frame_todo"),
                note("note_b", "b", "parentRef", "frame_todo"),
                note("note_c", "c", "parentRef", "frame_todo"),
                frameOp("frame_empty", "Empty")));
    JsonObject props = byText(next, "frame", "To do").getJsonObject("props");
    assertEquals(LayoutMetrics.COL_W, props.getDouble("w"), EPSILON);
    double height =
        LayoutMetrics.FRAME_HEADER
            + 2 * LayoutMetrics.NOTE_PADDING
            + 3 * LayoutMetrics.NOTE_H
            + 2 * LayoutMetrics.NOTE_GAP;
    assertEquals(height, props.getDouble("h"), EPSILON);
    JsonObject empty = byText(next, "frame", "Empty").getJsonObject("props");
    assertEquals(
        LayoutMetrics.FRAME_DEFAULT_SIZE,
        empty.getDouble("w"),
        EPSILON,
        "no children: the default size stays");
    assertEquals(LayoutMetrics.FRAME_DEFAULT_SIZE, empty.getDouble("h"), EPSILON);
  }

  @Test
  void aConnectorIsAnArrowBoundToBothShapesWithItsLabel() {
    SanitizedAction action =
        sanitize(
            batch(
                shapeOp("step_start", "Start"),
                shapeOp("step_end", "End"),
                op(
                    "createConnector",
                    "conn_go",
                    "fromRef",
                    "step_start",
                    "toRef",
                    "step_end",
                    "label",
                    "go")));
    Board next = board.apply(action.diff(), 2);
    JsonObject arrow = shapes(next, "arrow").get(0);
    assertEquals("go", text(arrow), "the label as rich text");
    Map<String, String> ends =
        bindings(next).stream()
            .collect(
                Collectors.toMap(
                    binding -> binding.getJsonObject("props").getString("terminal"),
                    binding -> binding.getString("toId")));
    assertEquals(
        Map.of(
            "start",
            byText(next, "geo", "Start").getString("id"),
            "end",
            byText(next, "geo", "End").getString("id")),
        ends);
    bindings(next)
        .forEach(binding -> assertEquals(arrow.getString("id"), binding.getString("fromId")));
    Box start = bounds(next, byText(next, "geo", "Start"));
    assertEquals(
        start.centerX(), arrow.getDouble("x"), EPSILON, "the arrow starts at its source's center");
    assertTrue(
        arrow.getString("index").compareTo(byText(next, "geo", "End").getString("index")) > 0,
        "above the shapes");
  }

  @Test
  void aDuplicateRefSkipsTheSecondOperationAndSaysSo() {
    SanitizedAction action = sanitize(batch(note("note_a", "first"), note("note_a", "second")));
    Board next = board.apply(action.diff(), 2);
    assertEquals(
        List.of("first"),
        shapes(next, "note").stream().map(BatchOperationsVerbTest::text).toList());
    JsonObject skipped = result(action).getJsonArray("skipped").getJsonObject(0);
    assertEquals(1, skipped.getInteger("index"));
    assertEquals("note_a", skipped.getString("ref"));
    assertTrue(skipped.getString("reason").contains("duplicate ref 'note_a'"), skipped.encode());
  }

  @Test
  void aMissingParentRefMakesTheObjectTopLevelAndSaysSo() {
    SanitizedAction action =
        sanitize(batch(note("note_a", "orphan", "parentRef", "frame_nowhere")));
    JsonObject record = action.diff().put().get(0);
    assertEquals("page:page", record.getString("parentId"));
    JsonObject issue = result(action).getJsonArray("placedTopLevel").getJsonObject(0);
    assertEquals("note_a", issue.getString("ref"));
    assertTrue(issue.getString("reason").contains("frame_nowhere"), issue.encode());
  }

  @Test
  void aParentRefToANoteMakesTheObjectTopLevel() {
    SanitizedAction action =
        sanitize(batch(note("note_a", "a"), note("note_b", "b", "parentRef", "note_a")));
    action.diff().put().forEach(record -> assertEquals("page:page", record.getString("parentId")));
    assertTrue(
        result(action)
            .getJsonArray("placedTopLevel")
            .getJsonObject(0)
            .getString("reason")
            .contains("not a frame"));
  }

  @Test
  void aConnectorWithAMissingRefIsSkipped() {
    SanitizedAction action =
        sanitize(
            batch(
                shapeOp("step_a", "A"),
                connector("conn_a", "step_ghost", "step_a"),
                connector("conn_b", "step_a", "step_ghost"),
                connector("conn_self", "step_a", "step_a")));
    Board next = board.apply(action.diff(), 2);
    assertEquals(List.of(), shapes(next, "arrow"));
    assertEquals(List.of(), bindings(next));
    JsonArray skipped = result(action).getJsonArray("skipped");
    assertEquals(
        List.of("conn_a", "conn_b", "conn_self"),
        skipped.stream().map(issue -> ((JsonObject) issue).getString("ref")).toList());
    assertTrue(
        skipped.getJsonObject(0).getString("reason").contains("fromRef 'step_ghost'"),
        skipped.encode());
    assertTrue(
        skipped.getJsonObject(1).getString("reason").contains("toRef 'step_ghost'"),
        skipped.encode());
  }

  @Test
  void aConnectorEndCannotBeAnotherConnector() {
    SanitizedAction action =
        sanitize(
            batch(
                shapeOp("step_a", "A"),
                shapeOp("step_b", "B"),
                connector("conn_a", "step_a", "step_b"),
                connector("conn_b", "conn_a", "step_b")));
    assertEquals(1, shapes(board.apply(action.diff(), 2), "arrow").size());
    assertEquals(
        "conn_b", result(action).getJsonArray("skipped").getJsonObject(0).getString("ref"));
  }

  @Test
  void emptyAndInvalidRefsThatPassNoSchemaAreStillSkippedByTheResolver() {
    JsonObject params = batch(note("", "empty"), note("A", "short"), note("note_ok", "fine"));
    SanitizedAction action = BATCH.verb().sanitize(params, new ActionContext(board, frame, false));
    assertEquals(1, action.diff().put().size());
    List<String> reasons =
        result(action).getJsonArray("skipped").stream()
            .map(issue -> ((JsonObject) issue).getString("reason"))
            .toList();
    assertTrue(
        reasons.get(0).contains("empty ref") && reasons.get(1).contains("invalid ref 'A'"),
        reasons.toString());
  }

  @Test
  void aBatchWhoseEveryOperationIsSkippedIsRejectedWithTheReasons() {
    ActionRejected rejected =
        assertThrows(
            ActionRejected.class,
            () ->
                BATCH
                    .verb()
                    .sanitize(
                        batch(connector("conn_a", "step_a", "step_b")),
                        new ActionContext(board, frame, false)));
    assertTrue(rejected.getMessage().contains("fromRef 'step_a'"), rejected.getMessage());
  }

  @Test
  void swotMakesFourFramesInTwoByTwoEachHoldingItsNotes() {
    SanitizedAction action = sanitize(swot());
    Board next = board.apply(action.diff(), 2);
    assertEquals(4, shapes(next, "frame").size());
    Box strengths = bounds(next, byText(next, "frame", "Strengths"));
    Box weaknesses = bounds(next, byText(next, "frame", "Weaknesses"));
    Box opportunities = bounds(next, byText(next, "frame", "Opportunities"));
    Box threats = bounds(next, byText(next, "frame", "Threats"));
    assertEquals(strengths.minY(), weaknesses.minY(), EPSILON, "the top pair share y");
    assertEquals(opportunities.minY(), threats.minY(), EPSILON, "the bottom pair share y");
    assertEquals(strengths.minX(), opportunities.minX(), EPSILON, "the left pair share x");
    assertEquals(weaknesses.minX(), threats.minX(), EPSILON, "the right pair share x");
    assertTrue(
        strengths.maxX() < weaknesses.minX() && strengths.maxY() < opportunities.minY(), "apart");
    assertEquals(
        Map.of("Strengths", 2, "Weaknesses", 1, "Opportunities", 1, "Threats", 1),
        shapes(next, "frame").stream()
            .collect(
                Collectors.toMap(
                    frame -> frame.getJsonObject("props").getString("name"),
                    frame -> childrenOf(next, frame).size())));
    for (JsonObject note : shapes(next, "note")) {
      JsonObject parent = next.record(note.getString("parentId")).orElseThrow();
      Box inside = bounds(next, note);
      Box outside = bounds(next, parent);
      assertTrue(
          inside.minX() >= outside.minX()
              && inside.maxX() <= outside.maxX()
              && inside.minY() >= outside.minY()
              && inside.maxY() <= outside.maxY(),
          "each note inside its frame");
    }
    assertEquals(
        "green",
        byText(next, "note", "Brand").getJsonObject("props").getString("color"),
        "SWOT colors by quadrant");
    assertEquals("red", byText(next, "note", "Cost").getJsonObject("props").getString("color"));
    assertEquals(
        "violet",
        byText(next, "note", "Market").getJsonObject("props").getString("color"),
        "a note's own color wins");
    assertEquals("Launch SWOT", text(shapes(next, "text").get(0)), "the title");
    assertTrue(
        bounds(next, shapes(next, "text").get(0)).maxY() <= strengths.minY(), "above the frames");
  }

  static JsonObject swot() {
    return batch(
            "swot-2x2",
            frameOp("frame_strengths", "Strengths"),
            frameOp("frame_weaknesses", "Weaknesses"),
            frameOp("frame_opportunities", "Opportunities"),
            frameOp("frame_threats", "Threats"),
            note("note_brand", "Brand", "parentRef", "frame_strengths"),
            note("note_team", "Team", "parentRef", "frame_strengths"),
            note("note_cost", "Cost", "parentRef", "frame_weaknesses"),
            note("note_market", "Market", "parentRef", "frame_opportunities", "color", "purple"),
            note("note_rival", "Rival", "parentRef", "frame_threats"))
        .put("title", "Launch SWOT");
  }

  @Test
  void columnsPutTheFramesLeftToRight() {
    Board next =
        apply(
            batch(
                "columns",
                frameOp("col_todo", "To do"),
                frameOp("col_doing", "Doing"),
                frameOp("col_done", "Done"),
                note("note_a", "a", "parentRef", "col_todo"),
                note("note_b", "b", "parentRef", "col_todo"),
                note("note_c", "c", "parentRef", "col_done")));
    List<Box> columns =
        List.of("To do", "Doing", "Done").stream()
            .map(name -> bounds(next, byText(next, "frame", name)))
            .toList();
    for (int i = 1; i < columns.size(); i++) {
      assertTrue(columns.get(i - 1).maxX() < columns.get(i).minX(), "ascending x");
      assertEquals(columns.get(0).minY(), columns.get(i).minY(), EPSILON, "one row");
      assertEquals(columns.get(0).height(), columns.get(i).height(), EPSILON, "equal columns");
    }
    assertEquals(2, childrenOf(next, byText(next, "frame", "To do")).size());
  }

  @Test
  void journeyStagesAreLinkedByArrowsBoundToConsecutiveFrames() {
    SanitizedAction action =
        sanitize(
            batch(
                "journey-stages",
                frameOp("stage_discover", "Discover"),
                frameOp("stage_try", "Try"),
                frameOp("stage_buy", "Buy"),
                note("note_ad", "Sees an ad", "parentRef", "stage_discover")));
    Board next = board.apply(action.diff(), 2);
    List<JsonObject> stages =
        List.of("Discover", "Try", "Buy").stream()
            .map(name -> byText(next, "frame", name))
            .toList();
    for (int i = 1; i < stages.size(); i++) {
      assertTrue(
          bounds(next, stages.get(i - 1)).maxX() < bounds(next, stages.get(i)).minX(),
          "left to right");
    }
    List<JsonObject> arrows = shapes(next, "arrow");
    assertEquals(2, arrows.size());
    Set<List<String>> links =
        arrows.stream()
            .map(arrow -> List.of(end(next, arrow, "start"), end(next, arrow, "end")))
            .collect(Collectors.toSet());
    assertEquals(
        Set.of(
            List.of(stages.get(0).getString("id"), stages.get(1).getString("id")),
            List.of(stages.get(1).getString("id"), stages.get(2).getString("id"))),
        links);
  }

  static String end(Board board, JsonObject arrow, String terminal) {
    return bindings(board).stream()
        .filter(binding -> binding.getString("fromId").equals(arrow.getString("id")))
        .filter(binding -> terminal.equals(binding.getJsonObject("props").getString("terminal")))
        .map(binding -> binding.getString("toId"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void gridPutsFourShapesInTwoByTwo() {
    Board next =
        apply(
            batch(
                "grid",
                shapeOp("box_a", "A"),
                shapeOp("box_b", "B"),
                shapeOp("box_c", "C"),
                shapeOp("box_d", "D")));
    Box a = bounds(next, byText(next, "geo", "A"));
    Box b = bounds(next, byText(next, "geo", "B"));
    Box c = bounds(next, byText(next, "geo", "C"));
    Box d = bounds(next, byText(next, "geo", "D"));
    assertEquals(a.minY(), b.minY(), EPSILON);
    assertEquals(c.minY(), d.minY(), EPSILON);
    assertEquals(a.minX(), c.minX(), EPSILON);
    assertEquals(b.minX(), d.minX(), EPSILON);
    assertEquals(a.maxX() + LayoutMetrics.FRAME_GAP, b.minX(), EPSILON);
    assertEquals(a.maxY() + LayoutMetrics.FRAME_GAP, c.minY(), EPSILON);
  }

  @Test
  void flowchartTopDownPutsRootsAboveWhatDependsOnThem() {
    Board next =
        apply(
            batch(
                "flowchart-top-down",
                shapeOp("step_start", "Start"),
                shapeOp("step_check", "Check"),
                shapeOp("step_yes", "Yes"),
                shapeOp("step_no", "No"),
                shapeOp("step_end", "End"),
                connector("conn_1", "step_start", "step_check"),
                connector("conn_2", "step_check", "step_yes"),
                connector("conn_3", "step_check", "step_no"),
                connector("conn_4", "step_yes", "step_end"),
                connector("conn_5", "step_start", "step_end")));
    Box start = bounds(next, byText(next, "geo", "Start"));
    Box check = bounds(next, byText(next, "geo", "Check"));
    Box yes = bounds(next, byText(next, "geo", "Yes"));
    Box no = bounds(next, byText(next, "geo", "No"));
    Box end = bounds(next, byText(next, "geo", "End"));
    assertTrue(
        start.maxY() < check.minY() && check.maxY() < yes.minY(), "each tier below its source");
    assertEquals(yes.minY(), no.minY(), EPSILON, "siblings share a tier");
    assertTrue(
        yes.maxY() < end.minY(), "End sits one tier below its deepest source, not below Start");
    assertEquals(
        start.centerX(), check.centerX(), EPSILON, "a lone node is centred on the widest tier");
    assertEquals((yes.minX() + no.maxX()) / 2, start.centerX(), EPSILON);
    assertEquals(5, shapes(next, "arrow").size());
  }

  @Test
  void flowchartWithACycleEndsAndStillLaysOutEveryNode() {
    Board next =
        apply(
            batch(
                "flowchart-top-down",
                shapeOp("step_a", "A"),
                shapeOp("step_b", "B"),
                shapeOp("step_c", "C"),
                connector("conn_ab", "step_a", "step_b"),
                connector("conn_bc", "step_b", "step_c"),
                connector("conn_ca", "step_c", "step_a")));
    Box a = bounds(next, byText(next, "geo", "A"));
    Box b = bounds(next, byText(next, "geo", "B"));
    Box c = bounds(next, byText(next, "geo", "C"));
    assertTrue(
        a.maxY() < b.minY() && b.maxY() < c.minY(),
        "the cycle is cut at the edge back to A, the first node");
    assertEquals(3, shapes(next, "arrow").size(), "every connector is still drawn");
  }

  @Test
  void flowchartLeftRightPutsRootsLeftOfWhatDependsOnThem() {
    Board next =
        apply(
            batch(
                "flowchart-left-right",
                shapeOp("step_a", "A"),
                shapeOp("step_b", "B"),
                connector("conn_ab", "step_a", "step_b")));
    Box a = bounds(next, byText(next, "geo", "A"));
    Box b = bounds(next, byText(next, "geo", "B"));
    assertTrue(a.maxX() < b.minX());
    assertEquals(a.minY(), b.minY(), EPSILON);
  }

  @Test
  void operationsWithoutAColorGetTheDefaults() {
    Board next =
        apply(
            batch(
                note("note_a", "a"),
                shapeOp("shape_a", "s"),
                op("createText", "text_a", "text", "t")));
    assertEquals("yellow", shapes(next, "note").get(0).getJsonObject("props").getString("color"));
    JsonObject geo = shapes(next, "geo").get(0).getJsonObject("props");
    assertEquals("black", geo.getString("color"));
    assertEquals("solid", geo.getString("fill"));
    assertEquals("rectangle", geo.getString("geo"));
    assertEquals(LayoutMetrics.SHAPE_DEFAULT_SIZE, geo.getDouble("w"), EPSILON);
    assertEquals("black", shapes(next, "text").get(0).getJsonObject("props").getString("color"));
  }

  @Test
  void anUnknownColorKeepsTheDefault() {
    Board next = apply(batch(note("note_a", "a", "color", "chartreuse-ish")));
    assertEquals("yellow", shapes(next, "note").get(0).getJsonObject("props").getString("color"));
  }

  @Test
  void onAnEmptyBoardTheGroupStartsNearTheViewport() {
    frame = new CoordinateFrame(1000, 500, Map.of());
    Board next = apply(batch(note("note_a", "a")));
    JsonObject record = shapes(next, "note").get(0);
    assertEquals(1040, record.getDouble("x"), EPSILON);
    assertEquals(540, record.getDouble("y"), EPSILON);
  }

  @Test
  void theGroupIsPlacedClearOfShapesAlreadyOnTheBoard() {
    board =
        TestShapes.board(TestShapes.geo("big", 0, 0, 900, 700), TestShapes.note("sticky", 950, 30));
    SanitizedAction action = sanitize(swot());
    Board next = board.apply(action.diff(), 2);
    Box group =
        action.diff().put().stream()
            .filter(record -> "shape".equals(record.getString("typeName")))
            .filter(record -> "page:page".equals(record.getString("parentId")))
            .map(record -> bounds(next, record))
            .reduce(Box::union)
            .orElseThrow();
    for (String existing : List.of("shape:big", "shape:sticky")) {
      Box taken = new ShapeGeometry(board).pageBounds(existing).orElseThrow();
      boolean apart =
          group.maxX() <= taken.minX()
              || taken.maxX() <= group.minX()
              || group.maxY() <= taken.minY()
              || taken.maxY() <= group.minY();
      assertTrue(apart, "the batch " + group + " keeps clear of " + existing + " " + taken);
    }
  }

  @Test
  void nestedFramesKeepTheirChildrenAndGrowToHoldThem() {
    Board next =
        apply(
            batch(
                frameOp("frame_outer", "Outer"),
                frameOp("frame_inner", "Inner", "parentRef", "frame_outer"),
                note("note_deep", "deep", "parentRef", "frame_inner")));
    JsonObject outer = byText(next, "frame", "Outer");
    JsonObject inner = byText(next, "frame", "Inner");
    assertEquals(outer.getString("id"), inner.getString("parentId"));
    assertEquals(inner.getString("id"), byText(next, "note", "deep").getString("parentId"));
    Box innerBox = bounds(next, inner);
    Box outerBox = bounds(next, outer);
    assertTrue(
        innerBox.maxX() <= outerBox.maxX() && innerBox.maxY() <= outerBox.maxY(),
        outerBox + " holds " + innerBox);
  }
}
