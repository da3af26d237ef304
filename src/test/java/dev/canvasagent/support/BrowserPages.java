package dev.canvasagent.support;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Real browser pages: Debian's Chromium ({@code /usr/bin/chromium}, or {@code CHROMIUM_PATH}) driven
 * by playwright-core from one Node process ({@code src/test/node/browser-pages.mjs}). Each command waits
 * for its answer; a wait for something in a page ({@link Page#waitFor}) is Playwright's, in the page,
 * and ends as soon as it holds. Without Chromium the tests that need it are skipped, except with
 * {@code CI=true}, where they fail. Call it from the test thread, never from an event loop.
 */
public final class BrowserPages implements AutoCloseable {
  public static final long WAIT_MS = 30_000;
  private static final String SCRIPT = "browser-pages.mjs";

  private final Process process;
  private final BufferedWriter commands;
  private final StringBuffer errors = new StringBuffer();
  private final NodeAnswers answers;
  private int refs;

  private BrowserPages(Process process) {
    this.process = process;
    this.commands =
        new BufferedWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.answers = new NodeAnswers("the browser driver", errors);
    NodeProcesses.daemon("browser-pages-out", () -> answers.read(process.getInputStream()));
    NodeProcesses.daemon(
        "browser-pages-err", () -> NodeProcesses.collectErrors(process.getErrorStream(), errors));
  }

  /** The browser, once it has started. */
  public static BrowserPages start() {
    Path chromium = Path.of(System.getenv().getOrDefault("CHROMIUM_PATH", "/usr/bin/chromium"));
    Path directory =
        Path.of(System.getProperty("tldraw.oracle.dir", "src/test/node")).toAbsolutePath();
    if (!Files.isExecutable(chromium)) {
      missing(
          "Chromium is not installed at "
              + chromium
              + " (apt-get install -y chromium; .ci/run installs it)");
    }
    if (!Files.isDirectory(directory.resolve("node_modules/playwright-core"))) {
      missing(
          "playwright-core is not installed in "
              + directory
              + "/node_modules (the build runs npm ci there)");
    }
    BrowserPages pages;
    try {
      pages =
          new BrowserPages(
              new ProcessBuilder("node", SCRIPT).directory(directory.toFile()).start());
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run `node` (Node.js 20+ must be on the PATH; the test suite needs it)", e);
    }
    pages.answers.await(0, 60_000, "the browser to start");
    return pages;
  }

  private static void missing(String why) {
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new IllegalStateException(why + " (CI=true: the browser tests may not be skipped)");
    }
    Assumptions.abort(why);
  }

  /** A new page (a browser context of its own) at {@code url}, once it has loaded. */
  public Page open(String name, String url) {
    call(new JsonObject().put("op", "open").put("page", name).put("url", url), WAIT_MS);
    return new Page(name);
  }

  /** One page. */
  public final class Page {
    private final String name;

    private Page(String name) {
      this.name = name;
    }

    public String name() {
      return name;
    }

    /** A JavaScript expression's value in the page (a promise is awaited): JsonObject, JsonArray, String, Number, Boolean or null. */
    public Object eval(String expression) {
      return call(command("eval").put("expression", expression), WAIT_MS);
    }

    public JsonObject evalObject(String expression) {
      return (JsonObject) eval(expression);
    }

    public JsonArray evalArray(String expression) {
      return (JsonArray) eval(expression);
    }

    /** Waits until the expression is truthy in the page; {@code what} names it when it never is. */
    public void waitFor(String expression, String what) {
      try {
        call(
            command("waitFor").put("expression", expression).put("timeoutMs", WAIT_MS),
            WAIT_MS + 10_000);
      } catch (AssertionError e) {
        throw new AssertionError(
            name
                + ": no "
                + what
                + " within "
                + WAIT_MS
                + " ms; page errors: "
                + errors()
                + "\n"
                + e.getMessage(),
            e);
      }
    }

    public void fill(String selector, String text) {
      call(command("fill").put("selector", selector).put("text", text), WAIT_MS);
    }

    public void click(String selector) {
      call(command("click").put("selector", selector), WAIT_MS);
    }

    public void press(String selector, String key) {
      call(command("press").put("selector", selector).put("key", key), WAIT_MS);
    }

    /** A mouse drag in page pixels, as a person draws. */
    public void drag(int fromX, int fromY, int toX, int toY) {
      call(
          command("drag")
              .put("from", new JsonObject().put("x", fromX).put("y", fromY))
              .put("to", new JsonObject().put("x", toX).put("y", toY)),
          WAIT_MS);
    }

    public Path screenshot(Path path) {
      try {
        Files.createDirectories(path.getParent());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      call(command("screenshot").put("path", path.toAbsolutePath().toString()), WAIT_MS);
      return path;
    }

    /** Cuts (or restores) the page's network, as a lost connection would. */
    public void offline(boolean offline) {
      call(command("offline").put("offline", offline), WAIT_MS);
    }

    /** Every URL the page has requested so far. */
    public List<String> requests() {
      return ((JsonArray) call(command("requests"), WAIT_MS))
          .stream().map(String::valueOf).toList();
    }

    /** Its uncaught errors, console errors and failed responses so far. */
    public List<String> errors() {
      return ((JsonArray) call(command("errors"), WAIT_MS)).stream().map(String::valueOf).toList();
    }

    public void close() {
      call(command("close"), WAIT_MS);
    }

    private JsonObject command(String op) {
      return new JsonObject().put("op", op).put("page", name);
    }
  }

  private Object call(JsonObject command, long waitMs) {
    int ref;
    synchronized (this) {
      ref = ++refs;
    }
    NodeProcesses.send(commands, command.put("ref", ref), errors);
    JsonObject answer =
        answers.await(ref, waitMs, command.getString("op") + " " + command.getString("page"));
    if (!answer.getBoolean("ok", false)) {
      throw new AssertionError(
          command.getString("op")
              + " failed in "
              + command.getString("page")
              + ": "
              + answer.getString("error"));
    }
    return answer.getValue("value");
  }

  @Override
  public void close() {
    // Chromium takes longer than a plain script to shut its pages down.
    NodeProcesses.stop(process, commands, 20);
  }
}
