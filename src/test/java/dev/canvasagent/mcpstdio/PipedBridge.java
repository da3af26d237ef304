package dev.canvasagent.mcpstdio;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link StdioBridge} driven as an MCP client would drive the process: lines written to its
 * stdin, lines read from its stdout (waiting, on the test thread, for the next one), its stderr
 * kept as text.
 */
final class PipedBridge {
  static final long LINE_WAIT_SECONDS = 20;
  static final StdioBridge.Settings QUICK =
      new StdioBridge.Settings(
          Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(5));

  private final PipedOutputStream stdin = new PipedOutputStream();
  private final BlockingQueue<String> stdoutLines = new LinkedBlockingQueue<>();
  private final ByteArrayOutputStream stderrBytes = new ByteArrayOutputStream();
  private final Future<Void> finished;

  PipedBridge(Vertx vertx, String url, Optional<String> token) {
    PipedInputStream in;
    try {
      in = new PipedInputStream(stdin, 1 << 16);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    OutputStream out = new LineSplitter(stdoutLines);
    PrintStream err = new PrintStream(stderrBytes, true, StandardCharsets.UTF_8);
    finished =
        new StdioBridge(vertx, new McpServerTarget(URI.create(url), token), QUICK, in, out, err)
            .run();
  }

  void send(String line) {
    try {
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void send(JsonObject message) {
    send(message.encode());
  }

  /** The next line on stdout, exactly as written. */
  String nextRawLine() {
    try {
      String line = stdoutLines.poll(LINE_WAIT_SECONDS, TimeUnit.SECONDS);
      if (line == null) {
        throw new AssertionError(
            "no line on stdout within " + LINE_WAIT_SECONDS + " s; stderr: " + stderr());
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  JsonObject nextLine() {
    return new JsonObject(nextRawLine());
  }

  /** Lines written and not yet read (checked once the bridge has finished). */
  int unreadLines() {
    return stdoutLines.size();
  }

  /** stdin's end: the bridge deletes the session and finishes. */
  Future<Void> closeStdin() {
    try {
      stdin.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return finished;
  }

  String stderr() {
    return stderrBytes.toString(StandardCharsets.UTF_8);
  }

  static JsonObject request(Object id, String method, JsonObject params) {
    JsonObject request = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
    return params == null ? request : request.put("params", params);
  }

  static JsonObject notification(String method) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method);
  }

  /** Cuts what the bridge writes into lines as they complete. */
  private static final class LineSplitter extends OutputStream {
    private final BlockingQueue<String> lines;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineSplitter(BlockingQueue<String> lines) {
      this.lines = lines;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        lines.add(line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }
  }
}
