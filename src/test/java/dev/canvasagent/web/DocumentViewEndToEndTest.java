package dev.canvasagent.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.BrowserPages;
import dev.canvasagent.support.BrowserPages.Page;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WebBuild;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
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
 * Seed 001's document view in real headless Chromium against the real server: rendered Markdown, the
 * diff view inline and side by side, the timeline of revisions and snapshots, undo and redo from the
 * toolbar, the lines an agent just changed highlighted, and "Add to Chat" sending the seed's formatted
 * message to the document agent. Each scenario has a document (and room) of its own, saves screenshots
 * in {@code target/e2e-screenshots/}, and ends with no page error and no request but to the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentViewEndToEndTest {
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots");

  static final String READY =
      "window.canvasAgent?.status?.state === 'open' && window.canvasAgent.status.revision !== null"
          + " && document.querySelector('[data-testid=lease]')?.dataset.held === 'false'";

  static final String PLAN = "# Plan\n\nDraft one\nDraft two\n\nThe end.\n";

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
      page.requests().stream()
          .filter(url -> !fromServer(url))
          .forEach(url -> problems.add(page.name() + " requested " + url));
      page.errors().forEach(error -> problems.add(page.name() + " logged " + error));
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

  @Test
  void theMarkdownIsRenderedAndSanitized() {
    String docId =
        create(
            "e2e-docview-preview",
            PLAN + "\n- a **bold** item\n\n<script>window.ran = 1</script>\n");
    Page page = openDocument("preview", "e2e-docview-preview", docId);
    page.click("[data-testid=view-preview]");
    page.waitFor(
        "document.querySelector('[data-testid=preview] h1')?.textContent === 'Plan'",
        "the heading rendered");
    assertEquals(
        "bold", page.eval("document.querySelector('[data-testid=preview] li strong').textContent"));
    assertEquals(
        Boolean.TRUE,
        page.eval(
            "document.querySelector('[data-testid=preview] script') === null && window.ran === undefined"),
        "a script in the document is neither kept nor run");
    page.screenshot(SCREENSHOTS.resolve("docview-preview.png"));
    page.click("[data-testid=view-edit]");
    page.waitFor("!!document.querySelector('[data-testid=markdown]')", "the editor back");
  }

  @Test
  void theDiffViewShowsAChangeInlineAndSideBySide() {
    String docId = create("e2e-docview-diff", PLAN);
    Page page = openDocument("diff", "e2e-docview-diff", docId);
    page.click("[data-testid=save-snapshot]");
    page.waitFor(
        "document.querySelectorAll('[data-testid=snapshots] li').length === 1", "the snapshot");
    page.fill("[data-testid=markdown]", PLAN.replace("Draft two", "Second draft"));
    page.click("[data-testid=save]");
    page.waitFor("document.querySelector('[data-testid=save]').disabled", "the edit saved");

    page.click("[data-testid=show-diff]");
    page.waitFor(
        "[...document.querySelectorAll('[data-testid=diff] .diff-code-insert')].some(e => e.textContent === 'Second draft')"
            + " && [...document.querySelectorAll('[data-testid=diff] .diff-code-delete')].some(e => e.textContent === 'Draft two')",
        "the change inline");
    assertEquals(
        Boolean.TRUE,
        page.eval("!!document.querySelector('[data-testid=diff] table.diff-unified')"));
    page.screenshot(SCREENSHOTS.resolve("docview-diff-inline.png"));

    page.click("[data-testid=diff-split]");
    page.waitFor(
        "document.querySelector('[data-testid=diff]')?.dataset.view === 'split'"
            + " && !!document.querySelector('[data-testid=diff] table.diff-split')"
            + " && [...document.querySelectorAll('[data-testid=diff] tr')].some(row =>"
            + " row.querySelector('.diff-code-delete')?.textContent === 'Draft two'"
            + " && row.querySelector('.diff-code-insert')?.textContent === 'Second draft')",
        "the change side by side, old and new on one row");
    page.screenshot(SCREENSHOTS.resolve("docview-diff-side-by-side.png"));
  }

  @Test
  void theTimelineListsRevisionsAndSnapshotsAndShowsTheSelectedOne() {
    String docId = create("e2e-docview-timeline", PLAN);
    String second = put(docId, PLAN.replace("Draft one", "Version two"), revision(docId));
    JsonObject lease = post("/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject());
    JsonObject held =
        new JsonObject()
            .put("lease_id", lease.getString("lease_id"))
            .put("canvas_epoch", lease.getLong("canvas_epoch"));
    post(
        "/api/docs/" + docId + "/tools/canvas_save_snapshot",
        held.copy().put("label", "after version two"));
    post("/api/docs/" + docId + "/tools/canvas_check_in", held);
    put(docId, PLAN.replace("Draft one", "Version three"), second);

    Page page = openDocument("timeline", "e2e-docview-timeline", docId);
    page.click("[data-testid=show-history]");
    page.waitFor(
        "document.querySelectorAll('[data-testid=timeline-item][data-kind=revision]').length === 3"
            + " && document.querySelectorAll('[data-testid=timeline-item][data-kind=snapshot]').length === 1",
        "three revisions and the snapshot in the timeline");
    JsonArray order =
        page.evalArray(
            "[...document.querySelectorAll('[data-testid=timeline-item]')].map(e => e.dataset.key)");
    assertEquals("r3", order.getString(0), "newest first: " + order);
    assertEquals("r1", order.getString(order.size() - 1), "oldest last: " + order);

    // A past revision: what it changed, and its text as it was.
    page.click("[data-testid=timeline-item][data-key=r2] button");
    page.waitFor(
        "document.querySelector('[data-testid=timeline-selected]')?.dataset.key === 'r2'"
            + " && document.querySelector('[data-testid=timeline-selected]').dataset.loading === 'false'",
        "revision 2 selected");
    String text =
        (String) page.eval("document.querySelector('[data-testid=timeline-content]').textContent");
    assertTrue(text.contains("Version two"), text);
    assertFalse(text.contains("Version three"), text);
    assertEquals(
        Boolean.TRUE,
        page.eval(
            "[...document.querySelectorAll('[data-testid=timeline-diff] .diff-code-insert')].some(e => e.textContent === 'Version two')"
                + " && [...document.querySelectorAll('[data-testid=timeline-diff] .diff-code-delete')].some(e => e.textContent === 'Draft one')"));
    page.screenshot(SCREENSHOTS.resolve("docview-timeline-revision.png"));

    // The snapshot: its text, what changed since, and a restore that makes it current again.
    page.click("[data-testid=timeline-item][data-kind=snapshot] button");
    page.waitFor(
        "document.querySelector('[data-testid=timeline-selected]')?.dataset.key?.startsWith('s')"
            + " && document.querySelector('[data-testid=timeline-selected]').dataset.loading === 'false'",
        "the snapshot selected");
    assertTrue(
        ((String) page.eval("document.querySelector('[data-testid=timeline-content]').textContent"))
            .contains("Version two"));
    assertEquals(
        Boolean.TRUE,
        page.eval(
            "[...document.querySelectorAll('[data-testid=timeline-diff] .diff-code-insert')].some(e => e.textContent === 'Version three')"));
    page.screenshot(SCREENSHOTS.resolve("docview-timeline-snapshot.png"));
    page.click("[data-testid=restore-snapshot]");
    page.waitFor(
        "document.querySelector('[data-testid=markdown]').value.includes('Version two')"
            + " && document.querySelectorAll('[data-testid=timeline-item][data-kind=revision]').length === 4",
        "the snapshot restored as a new revision");
    assertTrue(get("/api/docs/" + docId).getString("content").contains("Version two"));
    assertFalse(get("/api/docs/" + docId).getJsonObject("lease").getBoolean("held"));
  }

  @Test
  void theLinesAnAgentEditChangedAreHighlighted() {
    String docId = create("e2e-docview-highlights", PLAN);
    Page page = openDocument("highlights", "e2e-docview-highlights", docId);
    assertEquals(
        0L,
        ((Number) page.eval("document.querySelectorAll('[data-testid=changed-line]').length"))
            .longValue());
    HttpResponse<Buffer> agent =
        Await.result(
            server
                .http()
                .post("/api/docs/" + docId + "/agent")
                .sendJsonObject(
                    new JsonObject().put("instruction", "/doc-fix Draft two => Final two")));
    assertEquals(202, agent.statusCode(), agent.bodyAsString());
    page.waitFor(
        "document.querySelector('[data-testid=markdown]').value.includes('Final two')"
            + " && document.querySelectorAll('[data-testid=changed-line]').length === 1",
        "the agent's line highlighted");
    assertEquals(
        List.of("4", "Final two"),
        page.evalArray(
                "(() => { const line = document.querySelector('[data-testid=changed-line]');"
                    + " return [line.dataset.line, line.textContent] })()")
            .getList());
    page.waitFor(
        "document.querySelector('[data-testid=lease]')?.dataset.held === 'false'",
        "the agent done");
    page.screenshot(SCREENSHOTS.resolve("docview-highlights-after-the-agent.png"));

    // The person's typing ends the highlight: their own text is what they look at.
    page.fill("[data-testid=markdown]", PLAN.replace("Draft two", "Final two") + "Mine\n");
    page.waitFor(
        "document.querySelectorAll('[data-testid=changed-line]').length === 0",
        "no highlight while the person types");
  }

  @Test
  void addToChatSendsTheSelectionToTheDocumentAgentInSeed001sFormat() {
    String docId = create("e2e-docview-chat", PLAN);
    Page page = openDocument("chat", "e2e-docview-chat", docId);
    page.eval(
        "window.sentBodies = []; const send = window.fetch;"
            + " window.fetch = (url, options) => { window.sentBodies.push({ url: String(url), body: options?.body ?? null });"
            + " return send(url, options) }; true");

    // Lines 3 and 4 selected from the keyboard, the newline after them too, as selecting whole
    // lines does.
    int from = PLAN.indexOf("Draft one");
    page.eval(
        "(() => { const box = document.querySelector('[data-testid=markdown]'); box.focus();"
            + " box.setSelectionRange("
            + from
            + ", "
            + from
            + "); return true })()");
    page.press("[data-testid=markdown]", "Shift+ArrowDown");
    page.press("[data-testid=markdown]", "Shift+ArrowDown");
    page.waitFor(
        "document.querySelector('[data-testid=add-to-chat]')?.textContent.includes('lines 3–4')",
        "the Add to Chat button for lines 3-4");
    page.screenshot(SCREENSHOTS.resolve("docview-add-to-chat-button.png"));
    page.click("[data-testid=add-to-chat]");
    String formatted =
        "[Selected from lines 3-4]:\n```markdown\nDraft one\nDraft two\n```\n\nUser question: ";
    page.waitFor(
        "document.querySelector('[data-testid=doc-instruction]').value === "
            + new JsonArray().add(formatted).encode()
            + "[0]",
        "the formatted selection in the instruction box");
    String message = formatted + "Which draft reads better?";
    page.fill("[data-testid=doc-instruction]", message);
    page.click("[data-testid=doc-ask]");
    page.waitFor(
        "window.sentBodies.some(sent => sent.url.endsWith('/api/docs/"
            + docId
            + "/agent'))"
            + " && ['done', 'error', 'canceled'].includes(document.querySelector('[data-testid=doc-agent]')?.textContent.match(/document agent: (\\w+)/)?.[1])",
        "the document agent started and ended");
    JsonObject sent =
        new JsonObject(
            (String)
                page.eval(
                    "window.sentBodies.find(sent => sent.url.endsWith('/api/docs/"
                        + docId
                        + "/agent')).body"));
    assertEquals(new JsonObject().put("instruction", message), sent);
    assertEquals("", page.eval("document.querySelector('[data-testid=doc-instruction]').value"));
    page.screenshot(SCREENSHOTS.resolve("docview-add-to-chat-sent.png"));
  }

  @Test
  void theToolbarsUndoAndRedoMoveBetweenRevisions() {
    String docId = create("e2e-docview-undo", PLAN);
    Page page = openDocument("undo", "e2e-docview-undo", docId);
    assertEquals(
        Boolean.TRUE,
        page.eval(
            "document.querySelector('[data-testid=undo]').disabled && document.querySelector('[data-testid=redo]').disabled"));
    page.fill("[data-testid=markdown]", PLAN + "A person's line\n");
    page.click("[data-testid=save]");
    page.waitFor(
        "!document.querySelector('[data-testid=undo]').disabled && document.querySelector('[data-testid=save]').disabled",
        "the edit saved");

    page.click("[data-testid=undo]");
    page.waitFor(
        "!document.querySelector('[data-testid=markdown]').value.includes(\"A person's line\")"
            + " && !document.querySelector('[data-testid=redo]').disabled",
        "the edit undone");
    assertEquals(PLAN, get("/api/docs/" + docId).getString("content"));
    page.screenshot(SCREENSHOTS.resolve("docview-undone.png"));

    page.click("[data-testid=redo]");
    page.waitFor(
        "document.querySelector('[data-testid=markdown]').value.includes(\"A person's line\")"
            + " && document.querySelector('[data-testid=redo]').disabled",
        "the edit redone");
    assertEquals(PLAN + "A person's line\n", get("/api/docs/" + docId).getString("content"));
    assertFalse(
        get("/api/docs/" + docId).getJsonObject("lease").getBoolean("held"),
        "the page checked its lease in again");
    page.screenshot(SCREENSHOTS.resolve("docview-redone.png"));
  }

  private Page openDocument(String name, String roomId, String docId) {
    Page page = browser.open(name, base() + "/?room=" + roomId + "&doc=" + docId);
    open.add(page);
    page.waitFor(READY, "the document, unlocked");
    return page;
  }

  private String create(String roomId, String content) {
    return post(
            "/api/docs",
            new JsonObject().put("roomId", roomId).put("title", "Plan").put("content", content))
        .getString("id");
  }

  private String revision(String docId) {
    return get("/api/docs/" + docId).getString("revisionId");
  }

  /** A person's edit over HTTP; answers the new revision id. */
  private String put(String docId, String content, String baseRevisionId) {
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .put("/api/docs/" + docId)
                .sendJsonObject(
                    new JsonObject()
                        .put("content", content)
                        .put("baseRevisionId", baseRevisionId)));
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getString("revisionId");
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
}
