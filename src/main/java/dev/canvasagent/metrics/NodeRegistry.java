package dev.canvasagent.metrics;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.Match;
import io.vertx.micrometer.MatchType;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.EnumSet;
import java.util.UUID;

/**
 * Vert.x instances whose own meters (HTTP server and client, event bus, pools) go to a Prometheus
 * registry of their own, and the way back from an instance to its registry.
 *
 * <p>Labels are bounded: the HTTP server's requests are labelled by their route's pattern ({@code
 * /api/rooms/:roomId/events}), never by their path, and event-bus meters by address with every room's
 * topics folded into {@code room.<id>.<topic>} and every node's link into {@code bridge.node.<id>}.
 * vertx-micrometer-metrics keeps registries by name in a map of its own, so each instance gets a name
 * of its own too: two nodes in one JVM never share one.
 */
public final class NodeRegistry {
  private static final String LOCAL_MAP = "canvas-agent.metrics";
  private static final String KEY = "registry";

  private NodeRegistry() {}

  /** A plain Vert.x recording its meters in a registry of its own. */
  public static Vertx vertx(VertxOptions options) {
    Held held = new Held(newRegistry());
    Vertx vertx = builder(options, held.registry).build();
    return remember(vertx, held);
  }

  /** A clustered Vert.x on {@code manager}, recording its meters in a registry of its own. */
  public static Future<Vertx> clustered(VertxOptions options, ClusterManager manager) {
    Held held = new Held(newRegistry());
    return builder(options, held.registry)
        .withClusterManager(manager)
        .buildClustered()
        .map(vertx -> remember(vertx, held));
  }

  /**
   * The registry of {@code vertx}: the one it was built with here, or, for a Vert.x built otherwise,
   * one made now and kept with it (so every caller on that instance gets the same).
   */
  static PrometheusMeterRegistry registryOf(Vertx vertx) {
    LocalMap<String, Held> map = vertx.sharedData().getLocalMap(LOCAL_MAP);
    return map.computeIfAbsent(KEY, absent -> new Held(newRegistry())).registry;
  }

  /**
   * The options that turn Vert.x's meters on: the HTTP server's and client's by method, code and
   * route (not path), the event bus's by side and address (folded), pools by type and name.
   */
  static MicrometerMetricsOptions options() {
    MicrometerMetricsOptions options =
        new MicrometerMetricsOptions()
            .setEnabled(true)
            // A name of this instance's own: vertx-micrometer-metrics keeps one registry per name.
            .setRegistryName("canvas-agent-" + UUID.randomUUID())
            .setLabels(
                EnumSet.of(
                    Label.HTTP_METHOD,
                    Label.HTTP_CODE,
                    Label.HTTP_ROUTE,
                    Label.EB_SIDE,
                    Label.EB_ADDRESS,
                    Label.EB_FAILURE,
                    Label.POOL_TYPE,
                    Label.POOL_NAME));
    options.addLabelMatch(fold("room\\..+", "room.<id>"));
    options.addLabelMatch(fold("bridge\\.node\\..+", "bridge.node.<id>"));
    return options;
  }

  private static Match fold(String pattern, String alias) {
    return new Match()
        .setDomain(MetricsDomain.EVENT_BUS)
        .setLabel(Label.EB_ADDRESS.toString())
        .setType(MatchType.REGEX)
        .setValue(pattern)
        .setAlias(alias);
  }

  private static VertxBuilder builder(VertxOptions options, PrometheusMeterRegistry registry) {
    return Vertx.builder()
        .with(new VertxOptions(options).setMetricsOptions(options()))
        .withMetrics(new MicrometerMetricsFactory(registry));
  }

  private static PrometheusMeterRegistry newRegistry() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // vertx-web reports every route a request passed through, joined by '>' (the /api/* handlers
    // that authenticate and count, then the route that answered): the last one names the request.
    registry
        .config()
        .meterFilter(
            MeterFilter.replaceTagValues(
                Label.HTTP_ROUTE.toString(), route -> route.substring(route.lastIndexOf('>') + 1)));
    return registry;
  }

  private static Vertx remember(Vertx vertx, Held held) {
    vertx.sharedData().<String, Held>getLocalMap(LOCAL_MAP).put(KEY, held);
    return vertx;
  }

  /** The registry as a value Vert.x's local shared data will hold (it copies nothing else). */
  private static final class Held implements Shareable {
    private final PrometheusMeterRegistry registry;

    Held(PrometheusMeterRegistry registry) {
      this.registry = registry;
    }
  }
}
