package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.VertxOptions;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two Hazelcast nodes in this JVM on loopback: they find each other, share the bus and agree on owners. */
class HazelcastNodeTest {
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
  void two_nodes_see_each_other_share_the_bus_and_agree_on_owners() throws Throwable {
    int portA = freePort();
    int portB = freePort();
    List<String> members = List.of("127.0.0.1:" + portA, "127.0.0.1:" + portB);
    first = start(portA, members).await(60, TimeUnit.SECONDS);
    second = start(portB, members).await(60, TimeUnit.SECONDS);

    assertTrue(first.view().clustered());
    Optional<InetAddress> elsewhere = anotherAddressOfThisHost();
    if (elsewhere.isPresent()) {
      // Bound to 127.0.0.1 alone: the same port on another of this host's addresses is closed.
      assertThrows(
          ConnectException.class,
          () -> new Socket(elsewhere.get(), portA).close(),
          "Hazelcast listens on " + elsewhere.get() + " too");
    }
    assertEquals(
        java.util.stream.Stream.of(first.view().nodeId(), second.view().nodeId()).sorted().toList(),
        first.view().members());
    assertEquals(first.view().members(), second.view().members());
    for (int i = 0; i < 100; i++) {
      assertEquals(first.view().ownerOf("room-" + i), second.view().ownerOf("room-" + i));
    }

    VertxTestContext heard = new VertxTestContext();
    second
        .vertx()
        .eventBus()
        .<String>consumer(
            "cluster.test",
            message -> heard.verify(() -> assertEquals("hello", message.body())).completeNow())
        .completion()
        .await(30, TimeUnit.SECONDS);
    first.vertx().eventBus().publish("cluster.test", "hello");
    assertTrue(heard.awaitCompletion(30, TimeUnit.SECONDS));
    if (heard.failed()) {
      throw heard.causeOfFailure();
    }

    VertxTestContext left = new VertxTestContext();
    String survivor = second.view().nodeId();
    second
        .vertx()
        .runOnContext(
            ignored ->
                second
                    .view()
                    .onMembersChanged(
                        now -> {
                          if (now.equals(List.of(survivor))) {
                            left.completeNow();
                          }
                        }));
    first.vertx().close().await(30, TimeUnit.SECONDS);
    first = null;
    assertTrue(left.awaitCompletion(60, TimeUnit.SECONDS));
    assertTrue(second.view().owns("room-1"));
  }

  @Test
  void a_host_name_is_bound_as_the_address_it_resolves_to_and_an_unknown_one_is_refused_by_name()
      throws Exception {
    assertEquals("127.0.0.1", HazelcastNode.address("127.0.0.1"));
    assertEquals("0:0:0:0:0:0:0:1", HazelcastNode.address("[::1]"));
    // A name: the address it resolves to (localhost: a loopback one, 127.0.0.1 or ::1).
    assertTrue(
        java.net.InetAddress.getByName(HazelcastNode.address("localhost")).isLoopbackAddress());

    Future<HazelcastNode.Started> refused =
        HazelcastNode.start(
            new VertxOptions(),
            new HazelcastNode.Settings(
                "canvas-agent-test",
                "no-such-host.invalid",
                5701,
                List.of("127.0.0.1:5701"),
                "127.0.0.1",
                0,
                10_000));

    assertTrue(refused.failed());
    assertTrue(
        refused
            .cause()
            .getMessage()
            .startsWith("bad configuration: CANVAS_AGENT_CLUSTER_HOST = 'no-such-host.invalid'"),
        refused.cause().getMessage());
  }

  @Test
  void a_plain_event_bus_beyond_loopback_is_warned_about_and_one_on_loopback_or_with_tls_is_not() {
    HazelcastNode.Settings loopback =
        new HazelcastNode.Settings(
            "c", "127.0.0.1", 5701, List.of("127.0.0.1:5701"), "127.0.0.1", 0, 10_000);
    HazelcastNode.Settings network =
        new HazelcastNode.Settings(
            "c", "10.0.0.5", 5701, List.of("10.0.0.5:5701"), "10.0.0.5", 0, 10_000);
    HazelcastNode.Settings networkWithTls =
        new HazelcastNode.Settings(
            "c",
            "10.0.0.5",
            5701,
            List.of("10.0.0.5:5701"),
            "10.0.0.5",
            0,
            10_000,
            Optional.of(EventBusTlsTest.TLS));

    assertFalse(HazelcastNode.plainOnTheNetwork(loopback));
    assertTrue(HazelcastNode.plainOnTheNetwork(network));
    assertFalse(HazelcastNode.plainOnTheNetwork(networkWithTls));
  }

  private static Future<HazelcastNode.Started> start(int port, List<String> members)
      throws IOException {
    return HazelcastNode.start(
        new VertxOptions(),
        new HazelcastNode.Settings(
            "canvas-agent-test", "127.0.0.1", port, members, "127.0.0.1", freePort(), 10_000));
  }

  /** A non-loopback IPv4 address of this host, if it has one. */
  private static Optional<InetAddress> anotherAddressOfThisHost() throws IOException {
    return NetworkInterface.networkInterfaces()
        .flatMap(NetworkInterface::inetAddresses)
        .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
        .findFirst();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
