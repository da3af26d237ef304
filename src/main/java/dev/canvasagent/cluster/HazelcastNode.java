package dev.canvasagent.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
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
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcastConfig(settings));
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
    long heartbeatSeconds = Math.max(1, settings.failureDetectionMs() / 1000);
    config.setProperty("hazelcast.max.no.heartbeat.seconds", Long.toString(heartbeatSeconds));
    config.setProperty(
        "hazelcast.heartbeat.interval.seconds", Long.toString(Math.max(1, heartbeatSeconds / 5)));
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(settings.port()).setPortAutoIncrement(false);
    network.setPublicAddress(settings.host() + ":" + settings.port());
    network.getInterfaces().setEnabled(true).setInterfaces(List.of(settings.host()));
    config.setProperty("hazelcast.local.localAddress", settings.host());
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(settings.members());
    return config;
  }
}
