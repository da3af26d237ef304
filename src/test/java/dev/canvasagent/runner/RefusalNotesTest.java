package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.AgentAction;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Refused actions told to the model's next turn: one line each, within a bound. */
class RefusalNotesTest {
  static AgentAction action(String name) {
    return new AgentAction("run:" + name, name, new JsonObject());
  }

  @Test
  void aRefusalIsOneLineNamingTheActionAndItsReason() {
    assertEquals(
        Optional.of("wb_frob was dropped, unknown action 'wb_frob'."),
        new RefusalNotes().take(action("wb_frob"), "unknown action 'wb_frob'"));
  }

  @Test
  void aLongReasonIsCutAndAFloodOfRefusalsIsSaidOnce() {
    RefusalNotes notes = new RefusalNotes();
    String longReason = "x".repeat(RefusalNotes.MAX_REASON_CHARS * 3);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      notes.take(action("move"), longReason).ifPresent(lines::add);
    }
    assertEquals(RefusalNotes.MAX_TOLD + 1, lines.size(), lines.toString());
    assertTrue(lines.get(0).length() < RefusalNotes.MAX_REASON_CHARS + 40, lines.get(0));
    assertEquals(
        "More actions were dropped; the ones above show why.", lines.get(lines.size() - 1));
  }
}
