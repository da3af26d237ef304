package dev.canvasagent.catalog.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ref map, what is skipped, and every issue naming the ref that caused it. */
class RefResolverTest {
  static JsonObject op(String op, String ref, String... keyValues) {
    JsonObject operation = new JsonObject().put("op", op).put("ref", ref);
    for (int i = 0; i < keyValues.length; i += 2) {
      operation.put(keyValues[i], keyValues[i + 1]);
    }
    return operation;
  }

  static ResolvedBatch resolve(JsonObject... operations) {
    return RefResolver.resolve(new JsonArray(List.of((Object[]) operations)));
  }

  @Test
  void laterOperationsNameEarlierOnes() {
    ResolvedBatch batch =
        resolve(
            op("createFrame", "frame_a", "name", "A"),
            op("createNote", "note_a", "text", "n", "parentRef", "frame_a"),
            op("createShape", "shape_a"),
            op(
                "createConnector",
                "conn_a",
                "fromRef",
                "note_a",
                "toRef",
                "shape_a",
                "label",
                "to"));
    assertSame(batch.shapes().get(0), batch.shapes().get(1).parent());
    assertEquals("A", batch.shapes().get(0).text());
    assertEquals(List.of(batch.shapes().get(0), batch.shapes().get(2)), batch.topLevel());
    assertEquals(List.of(batch.shapes().get(1)), batch.childrenOf(batch.shapes().get(0)));
    BatchConnector connector = batch.connectors().get(0);
    assertSame(batch.shapes().get(1), connector.from());
    assertEquals("to", connector.label());
    assertEquals(List.of(), batch.skipped());
  }

  @Test
  void everySkipNamesItsRef() {
    ResolvedBatch batch =
        resolve(
            op("createNote", "note_a", "text", "1"),
            op("createNote", "note_a", "text", "2"),
            op("createNote", "", "text", "3"),
            op("createNote", "Bad-Ref", "text", "4"),
            op("createConnector", "conn_a", "fromRef", "note_zz", "toRef", "note_a"),
            op("createShape", "conn_a"));
    assertEquals(
        List.of(
            new BatchIssue(1, "note_a", "duplicate ref 'note_a'"),
            new BatchIssue(2, "", "empty ref"),
            new BatchIssue(3, "Bad-Ref", "invalid ref 'Bad-Ref' (2-40 of a-z, 0-9, _)"),
            new BatchIssue(4, "conn_a", "fromRef 'note_zz' names no object before it")),
        batch.skipped());
    assertEquals(
        2, batch.shapes().size(), "a skipped connector's ref stays free for a later object");
  }

  @Test
  void aParentRefThatComesLaterDoesNotCount() {
    ResolvedBatch batch =
        resolve(
            op("createNote", "note_a", "text", "n", "parentRef", "frame_a"),
            op("createFrame", "frame_a", "name", "A"));
    assertNull(batch.shapes().get(0).parent());
    assertEquals(
        List.of(
            new BatchIssue(
                0, "note_a", "parentRef 'frame_a' names no object before it; placed top-level")),
        batch.placedTopLevel());
  }

  @Test
  void anythingThatIsNotAnOperationIsSkipped() {
    ResolvedBatch batch =
        RefResolver.resolve(
            new JsonArray()
                .add("note")
                .add(new JsonObject().put("op", "createCircle").put("ref", "c1")));
    assertEquals(2, batch.skipped().size());
    assertEquals(List.of(), batch.shapes());
  }

  @Test
  void sizesAreTheDefaultsOrClampedRequests() {
    ResolvedBatch batch =
        resolve(
            op("createFrame", "frame_a", "name", "A"),
            op("createShape", "shape_a").put("w", 1e9).put("h", 1),
            op("createNote", "note_a", "text", "n"));
    assertEquals(new Size(300, 300), batch.shapes().get(0).requested());
    assertEquals(
        new Size(LayoutMetrics.MAX_SIZE, LayoutMetrics.MIN_SIZE),
        batch.shapes().get(1).requested());
    assertNull(batch.shapes().get(2).requested());
  }
}
