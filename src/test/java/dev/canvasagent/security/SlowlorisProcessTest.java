package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.canvasagent.App;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.RawConnection;
import dev.canvasagent.support.ServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The finding as it was reported, against the server as an operating-system process with its default
 * settings: one address opens hundreds of connections, each sends part of a request head and then
 * nothing. The server stays up for everyone else, and closes every one of them: at once past the
 * per-address cap ({@code CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS}, 64), at the head deadline
 * ({@code CANVAS_AGENT_HEAD_TIMEOUT_MS}, 10 s) for the rest.
 */
@ExtendWith(VertxExtension.class)
class SlowlorisProcessTest {
  static final List<String> MAIN =
      List.of("-cp", System.getProperty("java.class.path"), App.class.getName());
  static final int STALLED = 300;

  /** Only a guard against a server that never closes them: the head deadline is far shorter. */
  static final long CLOSED_WITHIN_SECONDS = 120;

  @Test
  void hundredsOfStalledHeadsFromOneAddressAreAllClosedAndHealthAnswersThroughout(Vertx vertx)
      throws Exception {
    try (ServerProcess server = ServerProcess.java(MAIN, Map.of("PORT", "0"))) {
      int port = server.awaitStartedPort();
      NetClient attacker = RawConnection.client(vertx, "127.0.0.1");
      WebClient elsewhere =
          WebClient.create(vertx, new WebClientOptions().setLocalAddress("127.0.0.2"));
      try {
        List<RawConnection> stalled =
            Await.result(
                    Future.all(
                        IntStream.range(0, STALLED)
                            .mapToObj(i -> RawConnection.open(vertx, attacker, port))
                            .toList()))
                .list();
        stalled.forEach(
            connection -> connection.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a"));

        HttpResponse<Buffer> health =
            Await.result(elsewhere.get(port, "127.0.0.1", "/health").send());
        assertEquals(200, health.statusCode(), health.bodyAsString());

        Future.all(stalled.stream().map(RawConnection::closed).toList())
            .toCompletionStage()
            .toCompletableFuture()
            .get(CLOSED_WITHIN_SECONDS, TimeUnit.SECONDS);
        stalled.forEach(
            connection -> assertEquals("", connection.received(), "closed without an answer"));

        // Every slot came back: the same address is served again.
        WebClient here =
            WebClient.create(vertx, new WebClientOptions().setLocalAddress("127.0.0.1"));
        try {
          assertEquals(
              200, Await.result(here.get(port, "127.0.0.1", "/health").send()).statusCode());
        } finally {
          here.close();
        }
      } finally {
        elsewhere.close();
        Await.result(attacker.close());
      }
      server.terminate();
      server.awaitExit();
      String output = server.output() + server.remainingOutput();
      assertFalse(output.contains("Too many open files"), output);
    }
  }
}
