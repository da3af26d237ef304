package dev.canvasagent.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.canvasagent.config.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Starts Vert.x clustered on Hazelcast, as {@code CANVAS_AGENT_CLUSTER=hazelcast} asks: members found
 * over TCP/IP from a fixed list (no multicast, no cloud discovery), Hazelcast bound to one interface
 * and port, the event bus to its own. The maps Vert.x needs come from the manager's own default
 * configuration; only the network is ours.
 */
public final class HazelcastNode {

  /**
   * Where this node listens and whom it asks to join. {@code failureDetectionMs}: how long a member
   * may go without a heartbeat before the others drop it (and take over what it owned).
   */
  public record Settings(
      String clusterName,
      String host,
      int port,
      List<String> members,
      String eventBusHost,
      int eventBusPort,
      int failureDetectionMs) {
    public Settings {
      members = List.copyOf(members);
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
    HazelcastClusterManager manager = new HazelcastClusterManager(config);
    options.getEventBusOptions().setHost(settings.eventBusHost()).setPort(settings.eventBusPort());
    return Vertx.builder()
        .with(options)
        .withClusterManager(manager)
        .buildClustered()
        .map(vertx -> new Started(vertx, new HazelcastView(manager)));
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
