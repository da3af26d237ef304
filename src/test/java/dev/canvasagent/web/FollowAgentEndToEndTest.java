package dev.canvasagent.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.TldrawStyles;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Watching the agent in real headless Chromium: following it moves the camera to its work, work
 * outside the view is pointed at when not following, and a partial {@code create_shape} of every
 * kind the catalog can create is previewed (tldraw validating each preview record), fed to the page's
 * preview code and, through the real stream, by the fake model's {@code /previews} run. Screenshots in
 * {@code target/e2e-screenshots/}; no page may log an error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FollowAgentEndToEndTest {
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots");

  static final String READY =
      "window.canvasAgent?.status?.state === 'open' && window.canvasAgent.status.revision !== null"
          + " && window.canvasAgent.follower !== undefined";

  /** Where the runs draw: far from where a page opens (its camera at 0,0). */
  static final JsonObject FAR_VIEW =
      new JsonObject().put("x", 6000).put("y", 4000).put("w", 900).put("h", 700);

  /** The view's page bounds contain the centre of the room's one shape. */
  static final String SHOWS_THE_STAR =
      "(() => { const e = window.canvasAgent.editor;"
          + " const s = e.getCurrentPageShapes().find((x) => x.type === 'geo');"
          + " if (!s) return false; const b = e.getShapePageBounds(s.id);"
          + " const v = e.getViewportPageBounds();"
          + " return v.containsPoint(b.center); })()";

  Vertx vertx;
  TestServer server;
  BrowserPages browser;
  final List<Page> open = new ArrayList<>();

  @BeforeAll
  void start() {
    WebBuild.require();
    browser = BrowserPages.start();
    vertx = Vertx.vertx();
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_PARTIAL_INTERVAL_MS", "50",
                    // Slow enough that each of /previews' shapes is still streaming when a partial
                    // with its place goes out.
                    "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "20")));
  }

  @AfterEach
  void closePages() {
    List<String> problems = new ArrayList<>();
    for (Page page : open) {
      page.errors().forEach(error -> problems.add(page.name() + " logged " + error));
      page.close();
    }
    open.clear();
    assertEquals(List.of(), problems, "no page logged an error");
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
  void followingTheAgentMovesTheCameraToWhatItDraws() {
    Page page = openRoom("follow", "e2e-follow");
    page.click("[data-testid=follow-agent]");
    page.waitFor("window.canvasAgent.follower.following === true", "following on");
    assertEquals(false, page.eval(SHOWS_THE_STAR + " || false"));
    run("e2e-follow", "draw a red star");
    page.waitFor(SHOWS_THE_STAR, "the camera on the agent's star");
    assertTrue(((Number) page.eval("window.canvasAgent.follower.stats.followed")).intValue() >= 1);
    assertEquals(
        0,
        ((Number) page.eval("document.querySelectorAll('[data-testid=agent-offscreen]').length"))
            .intValue(),
        "following: nothing to point at");
    page.screenshot(SCREENSHOTS.resolve("follow-agent-camera-moved.png"));
  }

  @Test
  void notFollowingAChipPointsAtWorkOutsideTheViewAndShowsIt() {
    Page page = openRoom("pointer", "e2e-pointer");
    run("e2e-pointer", "draw a red star");
    page.waitFor(
        "document.querySelector('[data-testid=agent-offscreen]') !== null",
        "the chip pointing at the agent's work");
    assertEquals(false, page.eval(SHOWS_THE_STAR), "the camera stays where the person left it");
    Number direction =
        (Number)
            page.eval(
                "Number(document.querySelector('[data-testid=agent-offscreen]').dataset.direction)");
    assertTrue(
        direction.intValue() > 0 && direction.intValue() < 90, "down and right: " + direction);
    page.screenshot(SCREENSHOTS.resolve("follow-agent-offscreen-chip.png"));
    page.click("[data-testid=agent-offscreen]");
    page.waitFor(SHOWS_THE_STAR, "the camera on the agent's star");
    page.waitFor(
        "document.querySelector('[data-testid=agent-offscreen]') === null", "the chip gone");
    page.screenshot(SCREENSHOTS.resolve("follow-agent-offscreen-shown.png"));
  }

  @Test
  void aPartialCreateOfEveryShapeKindIsPreviewed() {
    Page page = openRoom("previews", "e2e-previews");
    page.waitFor(
        "Object.keys(window.canvasAgent.executor.previews.words.shapeKinds).length > 0",
        "the server's words for kinds, from /api/catalog");
    JsonArray kinds =
        new JsonArray()
            .add(kind("rectangle", "geo", new JsonObject().put("x", 0).put("y", 0)))
            .add(kind("star", "geo", new JsonObject().put("x", 120).put("y", 0)))
            .add(kind("circle", "geo", new JsonObject().put("x", 240).put("y", 0)))
            .add(kind("note", "note", new JsonObject().put("x", 0).put("y", 150)))
            .add(kind("post-it", "note", new JsonObject().put("x", 220).put("y", 150)))
            .add(kind("headline", "text", new JsonObject().put("x", 0).put("y", 400)))
            .add(kind("heading", "text", new JsonObject().put("x", 0).put("y", 460)))
            .add(kind("frame", "frame", new JsonObject().put("x", 450).put("y", 0)))
            .add(
                kind(
                    "line",
                    "line",
                    new JsonObject().put("points", points(0, 520, 200, 560, 300, 520))))
            .add(
                kind(
                    "pen",
                    "draw",
                    new JsonObject().put("points", points(0, 600, 40, 640, 90, 610))))
            .add(
                kind(
                    "connector",
                    "arrow",
                    new JsonObject()
                        .put("start", new JsonObject().put("x", 450).put("y", 300))
                        .put("end", new JsonObject().put("x", 650).put("y", 350))));
    JsonArray types =
        page.evalArray(
            "(() => { const p = window.canvasAgent.executor.previews;"
                + " p.origins.set('s-preview', { x: 0, y: 0 });"
                + " return "
                + kinds.encode()
                + ".map((c, i) => { p.show('s-preview', { id: 'run-p:' + i, name: 'create_shape',"
                + " params: { ...c.params, type: c.word, text: 'preview ' + c.word,"
                + " props: { color: 'charcoal', fill: 'solid' } } });"
                + " const id = p.shown.get('run-p:' + i);"
                + " const shape = id && window.canvasAgent.editor.getShape(id);"
                + " return shape ? shape.type + (shape.isLocked ? '' : ' unlocked')"
                + " + (shape.props.color === 'black' || shape.type === 'frame' ? '' : ' '"
                + " + shape.props.color) : 'none'; }); })()");
    assertEquals(
        kinds.stream().map(kind -> ((JsonObject) kind).getString("type")).toList(),
        types.getList(),
        "each kind previewed as its tldraw type, locked, charcoal read as black");
    assertEquals(
        List.of(),
        page.evalArray("window.canvasAgent.board().filter((r) => r.meta?.preview)").getList(),
        "previews are never part of the board");
    page.screenshot(SCREENSHOTS.resolve("previews-every-kind.png"));
    page.eval("window.canvasAgent.executor.previews.discardRun('run-p') ?? true");
    assertEquals(
        0,
        ((Number)
                page.eval(
                    "window.canvasAgent.editor.getCurrentPageShapes().filter((s) => s.meta?.preview).length"))
            .intValue());
  }

  @Test
  void theFakesPreviewsRunShowsAPreviewOfEveryKindBeforeItsFinalShape() {
    String roomId = "e2e-previews-run";
    Page page = openRoom("previews-run", roomId);
    // Every word the catalog reads as a kind, and every geo kind: what /previews streams.
    JsonObject kinds = server.get("/api/catalog").bodyAsJsonObject().getJsonObject("shapeKinds");
    Map<String, JsonObject> expected = new TreeMap<>();
    kinds.fieldNames().forEach(word -> expected.put(word, kinds.getJsonObject(word)));
    TldrawStyles.GEOS.forEach(
        geo -> expected.put(geo, new JsonObject().put("type", "geo").put("geo", geo)));
    page.waitFor(
        "Object.keys(window.canvasAgent.executor.previews.words.shapeKinds).length > 0",
        "the server's words for kinds, from /api/catalog");

    var accepted =
        server.postRun(
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "/previews")
                .put(
                    "viewport",
                    new JsonObject().put("x", 0).put("y", 0).put("w", 1300).put("h", 1300)));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    page.waitFor(
        "window.canvasAgent.executor.previews.shown.size > 0", "a preview while the run streams");
    page.screenshot(SCREENSHOTS.resolve("previews-run-streaming.png"));
    String finalShapes =
        new JsonArray(expected.keySet().stream().map(word -> "shape:kind-" + word).toList())
                .encode()
            + ".every((id) => window.canvasAgent.editor.getShape(id))";
    page.waitFor(finalShapes, "every kind's final shape on the page");

    JsonArray timeline = page.evalArray("window.canvasAgent.executor.previews.timeline");
    Map<String, JsonObject> previewed = new TreeMap<>();
    Map<String, String> wordOfAction = new HashMap<>();
    List<String> replacedAfterPreview = new ArrayList<>();
    for (Object item : timeline) {
      JsonObject entry = (JsonObject) item;
      String actionId = entry.getString("actionId");
      switch (entry.getString("event")) {
        case "preview" -> {
          previewed.put(entry.getString("word"), entry);
          wordOfAction.put(actionId, entry.getString("word"));
        }
        case "replaced" -> {
          if (wordOfAction.containsKey(actionId)) {
            replacedAfterPreview.add(wordOfAction.get(actionId));
          }
        }
        default -> {}
      }
    }
    Set<String> missing = new TreeSet<>(expected.keySet());
    missing.removeAll(previewed.keySet());
    assertEquals(Set.of(), missing, "kinds never previewed (the first included)");
    expected.forEach(
        (word, kind) -> {
          JsonObject preview = previewed.get(word);
          assertEquals(kind.getString("type"), preview.getString("type"), word);
          assertEquals(kind.getString("geo"), preview.getString("geo"), word);
        });
    Set<String> notReplaced = new TreeSet<>(expected.keySet());
    notReplaced.removeAll(replacedAfterPreview);
    assertEquals(Set.of(), notReplaced, "previews not replaced by their final envelope after them");

    JsonObject finals =
        page.evalObject(
            "Object.fromEntries(window.canvasAgent.editor.getCurrentPageShapes()"
                + ".filter((s) => s.id.startsWith('shape:kind-'))"
                + ".map((s) => [s.id.slice('shape:kind-'.length), { type: s.type, geo: s.props.geo ?? null }]))");
    assertEquals(expected.keySet(), finals.fieldNames(), "the final shapes, one per kind");
    expected.forEach(
        (word, kind) -> {
          assertEquals(kind.getString("type"), finals.getJsonObject(word).getString("type"), word);
          assertEquals(kind.getString("geo"), finals.getJsonObject(word).getString("geo"), word);
        });
    page.waitFor(
        "window.canvasAgent.editor.getCurrentPageShapes().every((s) => !s.meta?.preview)"
            + " && window.canvasAgent.executor.previews.shown.size === 0",
        "no preview left");
    JsonArray board = server.board(roomId).getJsonArray("records");
    assertEquals(
        expected.size(),
        board.stream()
            .map(JsonObject.class::cast)
            .filter(record -> record.getString("id").startsWith("shape:kind-"))
            .count(),
        "the server's board holds them all");
    page.screenshot(SCREENSHOTS.resolve("previews-run-final.png"));
  }

  private static JsonObject kind(String word, String type, JsonObject params) {
    return new JsonObject().put("word", word).put("type", type).put("params", params);
  }

  private static JsonArray points(int... xy) {
    JsonArray points = new JsonArray();
    for (int i = 0; i < xy.length; i += 2) {
      points.add(new JsonObject().put("x", xy[i]).put("y", xy[i + 1]));
    }
    return points;
  }

  private void run(String roomId, String message) {
    var accepted =
        server.postRun(
            new JsonObject()
                .put("roomId", roomId)
                .put("message", message)
                .put("viewport", FAR_VIEW));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
  }

  private Page openRoom(String name, String roomId) {
    Page page = browser.open(name, "http://127.0.0.1:" + server.port() + "/?room=" + roomId);
    open.add(page);
    page.waitFor(READY, "a connected page with its board and its follower");
    return page;
  }
}
