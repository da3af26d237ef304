package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.App;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The server as an operating system process: started by {@code main}, stopped by SIGTERM. */
@ExtendWith(VertxExtension.class)
class ProcessLifecycleTest {
  static final Pattern STARTED_URL = Pattern.compile("server\\.started url=http://127\\.0\\.0\\.1:(\\d+)");
  static final long PROCESS_SECONDS = 60;

  static Process launch(Map<String, String> environment) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), App.class.getName())
        .redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(name -> name.startsWith("PG") || name.startsWith("CANVAS_") || name.equals("DATABASE_URL"));
    env.putAll(environment);
    return builder.start();
  }

  /** Reads the process's output on a plain thread until {@code until} appears (or the output ends). */
  static CompletableFuture<List<String>> readUntil(BufferedReader output, Pattern until, List<String> lines) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        String line;
        while ((line = output.readLine()) != null) {
          lines.add(line);
          if (until.matcher(line).find()) {
            break;
          }
        }
        return lines;
      } catch (IOException e) {
        return lines;
      }
    });
  }

  @Test
  void sigtermEndsStreamsAndStopsCleanly(Vertx vertx) throws Exception {
    Process server = launch(Map.of("PORT", "0"));
    try {
      BufferedReader output = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      List<String> lines = new ArrayList<>();
      readUntil(output, STARTED_URL, lines).get(PROCESS_SECONDS, TimeUnit.SECONDS);
      Matcher started = STARTED_URL.matcher(String.join("\n", lines));
      assertTrue(started.find(), "startup line: " + lines);
      int port = Integer.parseInt(started.group(1));

      SseClient sse = Await.result(SseClient.connect(vertx, port, "/api/rooms/sigterm/events"));
      server.toHandle().destroy(); // SIGTERM; Process.destroy() would also close our end of its output
      Await.result(sse.ended());
      readUntil(output, Pattern.compile("server\\.stopped"), lines).get(PROCESS_SECONDS, TimeUnit.SECONDS);
      assertTrue(server.waitFor(PROCESS_SECONDS, TimeUnit.SECONDS), "the process exits");
      assertTrue(lines.stream().anyMatch(line -> line.contains("server.stopped")), "exit " + server.exitValue() + ": " + String.join("\n", lines));
      assertEquals(143, server.exitValue(), "128 + SIGTERM, after the shutdown hook ran");
    } finally {
      server.destroyForcibly();
    }
  }

  @Test
  void aBadValueStopsStartupNamingTheKeyAndValue() throws Exception {
    Process server = launch(Map.of("PORT", "eighty"));
    try {
      assertTrue(server.waitFor(PROCESS_SECONDS, TimeUnit.SECONDS));
      String output = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(2, server.exitValue(), output);
      assertTrue(output.contains("PORT = 'eighty'"), output);
    } finally {
      server.destroyForcibly();
    }
  }
}
