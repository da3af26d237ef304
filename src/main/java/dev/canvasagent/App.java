package dev.canvasagent;

import ch.qos.logback.classic.Level;
import dev.canvasagent.auth.MintToken;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.cluster.HazelcastNode;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.config.ConfigLoader;
import dev.canvasagent.mcpstdio.McpStdioCommand;
import dev.canvasagent.metrics.NodeRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar canvas-agent.jar}: reads the configuration, starts the server, and on SIGTERM (or
 * Ctrl-C) drains and stops it cleanly: not ready, no new runs, the running runs ended within the
 * shutdown grace, then event streams ended, verticles undeployed, the database pool closed and,
 * clustered ({@code CANVAS_AGENT_CLUSTER=hazelcast}), the cluster left; exit status 0.
 */
public final class App {
  private static final Logger LOG = LoggerFactory.getLogger(App.class);
  static final long SHUTDOWN_TIMEOUT_SECONDS = 20;

  private App() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals(McpStdioCommand.NAME)) {
      // stdout belongs to the MCP client: every other line (logback's console appender writes to
      // System.out whenever it logs) goes to stderr instead.
      PrintStream protocol = System.out;
      System.setOut(System.err);
      System.exit(mcpStdio(args, System.getenv(), System.in, protocol, System.err));
      return;
    }
    AppConfig config;
    try {
      config = ConfigLoader.fromEnvironment();
    } catch (ConfigException bad) {
      System.err.println(bad.getMessage());
      System.exit(2);
      return;
    }
    if (args.length > 0 && args[0].equals("mint-token")) {
      System.exit(
          MintToken.run(List.of(args).subList(1, args.length), config, System.out, System.err));
      return;
    }
    if (args.length > 0) {
      System.err.println(
          "unknown command "
              + args[0]
              + "; the server takes none, or: mint-token --help, "
              + McpStdioCommand.NAME
              + " --help");
      System.exit(2);
      return;
    }
    if (config.model().debug()) {
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("dev.canvasagent"))
          .setLevel(Level.DEBUG);
    }
    HeapFootprint.apply(config.heap());
    Vertx vertx;
    ClusterView cluster;
    if (config.cluster().clustered()) {
      try {
        HazelcastNode.Started node = joinCluster(config.cluster());
        vertx = node.vertx();
        cluster = node.view();
      } catch (CompletionException failed) {
        System.err.println(
            failed.getCause() instanceof ConfigException
                ? failed.getCause().getMessage()
                : "startup failed: the cluster did not start: " + failed.getCause().getMessage());
        System.exit(failed.getCause() instanceof ConfigException ? 2 : 1);
        return;
      }
    } else {
      // Alone: no cluster manager started; the fat jar loads none of Hazelcast's classes either (it
      // does not register the manager as a Vert.x service: pom.xml). Its meters: GET /metrics.
      vertx = NodeRegistry.vertx(new VertxOptions());
      cluster = ClusterView.single();
    }
    CanvasAgent agent;
    try {
      agent =
          CanvasAgent.start(vertx, config, List.of(), cluster)
              .toCompletionStage()
              .toCompletableFuture()
              .join();
    } catch (CompletionException failed) {
      System.err.println(failed.getCause().getMessage());
      vertx.close().toCompletionStage().toCompletableFuture().join();
      System.exit(failed.getCause() instanceof ConfigException ? 2 : 1);
      return;
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> shutdown(vertx, agent, config), "canvas-agent-shutdown"));
    String base = "http://" + config.http().host() + ":" + agent.port();
    // With auth on, the hints show where the token goes; the token itself is the reader's.
    String bearer = config.auth().enabled() ? "-H \"authorization: Bearer $TOKEN\" " : "";
    LOG.atInfo()
        .addKeyValue("url", base)
        .addKeyValue("store", agent.storeKind())
        .addKeyValue("model", config.model().defaultModel())
        .addKeyValue("auth", config.auth().enabled() ? "on" : "off")
        .addKeyValue("cluster", config.cluster().manager().name().toLowerCase(Locale.ROOT))
        .addKeyValue("node", cluster.nodeId())
        .addKeyValue("members", String.join(",", cluster.members()))
        .addKeyValue("health", base + "/health")
        .addKeyValue("events", "curl -N " + bearer + base + "/api/rooms/demo/events")
        .addKeyValue(
            "run",
            "curl "
                + bearer
                + "-H 'content-type: application/json' -d '{\"roomId\":\"demo\",\"message\":\"draw a box\"}' "
                + base
                + "/api/canvas-agent/run")
        .log("server.started");
  }

  /**
   * {@code mcp-stdio …}: the stdio bridge to a running server's {@code /mcp}, needing none of the
   * server's configuration. Returns the process's exit code.
   */
  static int mcpStdio(
      String[] args, Map<String, String> env, InputStream in, PrintStream out, PrintStream err) {
    return McpStdioCommand.run(List.of(args).subList(1, args.length), env, in, out, err);
  }

  /**
   * Vert.x clustered on Hazelcast, once this node has joined (or, the first, formed) the cluster.
   * Called only with {@code CANVAS_AGENT_CLUSTER=hazelcast}.
   */
  private static HazelcastNode.Started joinCluster(AppConfig.Cluster cluster) {
    return HazelcastNode.start(
            new VertxOptions(),
            new HazelcastNode.Settings(
                cluster.name(),
                cluster.host(),
                cluster.port(),
                cluster.members(),
                cluster.eventBusHost(),
                cluster.eventBusPort(),
                cluster.failureDetectionMs(),
                cluster.eventBusTls()))
        .toCompletionStage()
        .toCompletableFuture()
        .join();
  }

  /**
   * SIGTERM (or Ctrl-C): drains ({@link CanvasAgent#drain}: not ready, no new runs, the running ones
   * end within the grace, their final statuses published), then stops (streams ended, verticles
   * undeployed, the store closed) and closes Vert.x (clustered: leaves the cluster, so the sessions
   * move to the other members). The process then exits 0, or 1 if the shutdown failed: a drained
   * stop is a clean one, not the JVM's 143 for a signal.
   */
  private static void shutdown(Vertx vertx, CanvasAgent agent, AppConfig config) {
    LOG.atInfo()
        .addKeyValue("graceMs", config.scheduler().shutdownGraceMs())
        .log("server.draining");
    long boundMs =
        config.scheduler().shutdownGraceMs()
            + config.scheduler().cancelGraceMs()
            + TimeUnit.SECONDS.toMillis(SHUTDOWN_TIMEOUT_SECONDS);
    int status = 0;
    try {
      agent
          .drain()
          .onSuccess(
              drained ->
                  LOG.atInfo()
                      .addKeyValue("finished", drained.runs().finished())
                      .addKeyValue("canceled", drained.runs().canceled())
                      .addKeyValue("notStarted", drained.runs().notStarted())
                      .addKeyValue("documentAgentFinished", drained.documentAgent().finished())
                      .addKeyValue("documentAgentCanceled", drained.documentAgent().canceled())
                      .addKeyValue("documentAgentNotStarted", drained.documentAgent().notStarted())
                      .log("server.drained"))
          .onFailure(
              error ->
                  LOG.atWarn().addKeyValue("error", error.toString()).log("server.drain_failed"))
          .eventually(agent::stop)
          .eventually(vertx::close)
          .toCompletionStage()
          .toCompletableFuture()
          .get(boundMs, TimeUnit.MILLISECONDS);
      LOG.info("server.stopped");
    } catch (Exception e) {
      LOG.atError().addKeyValue("error", e.toString()).log("server.stop_failed");
      status = 1;
    }
    // Halting here skips nothing that matters (Hazelcast's own hook is off, the log is written
    // synchronously) and replaces the signal's exit status with the shutdown's own.
    Runtime.getRuntime().halt(status);
  }
}
