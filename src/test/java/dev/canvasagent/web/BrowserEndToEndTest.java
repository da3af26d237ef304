package dev.canvasagent.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.BrowserPages;
import dev.canvasagent.support.BrowserPages.Page;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WebBuild;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The reference client in real headless Chromium against the real server: the page served at /, its
 * tldraw editor, the SockJS bridge with the official client, the agent's runs with the scripted
 * `debug/fake` model. Each scenario works in a room of its own and saves a screenshot of its pages in
 * {@code target/e2e-screenshots/}. No page may request anything but the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserEndToEndTest {
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots");

  /** The page is ready: connected, the board loaded, its client id known. */
  static final String READY =
      "window.canvasAgent?.status?.state === 'open' && window.canvasAgent.status.revision !== null"
          + " && window.canvasAgent.connection.clientId !== null";

  Vertx vertx;
  TestServer server;
  BrowserPages browser;
  final List<Page> open = new ArrayList<>();

  @BeforeAll
  void start() {
    WebBuild.require();
    browser = BrowserPages.start();
    vertx = Vertx.vertx();
    // Partial envelopes on, and the fake model slow enough that a run can be cut in the middle.
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_PARTIAL_INTERVAL_MS", "100",
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "30")));
  }

  @AfterEach
  void closePages() {
    List<String> problems = new ArrayList<>();
    for (Page page : open) {
      page.requests().stream()
          .filter(url -> !fromServer(url))
          .forEach(url -> problems.add(page.name() + " requested " + url));
      // A page a test took offline fails to reconnect until it is back: that is the test's doing.
      page.errors().stream()
          .filter(error -> !error.contains("ERR_INTERNET_DISCONNECTED"))
          .forEach(error -> problems.add(page.name() + " logged " + error));
      page.close();
    }
    open.clear();
    assertEquals(
        List.of(), problems, "no page requested anything but the server or logged an error");
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

  /** Types a prompt into the chat panel and sends it, as a person does. */
  static void ask(Page page, String prompt) {
    page.fill("[data-testid=prompt]", prompt);
    page.press("[data-testid=prompt]", "Enter");
  }

  /** Waits until the chat panel shows the agent in {@code state}. */
  static void awaitAgentState(Page page, String state, String what) {
    page.waitFor(
        "document.querySelector('[data-testid=agent-status]')?.dataset.state === '" + state + "'",
        what);
  }

  @Test
  void aPromptDrawsShapesInTheEditor() {
    Page page = openRoom("prompt", "e2e-prompt");
    ask(page, "draw a blue rectangle labeled A");
    awaitAgentState(page, "done", "done status in the chat panel");
    JsonArray board = awaitSameBoard("e2e-prompt", page);
    JsonObject rectangle =
        board.stream()
            .map(JsonObject.class::cast)
            .filter(record -> "geo".equals(record.getString("type")))
            .findFirst()
            .orElseThrow();
    assertEquals("rectangle", rectangle.getJsonObject("props").getString("geo"));
    assertEquals("blue", rectangle.getJsonObject("props").getString("color"));
    assertTrue(
        rectangle
            .getJsonObject("props")
            .getJsonObject("richText")
            .encode()
            .contains("\"text\":\"A\""),
        rectangle.encode());
    // The editor shows it: tldraw renders the shape, labeled.
    page.waitFor(
        "document.querySelector('.tl-shape[data-shape-type=geo]')?.textContent.includes('A')",
        "the rectangle on the canvas");
    JsonArray chat =
        page.evalArray(
            "[...document.querySelectorAll('[data-testid=messages] .text')].map(e => e.textContent)");
    assertEquals("draw a blue rectangle labeled A", chat.getString(0));
    assertTrue(chat.size() >= 2, "the agent answered in the chat: " + chat);
    page.screenshot(SCREENSHOTS.resolve("prompt-draws-a-blue-rectangle.png"));
  }

  @Test
  void thePageAppliesEachActionOnceAndReloadsTheBoardOnAGap() {
    Page page = openRoom("executor", "e2e-executor");
    SseClient events = server.events("e2e-executor");
    String sessionId = startRun("e2e-executor", "draw 3 red circles");
    awaitDone(events, sessionId);
    JsonArray board = awaitSameBoard("e2e-executor", page);
    JsonObject envelope =
        events.received().stream()
            .filter(
                event -> "agent:action".equals(event.event()) && event.data().containsKey("rev"))
            .findFirst()
            .orElseThrow()
            .data();
    String handle = "(message) => window.canvasAgent.executor.handle('agent:action', message)";

    // The same envelope again (a re-send whose ack was lost): ignored, acked again.
    JsonObject before = page.evalObject("({...window.canvasAgent.executor.stats})");
    page.eval("(" + handle + ")(" + envelope.encode() + ") ?? true");
    // The same actions under a newer seq: each action id is applied once per session.
    page.eval(
        "("
            + handle
            + ")("
            + envelope.copy().put("seq", envelope.getLong("seq") + 1000).encode()
            + ") ?? true");
    JsonObject after = page.evalObject("({...window.canvasAgent.executor.stats})");
    assertEquals(before.getInteger("ignored") + 1, after.getInteger("ignored"));
    assertEquals(before.getInteger("applied"), after.getInteger("applied"));
    assertEquals(before.getInteger("acks") + 2, after.getInteger("acks"), "the host acks both");
    assertEquals(board, page.evalArray("window.canvasAgent.board()"));

    // A change two revisions ahead means one was missed: the page loads the board instead of
    // applying it.
    long revision = ((Number) page.eval("window.canvasAgent.status.revision")).longValue();
    JsonObject stray = board.getJsonObject(0).copy().put("x", 12345);
    page.eval(
        "window.canvasAgent.executor.handle('canvas:change', "
            + new JsonObject()
                .put("type", "canvas:change")
                .put("revision", revision + 2)
                .put("author", "person")
                .put(
                    "diff",
                    new JsonObject()
                        .put("put", new JsonArray().add(stray))
                        .put("remove", new JsonArray()))
                .encode()
            + ") ?? true");
    page.waitFor(
        "window.canvasAgent.executor.stats.reloads === "
            + (before.getInteger("reloads") + 1)
            + " && !window.canvasAgent.executor.loading",
        "the board loaded again");
    assertEquals(board, awaitSameBoard("e2e-executor", page), "the stray record was never applied");
    Await.result(events.close());
  }

  @Test
  void twoPagesInOneRoomHoldTheSameBoardAfterARun() {
    Page first = openRoom("first", "e2e-two");
    Page second = openRoom("second", "e2e-two");
    SseClient events = server.events("e2e-two");
    String sessionId = startRun("e2e-two", "/poster");
    awaitDone(events, sessionId);
    JsonArray board = awaitSameBoard("e2e-two", first, second);
    assertTrue(board.size() >= 4, "the poster has shapes: " + board.size());
    // Previews of partial envelopes were drawn, and none is left.
    assertTrue(
        ((Number) first.eval("window.canvasAgent.executor.previews.count")).intValue() > 0,
        "previews were drawn");
    assertEquals(
        0,
        ((Number) first.eval("window.canvasAgent.editor.getCurrentPageShapeIds().size")).intValue()
            - board.stream()
                .filter(record -> "shape".equals(((JsonObject) record).getString("typeName")))
                .count());
    first.screenshot(SCREENSHOTS.resolve("two-pages-first.png"));
    second.screenshot(SCREENSHOTS.resolve("two-pages-second.png"));
    Await.result(events.close());
  }

  @Test
  void aPersonDrawingWhileTheAgentDrawsEndsOnTheSameBoardEverywhere() {
    Page agentSide = openRoom("agent-side", "e2e-both");
    Page person = openRoom("person", "e2e-both");
    SseClient events = server.events("e2e-both");
    // The run starts from the other page's prompt box, whose chat panel follows it.
    ask(agentSide, "/tour");
    agentSide.waitFor("new URL(location.href).searchParams.get('session')", "the page's session");
    String sessionId =
        (String) agentSide.eval("new URL(location.href).searchParams.get('session')");
    person.waitFor("window.canvasAgent.executor.stats.applied >= 2", "the agent's first actions");
    person.click("[data-testid='tools.rectangle']");
    person.drag(700, 520, 820, 620);
    // tldraw selects the shape a person has just drawn.
    person.waitFor(
        "window.canvasAgent.editor.getOnlySelectedShape()?.type === 'geo'",
        "the person's rectangle");
    String drawn = (String) person.eval("window.canvasAgent.editor.getOnlySelectedShape().id");
    awaitDone(events, sessionId);
    // Every change the person sent was committed, in whatever order it met the agent's.
    JsonArray board = awaitSameBoard("e2e-both", person, agentSide);
    assertTrue(
        board.stream()
            .map(JsonObject.class::cast)
            .anyMatch(record -> drawn.equals(record.getString("id"))),
        "the person's rectangle is on the server's board");
    // The agent's todo list, in the panel of the page that asked.
    agentSide.waitFor(
        "document.querySelectorAll('[data-testid=todos] li').length > 0",
        "the session's todo list");
    JsonArray todos =
        server
            .get("/api/sessions/" + sessionId + "/todos")
            .bodyAsJsonObject()
            .getJsonArray("todos");
    assertEquals(
        todos.size(),
        ((Number) agentSide.eval("document.querySelectorAll('[data-testid=todos] li').length"))
            .intValue());
    JsonObject sent = person.evalObject("window.canvasAgent.sender.stats");
    assertEquals(0, sent.getInteger("refused"), sent.encode());
    person.screenshot(SCREENSHOTS.resolve("person-and-agent-person-page.png"));
    agentSide.screenshot(SCREENSHOTS.resolve("person-and-agent-other-page.png"));
    Await.result(events.close());
  }

  @Test
  void aSessionIsResumedWithItsChatAndANewOneStartsEmpty() {
    Page first = openRoom("first-visit", "e2e-session");
    ask(first, "draw a blue rectangle labeled A");
    awaitAgentState(first, "done", "the run to end");
    String sessionId = (String) first.eval("new URL(location.href).searchParams.get('session')");
    assertTrue(sessionId != null && !sessionId.isEmpty(), "the page's address names its session");
    first.close();
    open.remove(first);

    // Back later: the room's last active session opens with its chat.
    Page again = openRoom("second-visit", "e2e-session");
    again.waitFor(
        "document.querySelector('[data-testid=session-picker]').value === '" + sessionId + "'",
        "the last active session");
    again.waitFor(
        "[...document.querySelectorAll('[data-testid=messages] .text')].some(e => e.textContent === 'draw a blue rectangle labeled A')",
        "the session's chat history");
    again.click("[data-testid=new-session]");
    again.waitFor(
        "document.querySelector('[data-testid=session-picker]').value !== '"
            + sessionId
            + "'"
            + " && document.querySelectorAll('[data-testid=session-picker] option').length === 3",
        "a new session in the picker");
    assertEquals(
        0,
        ((Number) again.eval("document.querySelectorAll('[data-testid=messages] li').length"))
            .intValue());
    again.screenshot(SCREENSHOTS.resolve("session-new.png"));
    // A run in the new session, stopped from its status line.
    ask(again, "/tour");
    awaitAgentState(again, "streaming", "the run streaming");
    again.click("[data-testid=agent-status] button");
    awaitAgentState(again, "canceled", "the run canceled");
    again.screenshot(SCREENSHOTS.resolve("session-new-run-stopped.png"));
    again.eval(
        "(() => { const picker = document.querySelector('[data-testid=session-picker]');"
            + " const set = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set;"
            + " set.call(picker, '"
            + sessionId
            + "'); picker.dispatchEvent(new Event('change', { bubbles: true })); return true })()");
    again.waitFor(
        "[...document.querySelectorAll('[data-testid=messages] .text')].some(e => e.textContent === 'draw a blue rectangle labeled A')",
        "the first session's chat, resumed");
    again.screenshot(SCREENSHOTS.resolve("session-resumed.png"));
  }

  @Test
  void theHostAnswersAScreenshotRequest() throws IOException {
    Page page = openRoom("host", "e2e-screenshot");
    page.waitFor("window.canvasAgent.status.isHost", "this page to host the room");
    SseClient events = server.events("e2e-screenshot");
    awaitDone(events, startRun("e2e-screenshot", "draw 3 red circles"));
    awaitSameBoard("e2e-screenshot", page);
    // A second run sees the first one's circles in its screenshot.
    awaitDone(events, startRun("e2e-screenshot", "draw a green star"));
    awaitSameBoard("e2e-screenshot", page);
    JsonObject answered = page.evalObject("window.canvasAgent.screenshots");
    assertTrue(answered.getInteger("answered") >= 2, answered.encode());
    assertEquals(0, answered.getInteger("failed"));
    JsonObject health =
        server
            .get("/health")
            .bodyAsJsonObject()
            .getJsonObject("verticles")
            .getJsonObject("screenshot");
    assertTrue(health.getLong("captured") >= 2, health.encode());
    assertTrue(
        health.getJsonObject("rejected").stream()
            .allMatch(entry -> ((Number) entry.getValue()).longValue() == 0),
        health.encode());
    // What the agent saw: a PNG whose longest side is at most 800 px.
    String dataUrl = answered.getJsonObject("last").getString("dataUrl");
    byte[] png = Base64.getDecoder().decode(dataUrl.substring(dataUrl.indexOf(',') + 1));
    Files.createDirectories(SCREENSHOTS);
    Files.write(SCREENSHOTS.resolve("screenshot-the-agent-saw.png"), png);
    int width = readInt(png, 16);
    int height = readInt(png, 20);
    assertTrue(width > 0 && height > 0 && Math.max(width, height) <= 800, width + "x" + height);
    page.screenshot(SCREENSHOTS.resolve("screenshot-host-page.png"));
    Await.result(events.close());
  }

  @Test
  void aPersonsEditInOnePageAppearsInTheOther() {
    Page drawing = openRoom("drawing", "e2e-edit");
    Page watching = openRoom("watching", "e2e-edit");
    drawing.click("[data-testid='tools.rectangle']");
    drawing.drag(300, 300, 520, 440);
    drawing.waitFor(
        "window.canvasAgent.board().some(r => r.type === 'geo')",
        "the drawn rectangle in the drawing page");
    String id = (String) drawing.eval("window.canvasAgent.board().find(r => r.type === 'geo').id");
    watching.waitFor(
        "window.canvasAgent.board().some(r => r.id === '" + id + "')",
        "the person's rectangle in the other page");
    JsonArray board = awaitSameBoard("e2e-edit", drawing, watching);
    assertEquals(1, board.size());
    // Moved, the shape moves in the other page too.
    drawing.eval(
        "window.canvasAgent.editor.updateShape({ id: '"
            + id
            + "', type: 'geo', x: 40, y: 60 }) && true");
    watching.waitFor(
        "window.canvasAgent.board().find(r => r.id === '" + id + "')?.x === 40",
        "the move in the other page");
    assertEquals(
        40, awaitSameBoard("e2e-edit", drawing, watching).getJsonObject(0).getInteger("x"));
    drawing.screenshot(SCREENSHOTS.resolve("person-edit-drawing-page.png"));
    watching.screenshot(SCREENSHOTS.resolve("person-edit-watching-page.png"));
  }

  @Test
  void aConnectionCutMidRunLosesAndDoublesNothing() {
    Page cut = openRoom("cut", "e2e-cut");
    cut.waitFor("window.canvasAgent.status.isHost", "the first page to host");
    Page steady = openRoom("steady", "e2e-cut");
    SseClient events = server.events("e2e-cut");
    String sessionId = startRun("e2e-cut", "/tour");
    cut.waitFor("window.canvasAgent.executor.stats.applied >= 2", "the run's first actions");
    cut.offline(true);
    cut.eval("window.canvasAgent.connection.drop()");
    cut.waitFor("window.canvasAgent.status.state !== 'open'", "the connection to drop");
    int appliedWhenCut =
        ((Number) steady.eval("window.canvasAgent.executor.stats.applied")).intValue();
    // The run goes on without the cut page, which the other page now hosts.
    steady.waitFor(
        "window.canvasAgent.status.isHost && window.canvasAgent.executor.stats.applied >= "
            + (appliedWhenCut + 3),
        "the run to go on while the first page is away");
    cut.offline(false);
    awaitDone(events, sessionId);
    cut.waitFor(
        "window.canvasAgent.status.state === 'open' && window.canvasAgent.status.connects >= 2",
        "the page to reconnect");
    JsonArray board = awaitSameBoard("e2e-cut", steady, cut);
    assertTrue(board.size() >= 10, "the tour drew its shapes: " + board.size());
    // Nothing applied twice: every action the cut page applied was new to it, and every shape it
    // shows is the server's.
    JsonObject stats = cut.evalObject("window.canvasAgent.executor.stats");
    long shapes =
        board.stream()
            .filter(record -> "shape".equals(((JsonObject) record).getString("typeName")))
            .count();
    assertEquals(
        shapes,
        ((Number) cut.eval("window.canvasAgent.editor.getCurrentPageShapeIds().size")).longValue());
    assertTrue(stats.getInteger("applied") > 0, stats.encode());
    cut.screenshot(SCREENSHOTS.resolve("connection-cut-reconnected-page.png"));
    steady.screenshot(SCREENSHOTS.resolve("connection-cut-steady-page.png"));
    Await.result(events.close());
  }

  @Test
  void theDocumentViewShowsTheLockWhileTheAgentHoldsTheLease() {
    JsonObject created =
        post(
            "/api/docs",
            new JsonObject()
                .put("roomId", "e2e-doc")
                .put("title", "Plan")
                .put("content", "# Plan\n\nDraft one\nDraft two\n"));
    String docId = created.getString("id");
    Page page = browser.open("doc", base() + "/?room=e2e-doc&doc=" + docId);
    open.add(page);
    page.waitFor(
        READY + " && document.querySelector('[data-testid=lease]')?.dataset.held === 'false'",
        "the document, unlocked");
    page.eval(
        "window.leaseStates = []; window.canvasAgent.subscribe((topic, body) => topic === 'doc:lease' && window.leaseStates.push(body.state)); true");

    // The agent holds the lease: the view is locked, and shows the agent's edits as they land.
    JsonObject lease = post("/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject());
    page.waitFor(
        "document.querySelector('[data-testid=lease]')?.dataset.held === 'true'",
        "the lock indicator");
    assertEquals(
        Boolean.TRUE, page.eval("document.querySelector('[data-testid=markdown]').readOnly"));
    post(
        "/api/docs/" + docId + "/tools/canvas_replace_lines",
        new JsonObject()
            .put("start_line", 3)
            .put("end_line", 3)
            .put("new_content", "Agent line")
            .put("lease_id", lease.getString("lease_id"))
            .put("canvas_epoch", lease.getLong("canvas_epoch")));
    page.waitFor(
        "document.querySelector('[data-testid=markdown]').value.includes('Agent line')",
        "the agent's edit in the view");
    page.screenshot(SCREENSHOTS.resolve("document-locked-while-the-agent-holds-the-lease.png"));

    // "Take control" preempts the lease: the view is free again and the agent's lease is void.
    page.click("[data-testid=take-control]");
    page.waitFor(
        "document.querySelector('[data-testid=lease]')?.dataset.held === 'false'",
        "the lock to go");
    assertFalse(get("/api/docs/" + docId).getJsonObject("lease").getBoolean("held"));

    // The document agent itself: the page hears its lease taken and given back, and shows its edit.
    HttpResponse<Buffer> agent =
        Await.result(
            server
                .http()
                .post("/api/docs/" + docId + "/agent")
                .sendJsonObject(
                    new JsonObject().put("instruction", "/doc-fix Draft two => Final two")));
    assertEquals(202, agent.statusCode(), agent.bodyAsString());
    page.waitFor(
        "document.querySelector('[data-testid=markdown]').value.includes('Final two')",
        "the document agent's edit");
    page.waitFor(
        "window.leaseStates.includes('held') && window.leaseStates.includes('released')",
        "the agent's lease, held then released");
    page.waitFor(
        "document.querySelector('[data-testid=lease]')?.dataset.held === 'false'",
        "the view unlocked after the agent");
    page.screenshot(SCREENSHOTS.resolve("document-after-the-agent.png"));

    // A person's own tools: a snapshot, an edit, the diff since the snapshot, undo.
    page.click("[data-testid=save-snapshot]");
    page.waitFor(
        "document.querySelectorAll('[data-testid=snapshots] li').length === 1",
        "the snapshot in the list");
    page.fill("[data-testid=markdown]", "# Plan\n\nAgent line\nFinal two\nA person's line\n");
    page.click("[data-testid=save]");
    page.waitFor(
        "document.querySelector('[data-testid=undo]') && !document.querySelector('[data-testid=undo]').disabled"
            + " && document.querySelector('[data-testid=save]').disabled",
        "the edit saved");
    assertTrue(get("/api/docs/" + docId).getString("content").contains("A person's line"));
    page.click("[data-testid=show-diff]");
    page.waitFor(
        "document.querySelector('[data-testid=diff]')?.textContent.includes(\"+A person's line\")",
        "the diff since the snapshot");
    page.screenshot(SCREENSHOTS.resolve("document-diff.png"));
    page.click("[data-testid=undo]");
    page.waitFor(
        "!document.querySelector('[data-testid=markdown]').value.includes(\"A person's line\")",
        "the edit undone");
    assertFalse(get("/api/docs/" + docId).getString("content").contains("A person's line"));
    assertFalse(
        get("/api/docs/" + docId).getJsonObject("lease").getBoolean("held"),
        "the page checked its lease in again");
  }

  @Test
  void withAuthOnThePageUsesItsTokenForTheApiAndTheBus() {
    // A Vert.x of its own: two servers on one event bus would answer each other's requests.
    Vertx securedVertx = Vertx.vertx();
    TestServer secured = TestServer.start(securedVertx, TestServer.config(TestTokens.ENVIRONMENT));
    try {
      String token = new TestTokens(vertx).editor("e2e-auth");
      String base = "http://127.0.0.1:" + secured.port();
      Page refused = browser.open("no-token", base + "/?room=e2e-auth");
      refused.waitFor(
          "document.querySelector('[data-testid=notice]')?.textContent.includes('?token=')",
          "the notice asking for a token");
      refused.screenshot(SCREENSHOTS.resolve("auth-page-without-a-token.png"));
      refused.close();

      Page page = browser.open("token", base + "/?room=e2e-auth&token=" + token);
      page.waitFor(
          READY + " && window.canvasAgent.status.isHost", "a connected host page with its token");
      ask(page, "draw a blue rectangle labeled A");
      awaitAgentState(page, "done", "done status in the chat panel");
      JsonObject board =
          Await.result(
                  secured
                      .http()
                      .get("/api/rooms/e2e-auth/board")
                      .putHeader("authorization", TestTokens.bearer(token))
                      .send())
              .bodyAsJsonObject();
      page.waitFor(
          "window.canvasAgent.status.revision === " + board.getLong("revision"),
          "the run's revision");
      assertEquals(
          board.getJsonArray("records").size(),
          page.evalArray("window.canvasAgent.board()").size());
      // It hosted: the run's screenshot request reached it over the bus, answered with its token.
      assertTrue(((Number) page.eval("window.canvasAgent.screenshots.answered")).intValue() >= 1);
      assertEquals(List.of(), page.errors());
      page.screenshot(SCREENSHOTS.resolve("auth-page-with-a-token.png"));
      page.close();
    } finally {
      Await.result(secured.stop());
      Await.result(securedVertx.close());
    }
  }

  private Page openRoom(String name, String roomId) {
    Page page = browser.open(name, base() + "/?room=" + roomId);
    open.add(page);
    page.waitFor(READY, "a connected page with its board");
    return page;
  }

  /**
   * The room's board once it has settled: every page has sent what it had to send (a person's edits,
   * and the re-indexing tldraw does itself, see docs/browser-client.md) and holds the server's revision. Checked equal,
   * record for record, in every page; the server's records, sorted by id.
   */
  private JsonArray awaitSameBoard(String roomId, Page... pages) {
    String settled =
        "window.canvasAgent.sender.pending.size === 0 && window.canvasAgent.sender.inFlight === null"
            + " && fetch('/api/rooms/"
            + roomId
            + "/board').then(r => r.json()).then(b => b.revision === window.canvasAgent.status.revision)";
    for (int round = 1; ; round++) {
      for (Page page : pages) {
        page.waitFor(settled, "the board of room " + roomId + " to settle");
      }
      JsonObject board = server.board(roomId);
      boolean stillSettled = true;
      for (Page page : pages) {
        stillSettled &=
            Boolean.TRUE.equals(
                page.eval(
                    "("
                        + settled
                        + ") && window.canvasAgent.status.revision === "
                        + board.getLong("revision")));
      }
      // A page's edit in answer to another's moves the board once more; a handful of rounds is
      // plenty.
      if (stillSettled || round == 5) {
        JsonArray records =
            new JsonArray(
                board.getJsonArray("records").stream()
                    .map(JsonObject.class::cast)
                    .sorted(Comparator.comparing(record -> record.getString("id")))
                    .map(Object.class::cast)
                    .toList());
        for (Page page : pages) {
          assertEquals(
              records,
              page.evalArray("window.canvasAgent.board()"),
              page.name() + " holds the server's board");
        }
        return records;
      }
    }
  }

  private String startRun(String roomId, String message) {
    HttpResponse<Buffer> accepted =
        server.postRun(new JsonObject().put("roomId", roomId).put("message", message));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    return accepted.bodyAsJsonObject().getString("sessionId");
  }

  private static void awaitDone(SseClient events, String sessionId) {
    Await.result(
        events.awaitEvent(
            event ->
                "agent:status".equals(event.event())
                    && sessionId.equals(event.data().getString("sessionId"))
                    && "done".equals(event.data().getString("state"))));
  }

  private JsonObject post(String path, JsonObject body) {
    HttpResponse<Buffer> response = Await.result(server.http().post(path).sendJsonObject(body));
    assertTrue(response.statusCode() < 300, path + ": " + response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  private JsonObject get(String path) {
    return server.get(path).bodyAsJsonObject();
  }

  private String base() {
    return "http://127.0.0.1:" + server.port();
  }

  private boolean fromServer(String url) {
    return url.startsWith(base() + "/")
        || url.startsWith("blob:" + base() + "/")
        || url.startsWith("data:");
  }

  private static int readInt(byte[] bytes, int at) {
    return ((bytes[at] & 0xff) << 24)
        | ((bytes[at + 1] & 0xff) << 16)
        | ((bytes[at + 2] & 0xff) << 8)
        | (bytes[at + 3] & 0xff);
  }
}
