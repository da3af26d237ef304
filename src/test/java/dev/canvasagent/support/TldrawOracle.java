package dev.canvasagent.support;

import dev.canvasagent.board.DrawPath;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * tldraw itself, asked from a test: {@code node tldraw-oracle.mjs} (src/test/node, with
 * {@code @tldraw/tlschema} pinned by its package-lock.json) answers one JSON line per request line.
 * Started once per test JVM, on first use; every call blocks the calling test thread, so never call
 * it from an event loop. Without Node or the installed packages the tests that use it fail: the
 * suite needs Node, it is not optional.
 */
public final class TldrawOracle {
  private static final long ANSWER_SECONDS = 60;
  private static final String SCRIPT = "tldraw-oracle.mjs";
  private static final Object END_OF_OUTPUT = new Object();
  private static TldrawOracle running;

  private final Process process;
  private final BufferedWriter requests;
  private final BlockingQueue<Object> answers = new LinkedBlockingQueue<>();
  private final StringBuffer errors = new StringBuffer();

  private TldrawOracle(Process process) {
    this.process = process;
    this.requests =
        new BufferedWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    NodeProcesses.daemon("tldraw-oracle-out", () -> readAnswers(process.getInputStream()));
    NodeProcesses.daemon(
        "tldraw-oracle-err", () -> NodeProcesses.collectErrors(process.getErrorStream(), errors));
  }

  /** "<id>: <error>" for every record tldraw's schema rejects; empty when it accepts them all. */
  public static List<String> invalid(Collection<JsonObject> records) {
    List<String> invalid = new ArrayList<>();
    for (Object result : verdicts(records)) {
      JsonObject verdict = (JsonObject) result;
      if (!verdict.getBoolean("ok")) {
        invalid.add(verdict.getString("id") + ": " + verdict.getString("error"));
      }
    }
    return invalid;
  }

  /** tldraw's error for one record, or empty when tldraw accepts it. */
  public static Optional<String> problem(JsonObject record) {
    return problems(List.of(record)).get(0);
  }

  /** tldraw's error for each record, in order; empty where tldraw accepts it. One request for all. */
  public static List<Optional<String>> problems(List<JsonObject> records) {
    List<Optional<String>> problems = new ArrayList<>();
    for (Object result : verdicts(records)) {
      JsonObject verdict = (JsonObject) result;
      problems.add(
          verdict.getBoolean("ok") ? Optional.empty() : Optional.of(verdict.getString("error")));
    }
    return problems;
  }

  public static void assertValid(Collection<JsonObject> records) {
    List<String> invalid = invalid(records);
    if (!invalid.isEmpty()) {
      throw new AssertionError(
          "tldraw rejects " + invalid.size() + " record(s):\n" + String.join("\n", invalid));
    }
  }

  /** tldraw's {@code b64Vecs.encodePoints(points)}. */
  public static String encodePoints(List<DrawPath.Point> points) {
    JsonArray json = new JsonArray();
    points.forEach(
        point ->
            json.add(new JsonObject().put("x", point.x()).put("y", point.y()).put("z", point.z())));
    return ask(new JsonObject().put("op", "encodePoints").put("points", json)).getString("path");
  }

  /** tldraw's {@code b64Vecs.decodePoints(path)}. */
  public static List<DrawPath.Point> decodePoints(String path) {
    JsonArray json =
        ask(new JsonObject().put("op", "decodePoints").put("path", path)).getJsonArray("points");
    List<DrawPath.Point> points = new ArrayList<>();
    for (int i = 0; i < json.size(); i++) {
      JsonObject point = json.getJsonObject(i);
      points.add(
          new DrawPath.Point(
              number(point.getValue("x")),
              number(point.getValue("y")),
              number(point.getValue("z"))));
    }
    return points;
  }

  /** A number as the oracle sends it: JSON numbers, and -0, NaN, ±Infinity as strings. */
  private static double number(Object value) {
    return value instanceof String text ? Double.parseDouble(text) : ((Number) value).doubleValue();
  }

  private static JsonArray verdicts(Collection<JsonObject> records) {
    JsonArray results =
        ask(new JsonObject()
                .put("op", "validate")
                .put("records", new JsonArray(new ArrayList<>(records))))
            .getJsonArray("results");
    if (results.size() != records.size()) {
      throw new IllegalStateException(
          "tldraw oracle answered "
              + results.size()
              + " verdicts for "
              + records.size()
              + " records");
    }
    return results;
  }

  private static synchronized JsonObject ask(JsonObject request) {
    if (running == null || !running.process.isAlive()) {
      running = start();
    }
    JsonObject answer = running.exchange(request.encode());
    if (answer.containsKey("error")) {
      throw new IllegalStateException("tldraw oracle failed: " + answer.getString("error"));
    }
    return answer;
  }

  private JsonObject exchange(String request) {
    try {
      requests.write(request);
      requests.write('\n');
      requests.flush();
      Object answer = answers.poll(ANSWER_SECONDS, TimeUnit.SECONDS);
      if (answer == null) {
        // A late answer would be taken for the next request's: start afresh next time.
        process.destroyForcibly();
        throw new IllegalStateException(
            "tldraw oracle gave no answer within " + ANSWER_SECONDS + " s; stderr:\n" + errors);
      }
      if (answer == END_OF_OUTPUT) {
        throw new IllegalStateException("tldraw oracle exited; stderr:\n" + errors);
      }
      return new JsonObject((String) answer);
    } catch (IOException e) {
      throw new IllegalStateException(
          "tldraw oracle is not reading requests; stderr:\n" + errors, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static TldrawOracle start() {
    Path directory =
        Path.of(System.getProperty("tldraw.oracle.dir", "src/test/node")).toAbsolutePath();
    if (!Files.isRegularFile(directory.resolve(SCRIPT))) {
      throw new IllegalStateException("tldraw oracle: no " + SCRIPT + " in " + directory);
    }
    if (!Files.isDirectory(directory.resolve("node_modules/@tldraw/tlschema"))) {
      throw new IllegalStateException(
          "tldraw oracle: @tldraw/tlschema is not installed in "
              + directory
              + "/node_modules. The build installs it (npm ci, phase generate-test-resources); by hand: cd "
              + directory
              + " && npm ci");
    }
    ProcessBuilder builder = new ProcessBuilder("node", SCRIPT).directory(directory.toFile());
    try {
      TldrawOracle oracle = new TldrawOracle(builder.start());
      Runtime.getRuntime()
          .addShutdownHook(new Thread(oracle.process::destroy, "tldraw-oracle-stop"));
      return oracle;
    } catch (IOException e) {
      throw new IllegalStateException(
          "tldraw oracle: cannot run `node` (Node.js 20+ must be on the PATH; the test suite needs it)",
          e);
    }
  }

  private void readAnswers(InputStream output) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        answers.add(line);
      }
    } catch (IOException ignored) {
      // The process is gone; END_OF_OUTPUT below tells the waiting request.
    } finally {
      answers.add(END_OF_OUTPUT);
    }
  }
}
