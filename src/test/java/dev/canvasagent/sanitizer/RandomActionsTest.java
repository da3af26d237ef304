package dev.canvasagent.sanitizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.NudgeVerb;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The random actions of {@link BoardPropertyTest} draw from the catalog, whatever it holds. */
class RandomActionsTest {
  static final Board BOARD =
      Board.empty("room-1")
          .apply(
              RecordDiff.putting(
                  ShapeRecords.shape(
                      "shape:box1",
                      "geo",
                      0,
                      0,
                      "a1",
                      ShapeRecords.geoProps("rectangle", 100, 80, "")),
                  ShapeRecords.shape(
                      "shape:note1", "note", 200, 0, "a2", ShapeRecords.noteProps("hi"))),
              1);

  @Test
  void everyVerbOfTheCatalogIsDrawn() {
    ActionCatalog catalog = ActionCatalog.standard();
    List<String> names = catalog.entries().stream().map(entry -> entry.verb().name()).toList();
    RandomActions actions = new RandomActions(1);
    Set<String> drawn = new TreeSet<>();
    for (int i = 0; i < 5000; i++) {
      drawn.add(actions.verb());
    }

    assertEquals(names, actions.verbs());
    assertEquals(new TreeSet<>(names), drawn);
  }

  @Test
  void aVerbAddedToTheCatalogIsDrawnWithParamsFromItsSchema() {
    List<ActionCatalog.Entry> entries = new ArrayList<>(ActionCatalog.standard().entries());
    entries.add(NudgeVerb.entry());
    ActionCatalog.Entry nudge = NudgeVerb.entry();
    RandomActions actions = new RandomActions(7, entries);
    int drawn = 0;
    int valid = 0;
    int accepted = 0;
    for (int i = 0; i < 5000; i++) {
      if (!actions.verb().equals("nudge")) {
        continue;
      }
      drawn++;
      JsonObject params = actions.params("nudge", BOARD);
      if (nudge.schema().violations(params).isPresent()) {
        continue;
      }
      valid++;
      try {
        nudge.verb().sanitize(params, new ActionContext(BOARD, CoordinateFrame.atOrigin(), false));
        accepted++;
      } catch (ActionRejected unknownShape) {
        // an id the board does not have: it happens, as with a model
      }
    }

    assertTrue(drawn > 100, "drawn " + drawn);
    assertTrue(valid > drawn * 0.8, valid + " of " + drawn + " pass the schema");
    assertTrue(accepted > valid * 0.7, accepted + " of " + valid + " name a shape of the board");
  }
}
