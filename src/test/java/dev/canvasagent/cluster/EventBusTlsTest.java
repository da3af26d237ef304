package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.canvasagent.config.AppConfig;
import io.vertx.core.Future;
import io.vertx.core.VertxOptions;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The clustered event bus over TLS (CANVAS_AGENT_EVENTBUS_TLS_KEY/_CERT/_TRUST), two nodes in this JVM
 * with the committed test-only pair (src/test/resources/cluster-tls): their messages cross, and a
 * client that holds no trusted certificate is refused by a node's event-bus port.
 */
class EventBusTlsTest {
  static final Path PAIR = Path.of("src/test/resources/cluster-tls");
  static final AppConfig.EventBusTls TLS =
      new AppConfig.EventBusTls(
          PAIR.resolve("node-key.pem").toString(),
          PAIR.resolve("node-cert.pem").toString(),
          PAIR.resolve("node-cert.pem").toString());

  private HazelcastNode.Started first;
  private HazelcastNode.Started second;

  @AfterEach
  void stop() throws Exception {
    for (HazelcastNode.Started node : new HazelcastNode.Started[] {first, second}) {
      if (node != null) {
        node.vertx().close().await(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void twoNodesWithTheTrustedPairTalkOverTlsAndAClientWithoutACertificateIsRefused()
      throws Throwable {
    int portA = freePort();
    int portB = freePort();
    int eventBusA = freePort();
    List<String> members = List.of("127.0.0.1:" + portA, "127.0.0.1:" + portB);
    first = start(portA, members, eventBusA).await(60, TimeUnit.SECONDS);
    second = start(portB, members, 0).await(60, TimeUnit.SECONDS);
    assertEquals(2, first.view().members().size());

    VertxTestContext heard = new VertxTestContext();
    first
        .vertx()
        .eventBus()
        .<String>consumer(
            "cluster.tls.test",
            message -> heard.verify(() -> assertEquals("over tls", message.body())).completeNow())
        .completion()
        .await(30, TimeUnit.SECONDS);
    second.vertx().eventBus().publish("cluster.tls.test", "over tls");
    assertTrue(heard.awaitCompletion(30, TimeUnit.SECONDS), "the message crossed");
    if (heard.failed()) {
      throw heard.causeOfFailure();
    }

    assertRefusedWithoutACertificate(eventBusA);
  }

  /**
   * A TLS client that trusts anything but presents no certificate: the node ends the connection (an
   * alert, or the socket closed) instead of waiting for its frames. Under TLS 1.3 the refusal may come
   * after the client's side of the handshake, so it is read for.
   */
  private static void assertRefusedWithoutACertificate(int eventBusPort) throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {new TrustingAnything()}, null);
    try (SSLSocket socket =
        (SSLSocket)
            context
                .getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), eventBusPort)) {
      socket.setSoTimeout(20_000);
      socket.startHandshake();
      InputStream in = socket.getInputStream();
      int read = in.read();
      assertEquals(-1, read, "the node closed the connection");
    } catch (SocketTimeoutException accepted) {
      fail("a client without a certificate was kept connected");
    } catch (SSLException | java.net.SocketException refused) {
      // The node's alert (bad or missing certificate), or the connection reset: refused.
    }
  }

  private static Future<HazelcastNode.Started> start(
      int port, List<String> members, int eventBusPort) {
    return HazelcastNode.start(
        new VertxOptions(),
        new HazelcastNode.Settings(
            "canvas-agent-tls-test-" + members.get(0).replaceAll("\\D", ""),
            "127.0.0.1",
            port,
            members,
            "127.0.0.1",
            eventBusPort,
            10_000,
            Optional.of(TLS)));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** For the refused client only: it must get as far as presenting (no) certificate. */
  private static final class TrustingAnything implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
