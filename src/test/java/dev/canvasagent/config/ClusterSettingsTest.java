package dev.canvasagent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code CANVAS_AGENT_CLUSTER} and its settings: alone by default, a cluster only with members and a
 * PostgreSQL store, and every bad value refused naming its variable.
 */
class ClusterSettingsTest {
  static final Map<String, String> DATABASE = Map.of("PGHOST", "127.0.0.1");

  static Map<String, String> clustered(Map<String, String> more) {
    Map<String, String> env = new HashMap<>(DATABASE);
    env.put("CANVAS_AGENT_CLUSTER", "hazelcast");
    env.put("CANVAS_AGENT_CLUSTER_MEMBERS", "127.0.0.1:5701,127.0.0.1:5702");
    env.putAll(more);
    return env;
  }

  @Test
  void byDefaultTheNodeIsAloneAndTheClusterSettingsHaveTheirDefaults() {
    AppConfig.Cluster cluster = ConfigLoader.load(Map.of()).cluster();

    assertFalse(cluster.clustered());
    assertEquals(
        new AppConfig.Cluster(
            AppConfig.Cluster.Manager.NONE,
            List.of(),
            "127.0.0.1",
            5701,
            "canvas-agent",
            "127.0.0.1",
            0,
            10_000,
            Optional.empty()),
        cluster);
  }

  @Test
  void hazelcastWithMembersAndADatabaseIsAClusterAndTheEventBusHostFollowsTheClusterHost() {
    AppConfig.Cluster cluster =
        ConfigLoader.load(
                clustered(
                    Map.of(
                        "CANVAS_AGENT_CLUSTER_HOST", "10.0.0.5",
                        "CANVAS_AGENT_CLUSTER_PORT", "5801",
                        "CANVAS_AGENT_CLUSTER_NAME", "staging",
                        "CANVAS_AGENT_EVENTBUS_PORT", "5802",
                        "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS", "3000")))
            .cluster();

    assertTrue(cluster.clustered());
    assertEquals(List.of("127.0.0.1:5701", "127.0.0.1:5702"), cluster.members());
    assertEquals("10.0.0.5", cluster.host());
    assertEquals(5801, cluster.port());
    assertEquals("staging", cluster.name());
    assertEquals("10.0.0.5", cluster.eventBusHost(), "empty: the cluster host");
    assertEquals(5802, cluster.eventBusPort());
    assertEquals(3000, cluster.failureDetectionMs());
    assertEquals(
        "10.0.0.6",
        ConfigLoader.load(clustered(Map.of("CANVAS_AGENT_EVENTBUS_HOST", "10.0.0.6")))
            .cluster()
            .eventBusHost());
  }

  @Test
  void membersMayBeNamesOrBracketedIpv6AddressesAndBlankEntriesAreSkipped() {
    assertEquals(
        List.of("node-a.internal:5701", "[::1]:5702"),
        ConfigLoader.load(
                clustered(
                    Map.of("CANVAS_AGENT_CLUSTER_MEMBERS", " node-a.internal:5701, ,[::1]:5702 ")))
            .cluster()
            .members());
  }

  @Test
  void hazelcastWithoutADatabaseIsRefusedSayingTheMemoryStoreCannotBeShared() {
    Map<String, String> env = clustered(Map.of());
    env.remove("PGHOST");

    String message = ConfigLoaderTest.refused(env).getMessage();

    assertTrue(
        message.startsWith("bad configuration: CANVAS_AGENT_CLUSTER = 'hazelcast': "), message);
    assertTrue(message.contains("PostgreSQL"), message);
    assertTrue(message.contains("memory store"), message);
  }

  @Test
  void hazelcastWithoutMembersIsRefusedNamingTheMembersVariable() {
    String message =
        ConfigLoaderTest.refused(clustered(Map.of("CANVAS_AGENT_CLUSTER_MEMBERS", " ")))
            .getMessage();

    assertTrue(message.startsWith("bad configuration: CANVAS_AGENT_CLUSTER_MEMBERS = "), message);
    assertTrue(message.contains("hazelcast"), message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "CANVAS_AGENT_CLUSTER | multicast",
        "CANVAS_AGENT_CLUSTER_MEMBERS | 127.0.0.1",
        "CANVAS_AGENT_CLUSTER_MEMBERS | 127.0.0.1:5701,127.0.0.1:",
        "CANVAS_AGENT_CLUSTER_MEMBERS | 127.0.0.1:0",
        "CANVAS_AGENT_CLUSTER_MEMBERS | 127.0.0.1:65536",
        "CANVAS_AGENT_CLUSTER_MEMBERS | http://127.0.0.1:5701",
        "CANVAS_AGENT_CLUSTER_MEMBERS | *:5701",
        "CANVAS_AGENT_CLUSTER_HOST | ' '",
        "CANVAS_AGENT_CLUSTER_PORT | 0",
        "CANVAS_AGENT_CLUSTER_PORT | 65536",
        "CANVAS_AGENT_CLUSTER_NAME | two words",
        "CANVAS_AGENT_CLUSTER_NAME | -leading-dash",
        "CANVAS_AGENT_EVENTBUS_PORT | -1",
        "CANVAS_AGENT_EVENTBUS_PORT | 65536",
        "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS | 1999",
        "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS | 300001",
        "CANVAS_AGENT_CLUSTER_FAILURE_DETECTION_MS | soon"
      })
  void aBadValueIsRefusedNamingTheVariable(String variable, String value) {
    String message = ConfigLoaderTest.refused(clustered(Map.of(variable, value))).getMessage();

    assertTrue(message.startsWith("bad configuration: " + variable + " = "), message);
  }

  @Test
  void theEventBusTlsFilesAreTakenAllThreeTogether() {
    String key = "src/test/resources/cluster-tls/node-key.pem";
    String cert = "src/test/resources/cluster-tls/node-cert.pem";

    AppConfig.Cluster cluster =
        ConfigLoader.load(
                clustered(
                    Map.of(
                        "CANVAS_AGENT_EVENTBUS_TLS_KEY", key,
                        "CANVAS_AGENT_EVENTBUS_TLS_CERT", cert,
                        "CANVAS_AGENT_EVENTBUS_TLS_TRUST", cert)))
            .cluster();

    assertEquals(Optional.of(new AppConfig.EventBusTls(key, cert, cert)), cluster.eventBusTls());
  }

  @Test
  void partOfTheEventBusTlsIsRefusedRatherThanRunInTheClear() {
    String message =
        ConfigLoaderTest.refused(
                clustered(
                    Map.of(
                        "CANVAS_AGENT_EVENTBUS_TLS_CERT",
                        "src/test/resources/cluster-tls/node-cert.pem")))
            .getMessage();

    assertTrue(message.startsWith("bad configuration: CANVAS_AGENT_EVENTBUS_TLS_CERT = "), message);
    assertTrue(message.contains("needs all three"), message);
  }

  @Test
  void anEventBusTlsFileThatCannotBeReadIsRefusedNamingItsVariable() {
    String cert = "src/test/resources/cluster-tls/node-cert.pem";

    String message =
        ConfigLoaderTest.refused(
                clustered(
                    Map.of(
                        "CANVAS_AGENT_EVENTBUS_TLS_KEY", "/no/such/key.pem",
                        "CANVAS_AGENT_EVENTBUS_TLS_CERT", cert,
                        "CANVAS_AGENT_EVENTBUS_TLS_TRUST", cert)))
            .getMessage();

    assertEquals(
        "bad configuration: CANVAS_AGENT_EVENTBUS_TLS_KEY = '/no/such/key.pem': is not a readable"
            + " file",
        message);
  }

  @Test
  void aMalformedMemberIsNamedInTheMessage() {
    String message =
        ConfigLoaderTest.refused(
                clustered(Map.of("CANVAS_AGENT_CLUSTER_MEMBERS", "127.0.0.1:5701, node-b")))
            .getMessage();

    assertTrue(message.contains("'node-b' is not host:port"), message);
  }
}
