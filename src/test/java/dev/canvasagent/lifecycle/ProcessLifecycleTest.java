package dev.canvasagent.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.App;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.SseClient;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The server as an operating system process: started by {@code main}, stopped by SIGTERM. */
@ExtendWith(VertxExtension.class)
class ProcessLifecycleTest {
  static final List<String> MAIN =
      List.of("-cp", System.getProperty("java.class.path"), App.class.getName());

  @Test
  void sigtermEndsStreamsAndStopsCleanly(Vertx vertx) throws Exception {
    try (ServerProcess server = ServerProcess.java(MAIN, Map.of("PORT", "0"))) {
      int port = server.awaitStartedPort();
      SseClient sse = Await.result(SseClient.connect(vertx, port, "/api/rooms/sigterm/events"));
      server.terminate();
      Await.result(sse.ended());
      server.awaitLine(Pattern.compile("server\\.stopped"));
      assertEquals(0, server.awaitExit(), "SIGTERM drains, stops cleanly and exits 0");
    }
  }

  @Test
  void aBadValueStopsStartupNamingTheKeyAndValue() throws Exception {
    try (ServerProcess server = ServerProcess.java(MAIN, Map.of("PORT", "eighty"))) {
      int exit = server.awaitExit();
      String output = server.remainingOutput();
      assertEquals(2, exit, output);
      assertTrue(output.contains("PORT = 'eighty'"), output);
    }
  }
}
