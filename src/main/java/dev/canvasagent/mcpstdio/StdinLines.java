package dev.canvasagent.mcpstdio;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * stdin, read line by line (UTF-8) on a thread of its own, since reading blocks; each line, then
 * the end, is handed to the bridge's context in order.
 */
final class StdinLines {
  private final InputStream in;
  private final PrintStream err;
  private final Context context;

  StdinLines(InputStream in, PrintStream err, Context context) {
    this.in = in;
    this.err = err;
    this.context = context;
  }

  void start(Handler<String> lines, Handler<Void> end) {
    Thread thread =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                  String read = line;
                  context.runOnContext(v -> lines.handle(read));
                }
              } catch (IOException failed) {
                err.println("mcp-stdio: reading stdin failed, ending: " + failed.getMessage());
              }
              context.runOnContext(end);
            },
            "mcp-stdio-stdin");
    // A client that never closes stdin must not keep the JVM alive once the bridge has ended.
    thread.setDaemon(true);
    thread.start();
  }
}
