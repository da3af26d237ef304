package dev.canvasagent.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.BrowserPages;
import dev.canvasagent.support.BrowserPages.Page;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WebBuild;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Undoing the agent (issue 21) in real headless Chromium: the Undo on the agent's message reverts its
 * run, every page sees the revert, and a shape the person moved after the run stays where they put
 * it. No page logs an error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UndoAgentEndToEndTest {
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots");

  Vertx vertx;
  TestServer server;
  BrowserPages browser;
  final List<Page> open = new ArrayList<>();

  @BeforeAll
  void start() {
    WebBuild.require();
    browser = BrowserPages.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(Map.of()));
  }

  @AfterEach
  void closePages() {
    List<String> problems = new ArrayList<>();
    for (Page page : open) {
      page.errors().forEach(error -> problems.add(page.name() + " logged " + error));
      page.close();
    }
    open.clear();
    assertEquals(List.of(), problems, "no page error");
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.close();
    }
    if (server != null) {
      Await.result(server.stop());
      Await.result(vertx.close());
    }
  }

  Page openRoom(String name, String roomId) {
    Page page = browser.open(name, "http://127.0.0.1:" + server.port() + "/?room=" + roomId);
    open.add(page);
    page.waitFor(BrowserEndToEndTest.READY, "a connected page with its board");
    return page;
  }

  /** Waits until the page holds the server's current revision with nothing left to send. */
  void awaitSettled(Page page, String roomId) {
    page.waitFor(
        "window.canvasAgent.sender.pending.size === 0 && window.canvasAgent.sender.inFlight === null"
            + " && fetch('/api/rooms/"
            + roomId
            + "/board').then(r => r.json()).then(b => b.revision === window.canvasAgent.status.revision)",
        "the board of room " + roomId + " to settle");
  }

  static String geoShapes(String filter) {
    return "window.canvasAgent.board().filter(r => r.type === 'geo')" + filter;
  }

  @Test
  void anAgentRunRevertedFromTheButtonLeavesThePersonsLaterEditIntact() {
    String roomId = "e2e-undo";
    Page person = openRoom("undo-person", roomId);
    Page watching = openRoom("undo-watching", roomId);
    BrowserEndToEndTest.ask(person, "draw boxes labeled A, B and C");
    BrowserEndToEndTest.awaitAgentState(person, "done", "the run done in the chat panel");
    person.waitFor(geoShapes(".length === 3"), "the agent's three boxes");
    awaitSettled(person, roomId);

    // The person moves one of the agent's boxes after the run.
    String moved = (String) person.eval(geoShapes("[0].id"));
    person.eval(
        "window.canvasAgent.editor.updateShape({ id: '"
            + moved
            + "', type: 'geo', x: 40, y: 60 }) && true");
    watching.waitFor(
        "window.canvasAgent.board().find(r => r.id === '" + moved + "')?.x === 40",
        "the person's move in the other page");
    awaitSettled(person, roomId);
    person.screenshot(SCREENSHOTS.resolve("undo-agent-before.png"));

    person.waitFor(
        "document.querySelector('[data-testid=undo-run]') !== null", "Undo on the agent's message");
    person.click("[data-testid=undo-run]");
    person.click("[data-testid=undo-yes]");
    person.waitFor(
        "document.querySelector('[data-testid=undo-outcome]')?.dataset.phase === 'done'",
        "the revert's outcome");
    String outcome =
        (String) person.eval("document.querySelector('[data-testid=undo-outcome]').textContent");
    assertTrue(outcome.contains("2 reverted") && outcome.contains("kept 1"), outcome);

    for (Page page : List.of(person, watching)) {
      page.waitFor(
          geoShapes(".length === 1"), "the agent's untouched boxes gone in " + page.name());
      assertEquals(moved, page.eval(geoShapes("[0].id")));
      assertEquals(40, ((Number) page.eval(geoShapes("[0].x"))).intValue());
      awaitSettled(page, roomId);
    }
    JsonArray records = server.board(roomId).getJsonArray("records");
    List<JsonObject> geo =
        records.stream()
            .map(JsonObject.class::cast)
            .filter(record -> "geo".equals(record.getString("type")))
            .toList();
    assertEquals(1, geo.size(), records.encode());
    assertEquals(moved, geo.get(0).getString("id"));
    assertEquals(40, geo.get(0).getInteger("x"));
    person.screenshot(SCREENSHOTS.resolve("undo-agent-after.png"));
    watching.screenshot(SCREENSHOTS.resolve("undo-agent-after-watching.png"));
  }

  @Test
  void aPageOpenedAfterTheRunStillOffersItsUndo() {
    String roomId = "e2e-undo-later";
    Page asking = openRoom("undo-asking", roomId);
    BrowserEndToEndTest.ask(asking, "draw boxes labeled A, B and C");
    BrowserEndToEndTest.awaitAgentState(asking, "done", "the run done in the chat panel");
    asking.waitFor(geoShapes(".length === 3"), "the agent's three boxes");
    awaitSettled(asking, roomId);
    String runId =
        (String)
            asking.eval("document.querySelector('[data-testid=undo-run]')?.dataset.runId ?? null");

    // A page that was not open during the run resumes the session from its history.
    Page later = openRoom("undo-later", roomId);
    later.waitFor(
        "document.querySelector('[data-testid=undo-run]') !== null",
        "Undo on the agent's message of the resumed session");
    assertEquals(
        runId,
        later.eval("document.querySelector('[data-testid=undo-run]').dataset.runId"),
        "the Undo reverts the run that drew the boxes");
    assertEquals(
        1L,
        ((Number) later.eval("document.querySelectorAll('[data-testid=undo-run]').length"))
            .longValue(),
        "one Undo per run");
    later.screenshot(SCREENSHOTS.resolve("undo-agent-resumed.png"));
    later.click("[data-testid=undo-run]");
    later.click("[data-testid=undo-yes]");
    later.waitFor(
        "document.querySelector('[data-testid=undo-outcome]')?.dataset.phase === 'done'",
        "the revert's outcome");
    for (Page page : List.of(asking, later)) {
      page.waitFor(geoShapes(".length === 0"), "the agent's boxes gone in " + page.name());
    }
  }
}
