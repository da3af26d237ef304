package dev.canvasagent.catalog.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code think} only talks: its text, stripped, and no change to the board. */
class ThinkVerbTest {
  static final ActionCatalog.Entry THINK = ActionCatalog.standard().entry("think").orElseThrow();

  @Test
  void theTextIsStrippedAndTheBoardUntouched() {
    JsonObject params = new JsonObject().put("text", "  Drawing the plan now.\n ");
    assertTrue(THINK.schema().violations(params).isEmpty());

    SanitizedAction sanitized =
        THINK
            .verb()
            .sanitize(
                params,
                new dev.canvasagent.catalog.ActionContext(
                    Board.empty("room-1"), dev.canvasagent.board.CoordinateFrame.atOrigin(), true));

    assertEquals(new JsonObject().put("text", "Drawing the plan now."), sanitized.params());
    assertTrue(sanitized.diff().isEmpty());
    assertEquals(dev.canvasagent.catalog.VerbKind.CHAT, THINK.verb().kind());
  }

  @Test
  void theSchemaRejectsBlankText() {
    assertTrue(THINK.schema().violations(new JsonObject().put("text", "   ")).isPresent());
    assertTrue(THINK.schema().violations(new JsonObject()).isPresent());
  }
}
