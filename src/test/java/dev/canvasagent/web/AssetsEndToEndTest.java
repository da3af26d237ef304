package dev.canvasagent.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.BrowserPages;
import dev.canvasagent.support.BrowserPages.Page;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WebBuild;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Images in real Chromium, the server on PostgreSQL: a file put on page A through tldraw's own
 * external-content path (as a paste or a drop does) is uploaded, appears on page B, and is still on
 * the board, its bytes served, after the server restarts on the same database. Screenshots in
 * {@code target/e2e-screenshots/}; no page error, no request but to the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AssetsEndToEndTest {
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots");
  static final String READY = BrowserEndToEndTest.READY;

  /** A 48×48 checkerboard PNG. */
  static final String PNG_BASE64 =
      "iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAIAAADYYG7QAAAAVUlEQVR4nO3OQQ0AIAwEQeQgAiVo540OJLRNSF+T3Htvxl0z3Nwn3K/OAAICAgICKoI6zzIdICAgICCgKqjzLNMBAgICAgKqgjrPMh0gICAgIKBi5wGuCvSmrcbOUQAAAABJRU5ErkJggg==";

  /** The page's image is drawn: its element has the server's URL and has loaded. */
  static final String IMAGE_SHOWN =
      "[...document.querySelectorAll('.tl-shape[data-shape-type=image] img')]"
          + ".some(img => img.src.includes('/assets/') && img.complete && img.naturalWidth === 48)";

  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  BrowserPages browser;
  final List<Page> open = new ArrayList<>();

  @BeforeAll
  void start() {
    WebBuild.require();
    browser = BrowserPages.start();
    vertx = Vertx.vertx();
    database = TestDatabase.freshSchema();
    server =
        TestServer.start(vertx, TestServer.config(Map.of()).withDatabase(Optional.of(database)));
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
    }
    if (database != null) {
      TestDatabase.drop(database);
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  @Test
  void anImagePutOnPageAAppearsOnPageBAndSurvivesARestart() {
    String roomId = "e2e-assets";
    Page first = openRoom("first", roomId);
    Page second = openRoom("second", roomId);
    first.eval(
        "(async () => {"
            + " const bytes = Uint8Array.from(atob('"
            + PNG_BASE64
            + "'), c => c.charCodeAt(0));"
            + " const file = new File([bytes], 'checker.png', { type: 'image/png' });"
            + " await window.canvasAgent.editor.putExternalContent("
            + "{ type: 'files', files: [file], point: { x: 300, y: 250 } });"
            + " return true })()");
    first.waitFor(IMAGE_SHOWN, "the image on the page that put it");
    second.waitFor(IMAGE_SHOWN, "the image on the other page");

    JsonArray records = awaitUploadedOnBoard(roomId);
    JsonObject asset = ofType(records, "asset");
    assertEquals("image", asset.getString("type"));
    String src = asset.getJsonObject("props").getString("src");
    assertTrue(src.matches("asset:[0-9a-f]{64}"), src);
    JsonObject image = ofType(records, "shape");
    assertEquals(asset.getString("id"), image.getJsonObject("props").getString("assetId"));
    second.screenshot(SCREENSHOTS.resolve("assets-image-on-the-other-page.png"));
    closePages();

    // The server restarts on the same database: the board and the file are both still there.
    Await.result(server.stop());
    server =
        TestServer.start(vertx, TestServer.config(Map.of()).withDatabase(Optional.of(database)));
    Page after = openRoom("after-restart", roomId);
    after.waitFor(IMAGE_SHOWN, "the image after the restart");
    assertEquals(records, board(roomId).getJsonArray("records"));
    after.screenshot(SCREENSHOTS.resolve("assets-image-after-restart.png"));
  }

  /** The board once its asset record names its uploaded file (tldraw sets it after the upload). */
  private JsonArray awaitUploadedOnBoard(String roomId) {
    for (int attempt = 0; ; attempt++) {
      JsonArray records = board(roomId).getJsonArray("records");
      boolean uploaded =
          records.stream()
              .map(JsonObject.class::cast)
              .anyMatch(
                  record ->
                      "asset".equals(record.getString("typeName"))
                          && record
                              .getJsonObject("props")
                              .getString("src", "")
                              .startsWith("asset:"));
      if (uploaded) {
        return records;
      }
      if (attempt > 100) {
        throw new AssertionError("the board never held the uploaded asset: " + records.encode());
      }
      Await.result(vertx.timer(100));
    }
  }

  private JsonObject board(String roomId) {
    return server.board(roomId);
  }

  private static JsonObject ofType(JsonArray records, String typeName) {
    return records.stream()
        .map(JsonObject.class::cast)
        .filter(record -> typeName.equals(record.getString("typeName")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + typeName + " in " + records.encode()));
  }

  private Page openRoom(String name, String roomId) {
    Page page = browser.open(name, base() + "/?room=" + roomId);
    open.add(page);
    page.waitFor(READY, "a connected page with its board");
    return page;
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
