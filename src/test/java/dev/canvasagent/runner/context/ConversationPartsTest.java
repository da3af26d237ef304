package dev.canvasagent.runner.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.TodoStore.Todo;
import dev.canvasagent.store.TranscriptStore.Utterance;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts that are not the board: message, transcript, chat, todos, screenshot, docVersion. */
class ConversationPartsTest {

  @Test
  void theMessageIsInTheStructuredContextButNotInTheText() {
    PartOutput output = new UserMessagePart().render(new Inputs().scope(), 1000);

    assertEquals(ModelContext.MESSAGE, output.contextKey());
    assertEquals("draw a box", output.json());
    assertEquals("", output.text());
    assertFalse(output.truncated());
  }

  @Test
  void aMessageOverItsBudgetIsCutOnACharacterBoundary() {
    Inputs inputs = new Inputs();
    inputs.message = "ééééé";

    PartOutput output = new UserMessagePart().render(inputs.scope(), 5);

    assertEquals("éé", output.json());
    assertTrue(output.truncated());
  }

  @Test
  void aFollowUpSaysWhichAndWhyAndAPersonsRequestHasNoSuchSection() {
    PartOutput none = new FollowUpPart().render(new Inputs().scope(), 512);
    assertNull(none.contextKey());

    Inputs inputs =
        new Inputs().followUp(new dev.canvasagent.bus.FollowUp("run-1", "run-1", 2, "add_detail"));
    PartOutput output = new FollowUpPart().render(inputs.scope(), 512);

    assertEquals(ModelContext.FOLLOW_UP, output.contextKey());
    assertEquals(new JsonObject().put("number", 2).put("reason", "add_detail"), output.json());
    assertTrue(
        output.text().startsWith("## Follow-up\nThis is follow-up 2 (add_detail)"), output.text());
    assertTrue(output.text().contains("asked for by you"), output.text());
    assertTrue(
        new FollowUpPart().render(inputs.scope(), 20).truncated(),
        "over its budget: left out, said so");
    Inputs rule =
        new Inputs().followUp(new dev.canvasagent.bus.FollowUp("run-1", "run-1", 1, "low_actions"));
    assertTrue(
        new FollowUpPart()
            .render(rule.scope(), 512)
            .text()
            .contains("because the earlier run made few changes"));
  }

  @Test
  void theTranscriptKeepsTheNewestUtterancesThatFit() {
    Inputs inputs = new Inputs();
    inputs.transcript =
        List.of(
            new Utterance("ana", "a".repeat(100), 1_000),
            new Utterance("ben", "second", 2_000),
            new Utterance("ana", "third", 3_000));

    PartOutput output = new TranscriptPart().render(inputs.scope(), 160);

    assertEquals(
        new JsonArray()
            .add(new JsonObject().put("speaker", "ben").put("text", "second").put("ts", 2_000L))
            .add(new JsonObject().put("speaker", "ana").put("text", "third").put("ts", 3_000L)),
        output.json());
    assertTrue(output.truncated());
    assertTrue(output.bytes() <= 160);
  }

  @Test
  void theChatKeepsTheNewestMessagesOldestFirst() {
    Inputs inputs = new Inputs();
    inputs.chat =
        List.of(
            new ChatMessage("user", "x".repeat(200), 1, null),
            new ChatMessage("user", "move it", 2, null),
            new ChatMessage("assistant", "moved", 3, null));

    PartOutput output = new ChatHistoryPart().render(inputs.scope(), 150);

    assertEquals(
        new JsonArray()
            .add(new JsonObject().put("role", "user").put("text", "move it"))
            .add(new JsonObject().put("role", "assistant").put("text", "moved")),
        output.json());
    assertEquals(ModelContext.CHAT, output.contextKey());
  }

  @Test
  void todosKeepListOrderAndTheBudgetCutsFromTheEnd() {
    Inputs inputs = new Inputs();
    inputs.todos =
        List.of(
            new Todo("t1", "session-1", "headline", TodoStore.Status.DONE, 0, 1, 2L),
            new Todo("t2", "session-1", "divider", TodoStore.Status.OPEN, 1, 1, null),
            new Todo(
                "t3", "session-1", "notes " + "n".repeat(200), TodoStore.Status.OPEN, 2, 1, null));

    PartOutput all = new TodosPart().render(inputs.scope(), 4096);
    PartOutput cut = new TodosPart().render(inputs.scope(), 150);

    assertEquals(3, ((JsonArray) all.json()).size());
    assertEquals(
        new JsonObject().put("id", "t1").put("text", "headline").put("status", "done"),
        ((JsonArray) all.json()).getJsonObject(0));
    assertEquals(
        List.of("t1", "t2"),
        ((JsonArray) cut.json())
            .stream().map(todo -> ((JsonObject) todo).getString("id")).toList());
    assertTrue(cut.truncated());
  }

  @Test
  void aScreenshotBecomesTheRequestsImage() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3};
    String base64 = Base64.getEncoder().encodeToString(png);
    Inputs inputs = new Inputs();
    Viewport box = new Viewport(0, 0, 10, 10);
    inputs.screenshot =
        new Screenshot(
            "request-1",
            "client-1",
            new Screenshot.Image("image/png", "data:image/png;base64," + base64, png.length),
            box,
            box,
            List.of(),
            null,
            false);

    PartOutput output = new ScreenshotPart().render(inputs.scope(), 1_000_000);

    assertEquals(new ModelRequest.Image("image/png", base64), output.image());
    assertEquals(png.length, output.stats().getInteger("imageBytes"));
    assertNull(output.contextKey());

    PartOutput overBudget = new ScreenshotPart().render(inputs.scope(), 3);
    assertNull(overBudget.image(), "over its budget: text-only");
    assertTrue(overBudget.truncated());
  }

  @Test
  void noScreenshotIsTextOnly() {
    PartOutput output = new ScreenshotPart().render(new Inputs().scope(), 1_000_000);

    assertTrue(output.isEmpty());
    assertEquals(0, output.stats().getInteger("imageBytes"));
  }

  @Test
  void theDocVersionIsTheBoardRevision() {
    PartOutput output =
        new DocVersionPart()
            .render(new Inputs().board(dev.canvasagent.support.TestShapes.board()).scope(), 64);

    assertEquals("1", output.json());
    assertEquals(ModelContext.DOC_VERSION, output.contextKey());
  }
}
