package dev.canvasagent.mcpstdio;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * stdout, one JSON-RPC message a line, written in the order given by a thread of its own: a client
 * slow to read its pipe blocks that thread, never the event loop.
 */
final class StdoutLines {
  private final OutputStream out;
  private final PrintStream err;
  private final Context context;
  private final ExecutorService writer;
  private boolean broken; // touched by the writer thread only

  StdoutLines(OutputStream out, PrintStream err, Context context) {
    this.out = out;
    this.err = err;
    this.context = context;
    this.writer =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task, "mcp-stdio-stdout");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Queues one line; {@code line} holds no newline (callers write compact JSON). */
  void write(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    writer.execute(
        () -> {
          if (broken) {
            return;
          }
          try {
            out.write(bytes);
            out.flush();
          } catch (IOException closed) {
            // The client has gone; its stdin's end will end the bridge.
            broken = true;
            err.println("mcp-stdio: stdout is closed: " + closed.getMessage());
          }
        });
  }

  /** Completes, on the bridge's context, once every queued line is written. */
  Future<Void> close() {
    Promise<Void> flushed = Promise.promise();
    writer.execute(() -> context.runOnContext(done -> flushed.complete()));
    writer.shutdown();
    return flushed.future();
  }
}
