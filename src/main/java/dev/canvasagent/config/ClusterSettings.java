package dev.canvasagent.config;

import static dev.canvasagent.config.Check.hostPorts;
import static dev.canvasagent.config.Check.matching;
import static dev.canvasagent.config.Check.oneOf;
import static dev.canvasagent.config.Check.text;
import static dev.canvasagent.config.Check.textOrEmpty;
import static dev.canvasagent.config.Check.whole;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code cluster}: whether this node is one of several (Vert.x clustered on Hazelcast), whom it joins,
 * and where its cluster manager and its event bus listen. See docs/cluster.md.
 */
final class ClusterSettings {
  static final Setting MANAGER =
      Setting.of(
          "cluster.manager",
          "CANVAS_AGENT_CLUSTER",
          oneOf("none", "hazelcast"),
          "none",
          "`none`: one node, no cluster manager started. `hazelcast`: Vert.x clustered on Hazelcast with the members below; needs the PostgreSQL store. See [Clustering](cluster.md).");
  static final Setting MEMBERS =
      Setting.of(
          "cluster.members",
          "CANVAS_AGENT_CLUSTER_MEMBERS",
          hostPorts(),
          "",
          "The cluster's Hazelcast addresses, comma-separated `host:port` (TCP/IP join, no multicast); this node's own may be listed. Required with `hazelcast`.");
  static final Setting HOST =
      Setting.of(
          "cluster.host",
          "CANVAS_AGENT_CLUSTER_HOST",
          text(),
          "127.0.0.1",
          "The address (an IP address, or a name that resolves to one of this host's) Hazelcast binds and the other members reach it at.");
  static final Setting PORT =
      Setting.of(
          "cluster.port",
          "CANVAS_AGENT_CLUSTER_PORT",
          whole(1, 65_535),
          5701,
          "The port Hazelcast binds (1–65535); no other is tried.");
  static final Setting NAME =
      Setting.of(
          "cluster.name",
          "CANVAS_AGENT_CLUSTER_NAME",
          matching(
              "[A-Za-z0-9][A-Za-z0-9._-]{0,63}",
              "canvas-agent",
              "must be 1–64 letters, digits, '.', '_' or '-'"),
          "canvas-agent",
          "Nodes join only members of the same name: two clusters on one network stay apart.");
  static final Setting EVENT_BUS_HOST =
      Setting.of(
          "cluster.eventBusHost",
          "CANVAS_AGENT_EVENTBUS_HOST",
          textOrEmpty(),
          "",
          "The address the clustered event bus binds and other nodes send to; empty: `CANVAS_AGENT_CLUSTER_HOST`.");
  static final Setting EVENT_BUS_PORT =
      Setting.of(
          "cluster.eventBusPort",
          "CANVAS_AGENT_EVENTBUS_PORT",
          whole(0, 65_535),
          0,
          "The clustered event bus's port (0–65535); 0 picks a free one, which the members learn through Hazelcast. Behind a firewall give a fixed one and open it between the nodes.");
  static final Setting FAILURE_DETECTION_MS =
      Setting.of(
          "cluster.failureDetectionMs",
          "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS",
          whole(2_000, 300_000),
          10_000,
          "How long a member may go without a heartbeat before the others drop it and take over what it owned (2000–300000; whole seconds, rounded up).");

  static final Setting TLS_KEY =
      Setting.of(
          "cluster.eventBusTlsKey",
          "CANVAS_AGENT_EVENTBUS_TLS_KEY",
          textOrEmpty(),
          "",
          "A PEM private key file (PKCS#8 or PKCS#1): with the next two, the clustered event bus speaks TLS, and a node connects only with a certificate the trust accepts. All three or none.");
  static final Setting TLS_CERT =
      Setting.of(
          "cluster.eventBusTlsCert",
          "CANVAS_AGENT_EVENTBUS_TLS_CERT",
          textOrEmpty(),
          "",
          "The PEM certificate (chain) file of that key, which this node presents to the others.");
  static final Setting TLS_TRUST =
      Setting.of(
          "cluster.eventBusTlsTrust",
          "CANVAS_AGENT_EVENTBUS_TLS_TRUST",
          textOrEmpty(),
          "",
          "A PEM file of the certificates (or the CA) whose holders are the cluster's nodes.");

  static final List<Setting> ALL =
      List.of(
          MANAGER,
          MEMBERS,
          HOST,
          PORT,
          NAME,
          EVENT_BUS_HOST,
          EVENT_BUS_PORT,
          FAILURE_DETECTION_MS,
          TLS_KEY,
          TLS_CERT,
          TLS_TRUST);

  private ClusterSettings() {}

  static AppConfig.Cluster read(ConfigValues values) {
    AppConfig.Cluster.Manager manager =
        AppConfig.Cluster.Manager.valueOf(values.text(MANAGER).toUpperCase(Locale.ROOT));
    List<String> members = values.list(MEMBERS);
    String host = values.text(HOST);
    String eventBusHost = values.text(EVENT_BUS_HOST);
    AppConfig.Cluster cluster =
        new AppConfig.Cluster(
            manager,
            members,
            host,
            values.whole(PORT),
            values.text(NAME),
            eventBusHost.isEmpty() ? host : eventBusHost,
            values.whole(EVENT_BUS_PORT),
            values.whole(FAILURE_DETECTION_MS),
            tls(values, manager == AppConfig.Cluster.Manager.HAZELCAST));
    if (cluster.clustered() && members.isEmpty()) {
      throw values.bad(
          MEMBERS, "must list the members (host:port) when CANVAS_AGENT_CLUSTER is hazelcast");
    }
    return cluster;
  }

  /**
   * The event bus's TLS files: all three, or none (plain TCP). Half a configuration is refused rather
   * than run in the clear; a clustered node checks that each file can be read before it joins.
   */
  private static Optional<AppConfig.EventBusTls> tls(ConfigValues values, boolean clustered) {
    String key = values.text(TLS_KEY);
    String cert = values.text(TLS_CERT);
    String trust = values.text(TLS_TRUST);
    List<Setting> given =
        List.of(TLS_KEY, TLS_CERT, TLS_TRUST).stream()
            .filter(setting -> !values.text(setting).isEmpty())
            .toList();
    if (given.isEmpty()) {
      return Optional.empty();
    }
    if (given.size() < 3) {
      throw values.bad(
          given.get(0),
          "the event bus's TLS needs all three of CANVAS_AGENT_EVENTBUS_TLS_KEY, _CERT and _TRUST");
    }
    if (clustered) {
      for (Setting file : given) {
        if (!Files.isReadable(Path.of(values.text(file)))) {
          throw values.bad(file, "is not a readable file");
        }
      }
    }
    return Optional.of(new AppConfig.EventBusTls(key, cert, trust));
  }

  /**
   * A cluster's nodes share what must be consistent through PostgreSQL; the memory store is one
   * node's, so a clustered node without a database would decide alone what the others decide too.
   */
  static void requireSharedStore(
      ConfigValues values, AppConfig.Cluster cluster, Optional<DatabaseConfig> database) {
    if (cluster.clustered() && database.isEmpty()) {
      throw values.bad(
          MANAGER,
          "needs the PostgreSQL store (DATABASE_URL or PGHOST): the memory store is one node's and"
              + " cannot be shared by a cluster");
    }
  }
}
