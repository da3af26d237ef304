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
 * The page's chat in headless Chromium: {@code /poster}'s messages stand in the order the model wrote
 * them, and a message grows on the page before it is whole.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChatStreamEndToEndTest {
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
    // Slow enough that each message streams in several deltas the page can be seen to show.
    server =
        TestServer.start(
            vertx, TestServer.config(Map.of("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "30")));
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

  @Test
  void thePostersChatStreamsInTheModelsOrder() {
    Page page = browser.open("chat", "http://127.0.0.1:" + server.port() + "/?room=e2e-chat");
    open.add(page);
    page.waitFor(BrowserEndToEndTest.READY, "a connected page with its board");
    // Every length a streaming message was seen at, by message id.
    page.eval(
        "(() => { window.__grown = {};"
            + " new MutationObserver(() => {"
            + "   for (const li of document.querySelectorAll('[data-testid=messages] li[data-streaming=true]')) {"
            + "     const seen = (window.__grown[li.dataset.messageId] ??= []);"
            + "     const length = li.querySelector('.text').textContent.length;"
            + "     if (!seen.includes(length)) seen.push(length) } })"
            + " .observe(document.querySelector('[data-testid=messages]'),"
            + "   { childList: true, subtree: true, characterData: true }); return true })()");
    BrowserEndToEndTest.ask(page, "/poster");
    BrowserEndToEndTest.awaitAgentState(page, "done", "the poster run done");
    page.waitFor(
        "document.querySelectorAll('[data-testid=messages] li').length === 4"
            + " && !document.querySelector('[data-testid=messages] li[data-streaming=true]')",
        "four whole messages");
    JsonArray chat =
        page.evalArray(
            "[...document.querySelectorAll('[data-testid=messages] .text')].map(e => e.textContent)");
    assertEquals(
        List.of(
            "/poster",
            "Drafting a brutalist poster: a hero headline, a supporting block, a vertical divider"
                + " and three sticky notes.",
            "Brutalist: heavy type, hard edges, flat orange and charcoal, no decoration. Headline"
                + " and block on the left, a thick divider, notes on the right.",
            "Poster drafted: headline, block, divider, three notes."),
        chat.getList(),
        "the model's order");
    JsonArray grown =
        page.evalArray(
            "Object.values(window.__grown).filter(lengths => lengths.length > 1).map(l => l.length)");
    assertEquals(3, grown.size(), "each agent message grew before it was whole: " + grown);
    page.screenshot(SCREENSHOTS.resolve("chat-streams-in-the-models-order.png"));

    // A reload shows the history in the same order.
    Page again =
        browser.open("chat-again", "http://127.0.0.1:" + server.port() + "/?room=e2e-chat");
    open.add(again);
    again.waitFor(BrowserEndToEndTest.READY, "the page again");
    again.waitFor(
        "document.querySelectorAll('[data-testid=messages] li').length === 4", "the history");
    assertEquals(
        chat.getList(),
        again
            .evalArray(
                "[...document.querySelectorAll('[data-testid=messages] .text')].map(e => e.textContent)")
            .getList(),
        "the history in the same order");
    assertTrue(chat.size() == 4);
  }
}
