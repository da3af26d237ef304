package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.RawConnection;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.junit5.VertxExtension;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client has {@code CANVAS_AGENT_HEAD_TIMEOUT_MS} to send a request head, from the moment its
 * connection opens or its previous answer ends, and {@code CANVAS_AGENT_BODY_TIMEOUT_MS} from the end
 * of the head to the end of the body. Sending slowly does not buy time: the deadline counts from the
 * start, not from the last byte. Both are short here (a second); the server's defaults are seconds.
 */
@ExtendWith(VertxExtension.class)
class RequestDeadlinesTest {
  static final String STALLED_HEAD = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a";

  Vertx vertx;
  TestServer server;
  NetClient client;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "CANVAS_AGENT_HEAD_TIMEOUT_MS", "1000",
                    "CANVAS_AGENT_BODY_TIMEOUT_MS", "1000")));
    client = RawConnection.client(vertx, "127.0.0.1");
  }

  @AfterEach
  void tearDown() {
    Await.result(client.close());
    Await.result(server.stop());
  }

  RawConnection open() {
    return Await.result(RawConnection.open(vertx, client, server.port()));
  }

  @Test
  void aConnectionThatSendsNothingIsClosedWithoutAnAnswer() {
    RawConnection silent = open();
    Await.result(silent.closed());
    assertEquals("", silent.received());
  }

  @Test
  void aHeadThatStopsHalfwayIsClosedWithoutAnAnswer() {
    RawConnection stalled = open();
    stalled.write(STALLED_HEAD);
    Await.result(stalled.closed());
    assertEquals("", stalled.received());
  }

  @Test
  void aHeadDrippedAByteAtATimeIsClosedAtTheHeadDeadline() {
    RawConnection dripping = open();
    dripping.write(STALLED_HEAD);
    // A byte every 100 ms: an idle timeout would never fire, and the header line stays far below
    // the 16 KiB header limit for as long as this test could run.
    AtomicInteger dripped = new AtomicInteger();
    long drip =
        vertx.setPeriodic(
            100,
            tick -> {
              if (!dripping.isClosed()) {
                dripping.write("a");
                dripped.incrementAndGet();
              }
            });
    Await.result(dripping.closed());
    vertx.cancelTimer(drip);
    assertEquals("", dripping.received());
    assertTrue(dripped.get() > 0, "the drip had started");
  }

  @Test
  void theNextRequestOnAKeptAliveConnectionHasItsOwnHeadDeadline() {
    RawConnection keptAlive = open();
    keptAlive.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    Await.result(
        Eventually.holds(vertx, () -> Future.succeededFuture(keptAlive.received().endsWith("}"))));
    assertTrue(keptAlive.received().startsWith("HTTP/1.1 200"), keptAlive.received());
    keptAlive.write(STALLED_HEAD);
    Await.result(keptAlive.closed());
    assertEquals(
        1,
        keptAlive.received().split("HTTP/1.1 ", -1).length - 1,
        "one answer only: " + keptAlive.received());
  }

  @Test
  void aHeadSentInPiecesWithinTheDeadlineIsAnswered() {
    RawConnection patient = open();
    String[] pieces = {"GET /health HT", "TP/1.1\r\nHost: 127.", "0.0.1\r\n\r\n"};
    Promise<Void> sent = Promise.promise();
    int[] next = {0};
    vertx.setPeriodic(
        100,
        tick -> {
          patient.write(pieces[next[0]++]);
          if (next[0] == pieces.length) {
            vertx.cancelTimer(tick);
            sent.complete();
          }
        });
    Await.result(sent.future());
    Await.result(
        Eventually.holds(vertx, () -> Future.succeededFuture(patient.received().endsWith("}"))));
    assertTrue(patient.received().startsWith("HTTP/1.1 200"), patient.received());
  }

  @Test
  void aBodyThatDoesNotArriveInTimeIsAnswered408AndTheConnectionClosed() {
    RawConnection slowBody = open();
    slowBody.write(
        "POST /api/canvas-agent/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: 100\r\n\r\n{\"roomId\":");
    Await.result(slowBody.closed());
    String answer = slowBody.received();
    assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
    assertTrue(answer.contains("\"code\":\"REQUEST_TIMEOUT\""), answer);
    assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), answer);
  }

  @Test
  void aChunkedBodyThatNeverEndsIsAnswered408() {
    RawConnection chunked = open();
    chunked.write(
        "POST /api/docs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"con\r\n");
    Await.result(chunked.closed());
    assertTrue(chunked.received().startsWith("HTTP/1.1 408"), chunked.received());
  }
}
