package dev.canvasagent.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RoomView;
import dev.canvasagent.bus.RoomViewRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.BrowserPages;
import dev.canvasagent.support.BrowserPages.Page;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import dev.canvasagent.support.WebBuild;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the agent sees of a pasted image, in real Chromium with auth on: a person puts an image of one
 * unusual colour on the board through tldraw's external-content path (as a paste does) on one page;
 * another page, which hosts the room and knows the image only from the board, shows it; then the server's screenshot RPC, asked as {@code runner.view} (a run's look, MCP's
 * {@code canvas_view}) asks, gets the host's export of that part of the board, and the image's colour
 * is in the PNG exactly where the image is. The export reads the image's bytes from the room's asset
 * route as the page's {@code <img>} does, token and all. The PNG the agent saw and the page are saved in
 * {@code target/e2e-screenshots/}; no page error, no request but to the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostScreenshotImagesEndToEndTest {
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots");
  static final String ROOM = "e2e-screenshot-image";

  /** A colour no tldraw style, background or grid uses: found in the export only if the image is. */
  static final int RED = 0x17;

  static final int GREEN = 0xc9;
  static final int BLUE = 0x9d;

  static final int IMAGE_SIDE = 96;

  /** Space around the image in the requested bounds, page units (the export is at scale 1). */
  static final int MARGIN = 80;

  static final String READY =
      "window.canvasAgent?.status?.state === 'open' && window.canvasAgent.status.revision !== null";

  static final String READY_HOST =
      "window.canvasAgent?.status?.state === 'open' && window.canvasAgent.status.revision !== null"
          + " && window.canvasAgent.status.isHost";

  /** The page drew the image from the server's URL. */
  static final String IMAGE_SHOWN =
      "[...document.querySelectorAll('.tl-shape[data-shape-type=image] img')]"
          + ".some(img => img.src.includes('/assets/') && img.complete && img.naturalWidth === "
          + IMAGE_SIDE
          + ")";

  Vertx vertx;
  TestServer server;
  TestTokens tokens;
  BrowserPages browser;
  final List<Page> open = new ArrayList<>();

  @BeforeAll
  void start() {
    WebBuild.require();
    browser = BrowserPages.start();
    vertx = Vertx.vertx();
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
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
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  @Test
  void theHostsScreenshotShowsAPastedImageWhereItIs() throws IOException {
    // The host is not the page that pastes: it has no local copy of the file, only the server's.
    Page host = openPage("host");
    host.waitFor(READY_HOST, "a connected page hosting the room");
    Page person = openPage("person");
    person.waitFor(READY, "a second page, connected");
    person.eval(
        "(async () => {"
            + " const bytes = Uint8Array.from(atob('"
            + Base64.getEncoder().encodeToString(solidPng())
            + "'), c => c.charCodeAt(0));"
            + " const file = new File([bytes], 'swatch.png', { type: 'image/png' });"
            + " await window.canvasAgent.editor.putExternalContent("
            + "{ type: 'files', files: [file], point: { x: 400, y: 300 } });"
            + " return true })()");
    person.waitFor(IMAGE_SHOWN, "the pasted image on the page that pasted it");
    host.waitFor(IMAGE_SHOWN, "the pasted image on the hosting page");
    awaitUploadedOnBoard();
    JsonObject bounds =
        host.evalObject(
            "(() => { const e = window.canvasAgent.editor;"
                + " const s = e.getCurrentPageShapes().find((x) => x.type === 'image');"
                + " const b = e.getShapePageBounds(s.id); return { x: b.x, y: b.y, w: b.w, h: b.h } })()");
    double x = bounds.getDouble("x");
    double y = bounds.getDouble("y");
    double w = bounds.getDouble("w");
    double h = bounds.getDouble("h");
    assertTrue(w >= IMAGE_SIDE / 2.0 && h >= IMAGE_SIDE / 2.0, bounds.encode());

    // The agent's look at that part of the board, the host asked for its image over the room's
    // stream.
    RoomView view =
        Await.result(
            Address.RUNNER_VIEW.ask(
                vertx.eventBus(),
                new RoomViewRequest(
                    ROOM,
                    true,
                    new Viewport(x - MARGIN, y - MARGIN, w + 2 * MARGIN, h + 2 * MARGIN))));
    assertNull(view.imageUnavailable(), "the host answered");
    assertNotNull(view.image(), "an image came");
    byte[] png = Base64.getDecoder().decode(view.image().base64());
    Files.createDirectories(SCREENSHOTS);
    Files.write(SCREENSHOTS.resolve("host-screenshot-with-image.png"), png);
    host.screenshot(SCREENSHOTS.resolve("host-screenshot-with-image-page.png"));
    BufferedImage seen = ImageIO.read(new ByteArrayInputStream(png));
    assertNotNull(seen, "a PNG");
    assertEquals(Math.round(w + 2 * MARGIN), seen.getWidth(), "at scale 1, the bounds' width");
    assertEquals(Math.round(h + 2 * MARGIN), seen.getHeight(), "at scale 1, the bounds' height");

    // Where the image is, its colour; around it, the board's background and nothing of that colour.
    int inside = 0;
    int insideOfColour = 0;
    int outsideOfColour = 0;
    for (int py = 0; py < seen.getHeight(); py++) {
      for (int px = 0; px < seen.getWidth(); px++) {
        boolean colour = isTheColour(seen.getRGB(px, py));
        boolean withinImage =
            px >= MARGIN + 2 && px < MARGIN + w - 2 && py >= MARGIN + 2 && py < MARGIN + h - 2;
        boolean clearOfImage =
            px < MARGIN - 2 || px >= MARGIN + w + 2 || py < MARGIN - 2 || py >= MARGIN + h + 2;
        if (withinImage) {
          inside++;
          insideOfColour += colour ? 1 : 0;
        } else if (clearOfImage && colour) {
          outsideOfColour++;
        }
      }
    }
    assertEquals(inside, insideOfColour, "every pixel where the image is has its colour");
    assertEquals(0, outsideOfColour, "no pixel away from the image has its colour");
    // The page counts its answer once its send is acknowledged, which may come after the server has
    // it.
    host.waitFor("window.canvasAgent.screenshots.answered >= 1", "the page's count of its answer");
  }

  /** A PNG of one colour, {@link #IMAGE_SIDE} square. */
  static byte[] solidPng() {
    BufferedImage image = new BufferedImage(IMAGE_SIDE, IMAGE_SIDE, BufferedImage.TYPE_INT_RGB);
    int rgb = (RED << 16) | (GREEN << 8) | BLUE;
    for (int py = 0; py < IMAGE_SIDE; py++) {
      for (int px = 0; px < IMAGE_SIDE; px++) {
        image.setRGB(px, py, rgb);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The image's colour, give or take a little for the browser's colour handling. */
  static boolean isTheColour(int argb) {
    int tolerance = 6;
    return Math.abs(((argb >> 16) & 0xff) - RED) <= tolerance
        && Math.abs(((argb >> 8) & 0xff) - GREEN) <= tolerance
        && Math.abs((argb & 0xff) - BLUE) <= tolerance;
  }

  /** The board once its asset record names its uploaded file (tldraw sets it after the upload). */
  private void awaitUploadedOnBoard() {
    for (int attempt = 0; ; attempt++) {
      JsonArray records =
          Await.result(
                  server
                      .http()
                      .get("/api/rooms/" + ROOM + "/board")
                      .bearerTokenAuthentication(tokens.viewer(ROOM))
                      .send())
              .bodyAsJsonObject()
              .getJsonArray("records");
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
        return;
      }
      if (attempt > 100) {
        throw new AssertionError("the board never held the uploaded asset: " + records.encode());
      }
      Await.result(vertx.timer(100));
    }
  }

  private Page openPage(String name) {
    Page page = browser.open(name, base() + "/?room=" + ROOM + "&token=" + tokens.editor(ROOM));
    open.add(page);
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
