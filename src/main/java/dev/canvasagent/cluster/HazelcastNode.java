package dev.canvasagent.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.config.Loopback;
import dev.canvasagent.metrics.NodeRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts Vert.x clustered on Hazelcast, as {@code CANVAS_AGENT_CLUSTER=hazelcast} asks: members found
 * over TCP/IP from a fixed list (no multicast, no cloud discovery), Hazelcast bound to one interface
 * and port, the event bus to its own (over TLS when asked). The maps Vert.x needs come from the
 * manager's own default configuration; only the network is ours.
 */
public final class HazelcastNode {
  private static final Logger LOG = LoggerFactory.getLogger(HazelcastNode.class);

  /**
   * Where this node listens and whom it asks to join. {@code failureDetectionMs}: how long a member
   * may go without a heartbeat before the others drop it (and take over what it owned). {@code
   * eventBusTls}: the event bus over TLS with client certificates, or empty for plain TCP.
   */
  public record Settings(
      String clusterName,
      String host,
      int port,
      List<String> members,
      String eventBusHost,
      int eventBusPort,
      int failureDetectionMs,
      Optional<AppConfig.EventBusTls> eventBusTls) {
    public Settings {
      members = List.copyOf(members);
    }

    /** With the event bus on plain TCP. */
    public Settings(
        String clusterName,
        String host,
        int port,
        List<String> members,
        String eventBusHost,
        int eventBusPort,
        int failureDetectionMs) {
      this(
          clusterName,
          host,
          port,
          members,
          eventBusHost,
          eventBusPort,
          failureDetectionMs,
          Optional.empty());
    }
  }

  /** A clustered Vert.x and this node's view of the cluster. */
  public record Started(Vertx vertx, ClusterView view) {}

  private HazelcastNode() {}

  public static Future<Started> start(VertxOptions options, Settings settings) {
    Config config;
    try {
      config = hazelcastConfig(settings);
    } catch (ConfigException unusable) {
      return Future.failedFuture(unusable);
    }
    if (plainOnTheNetwork(settings)) {
      LOG.atWarn()
          .addKeyValue("eventBusHost", settings.eventBusHost())
          .log(
              "cluster.eventbus_plain: the event bus is plain TCP on a non-loopback address, so any process that reaches its port can send to this node's clustered addresses; set CANVAS_AGENT_EVENTBUS_TLS_KEY/_CERT/_TRUST or firewall it to the nodes (docs/cluster.md)");
    }
    HazelcastClusterManager manager = new HazelcastClusterManager(config);
    EventBusOptions eventBus =
        options
            .getEventBusOptions()
            .setHost(settings.eventBusHost())
            .setPort(settings.eventBusPort());
    settings
        .eventBusTls()
        .ifPresent(
            tls ->
                // Both ends present a certificate: a process that can reach the port but holds no
                // certificate the trust accepts can neither send to a node nor receive from one.
                eventBus
                    .setSsl(true)
                    .setKeyCertOptions(
                        new PemKeyCertOptions()
                            .setKeyPath(tls.keyPath())
                            .setCertPath(tls.certPath()))
                    .setTrustOptions(new PemTrustOptions().addCertPath(tls.trustPath()))
                    .setClientAuth(ClientAuth.REQUIRED));
    // With a meter registry of its own (GET /metrics): several nodes may share one JVM.
    return NodeRegistry.clustered(options, manager)
        .map(vertx -> new Started(vertx, new HazelcastView(manager)));
  }

  /** Whether the event bus would be reachable beyond this host without TLS. */
  static boolean plainOnTheNetwork(Settings settings) {
    return settings.eventBusTls().isEmpty() && !Loopback.isLoopback(settings.eventBusHost());
  }

  static Config hazelcastConfig(Settings settings) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(settings.clusterName());
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    // Hazelcast counts in whole seconds: round up, so a member is never dropped sooner than asked.
    long heartbeatSeconds = Math.max(1, (settings.failureDetectionMs() + 999) / 1000);
    config.setProperty("hazelcast.max.no.heartbeat.seconds", Long.toString(heartbeatSeconds));
    config.setProperty(
        "hazelcast.heartbeat.interval.seconds", Long.toString(Math.max(1, heartbeatSeconds / 5)));
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(settings.port()).setPortAutoIncrement(false);
    // Hazelcast's interface list takes IP addresses only: a host name is resolved here, once.
    String address = address(settings.host());
    network.setPublicAddress(address + ":" + settings.port());
    network.getInterfaces().setEnabled(true).setInterfaces(List.of(address));
    config.setProperty("hazelcast.local.localAddress", address);
    // Hazelcast otherwise listens on every interface, whichever one it announces.
    config.setProperty("hazelcast.socket.bind.any", "false");
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(settings.members());
    return config;
  }

  /**
   * The IP address {@code host} names: itself when it is one, else the name resolved (at startup,
   * before any event loop runs). An IPv6 address loses its brackets.
   */
  static String address(String host) {
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    try {
      return InetAddress.getByName(bare).getHostAddress();
    } catch (UnknownHostException e) {
      throw new ConfigException(
          "bad configuration: CANVAS_AGENT_CLUSTER_HOST = '"
              + host
              + "': does not resolve to an address");
    }
  }
}
