package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.board.geometry.ShapeGeometry;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.support.RecordAssertions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.Optional;

/**
 * One verb run as the sanitizer runs it: its JSON Schema first, then the verb against a board. Every
 * accepted action's diff is checked to leave valid tldraw records, and the board it was given unchanged.
 */
final class VerbHarness {
  static final ActionCatalog CATALOG = ActionCatalog.standard();
  static final double EPSILON = 1e-6;

  final ActionCatalog.Entry entry;
  CoordinateFrame frame = CoordinateFrame.atOrigin();

  VerbHarness(String verb) {
    this.entry = CATALOG.entry(verb).orElseThrow();
  }

  Optional<String> violations(JsonObject params) {
    return entry.schema().violations(params);
  }

  /** Params that must pass the schema, sanitized against {@code board}. */
  SanitizedAction sanitize(Board board, JsonObject params) {
    assertEquals(Optional.empty(), violations(params), "the schema accepts " + params.encode());
    return sanitizeUnchecked(board, params);
  }

  /** Straight to the verb, as if the schema had let anything through. */
  SanitizedAction sanitizeUnchecked(Board board, JsonObject params) {
    String before = board.toJson().encode();
    SanitizedAction action = entry.verb().sanitize(params, new ActionContext(board, frame, false));
    assertEquals(
        before, board.toJson().encode(), "the verb must not change the board's own records");
    RecordAssertions.assertValidDiff(board, action.diff());
    return action;
  }

  /** The board after the action. */
  Board apply(Board board, JsonObject params) {
    return board.apply(sanitize(board, params).diff(), board.revision() + 1);
  }

  ActionRejected rejected(Board board, JsonObject params) {
    assertEquals(Optional.empty(), violations(params), "the schema accepts " + params.encode());
    return rejectedUnchecked(board, params);
  }

  ActionRejected rejectedUnchecked(Board board, JsonObject params) {
    return assertThrows(
        ActionRejected.class,
        () -> entry.verb().sanitize(params, new ActionContext(board, frame, false)),
        params.encode());
  }

  static JsonArray ids(String... ids) {
    return new JsonArray(Arrays.asList((Object[]) ids));
  }

  static JsonObject record(Board board, String id) {
    return board.record("shape:" + id).orElseThrow(() -> new AssertionError("no shape " + id));
  }

  static Box bounds(Board board, String id) {
    return new ShapeGeometry(board).pageBounds("shape:" + id).orElseThrow();
  }

  static void assertBox(Box expected, Box actual) {
    String message = "expected " + expected + " but was " + actual;
    assertEquals(expected.minX(), actual.minX(), EPSILON, message);
    assertEquals(expected.minY(), actual.minY(), EPSILON, message);
    assertEquals(expected.maxX(), actual.maxX(), EPSILON, message);
    assertEquals(expected.maxY(), actual.maxY(), EPSILON, message);
  }
}
