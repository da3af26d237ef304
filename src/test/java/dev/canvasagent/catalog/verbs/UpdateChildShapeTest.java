package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model speaks page coordinates; a shape inside a frame keeps them relative to the frame. */
class UpdateChildShapeTest {
  @Test
  void movingAChildOfAFrameToAPagePositionStoresItRelativeToTheFrame() {
    JsonObject frame =
        ShapeRecords.shape(
            "shape:f", "frame", 100, 100, "a1", ShapeRecords.frameProps(400, 300, "F"));
    JsonObject child =
        ShapeRecords.shape(
                "shape:c", "geo", 10, 10, "a1", ShapeRecords.geoProps("rectangle", 50, 50, ""))
            .put("parentId", "shape:f");
    Board board = new Board("room", 2, Map.of("shape:f", frame, "shape:c", child));
    var entry = ActionCatalog.standard().entry("update_shape").orElseThrow();
    JsonObject params = new JsonObject().put("shapeId", "c").put("x", 150).put("y", 260);
    assertEquals(java.util.Optional.empty(), entry.schema().violations(params));

    RecordDiff diff =
        entry
            .verb()
            .sanitize(params, new ActionContext(board, CoordinateFrame.atOrigin(), true))
            .diff();
    JsonObject moved = diff.put().get(0);
    assertEquals(50.0, moved.getDouble("x"), 1e-9);
    assertEquals(160.0, moved.getDouble("y"), 1e-9);
    assertEquals("shape:f", moved.getString("parentId"));
    TldrawOracle.assertValid(diff.put());
  }
}
