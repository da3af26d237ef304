package dev.canvasagent.docagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.model.Turn;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The session's history as providers get it, the hidden-message format and diff stats. */
class AgentSessionTest {
  static final Turn.ToolCall READ = new Turn.ToolCall("c1", "canvas_read_all", new JsonObject());
  static final Turn.ToolCall WRITE = new Turn.ToolCall("c2", "canvas_undo", new JsonObject());

  @Test
  void consecutiveUserTurnsAreJoinedAndTheFirstIsTheUserMessage() {
    AgentSession session = new AgentSession("doc", "s");
    session.addUser("first");
    session.addLoop(List.of(new Turn.Assistant("ok", List.of())));
    session.addUser(CanvasUpdate.message("@@ -1 +1 @@\n-a\n+b\n"));
    session.addUser("second");
    AgentSession.Conversation conversation = session.conversation();
    assertEquals("first", conversation.firstUserMessage());
    assertEquals(2, conversation.turns().size());
    Turn.User joined = (Turn.User) conversation.turns().get(1);
    assertTrue(joined.text().startsWith(CanvasUpdate.HEADER), joined.text());
    assertTrue(joined.text().endsWith("```\n\nsecond"), joined.text());
  }

  @Test
  void callsWithoutResultsAreDroppedFromTheHistory() {
    AgentSession session = new AgentSession("doc", "s");
    session.addUser("go");
    Turn.ToolResult readResult = Turn.ToolResult.success(READ, new JsonObject());
    session.addLoop(
        List.of(
            new Turn.Assistant("", List.of(READ, WRITE)),
            new Turn.ToolResults(List.of(readResult)),
            new Turn.Assistant("more", List.of(WRITE)),
            new Turn.Assistant("", List.of(WRITE))));
    List<Turn> history = session.transcript();
    assertEquals(
        List.of(
            new Turn.User("go"),
            new Turn.Assistant("", List.of(READ)),
            new Turn.ToolResults(List.of(readResult)),
            new Turn.Assistant("more", List.of())),
        history);
  }

  @Test
  void theFenceOutgrowsBackticksInTheDiff() {
    String message = CanvasUpdate.message("@@ -1 +1 @@\n-```js\n+````js\n");
    assertTrue(message.startsWith(CanvasUpdate.HEADER + "\n`````diff\n"), message);
    assertTrue(message.endsWith("\n`````"), message);
    assertEquals(
        CanvasUpdate.HEADER + "\n```diff\n@@ -1 +1 @@\n-a\n+b\n```",
        CanvasUpdate.message("@@ -1 +1 @@\n-a\n+b"));
  }

  @Test
  void diffStatsCountHunksAndLinesButNotFileHeaders() {
    String diff =
        "--- a/document.md\n+++ b/document.md\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n@@ -9 +9,2 @@\n x\n+y\n";
    assertEquals(new DiffStats(2, 2, 1), DiffStats.of(diff));
    assertEquals(new DiffStats(0, 0, 0), DiffStats.of(""));
  }
}
