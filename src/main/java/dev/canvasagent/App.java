package dev.canvasagent;

import ch.qos.logback.classic.Level;
import dev.canvasagent.auth.MintToken;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.config.ConfigLoader;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar canvas-agent.jar}: reads the configuration, starts the server, and on SIGTERM (or
 * Ctrl-C) stops it cleanly: verticles undeployed, event streams ended, the database pool closed.
 */
public final class App {
  private static final Logger LOG = LoggerFactory.getLogger(App.class);
  static final long SHUTDOWN_TIMEOUT_SECONDS = 20;

  private App() {}

  public static void main(String[] args) {
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
          MintToken.run(
              java.util.List.of(args).subList(1, args.length), config, System.out, System.err));
      return;
    }
    if (args.length > 0) {
      System.err.println(
          "unknown command " + args[0] + "; the server takes none, or: mint-token --help");
      System.exit(2);
      return;
    }
    if (config.model().debug()) {
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("dev.canvasagent"))
          .setLevel(Level.DEBUG);
    }
    HeapFootprint.apply(config.heap());
    Vertx vertx = Vertx.vertx();
    CanvasAgent agent;
    try {
      agent = CanvasAgent.start(vertx, config).toCompletionStage().toCompletableFuture().join();
    } catch (CompletionException failed) {
      System.err.println(failed.getCause().getMessage());
      vertx.close().toCompletionStage().toCompletableFuture().join();
      System.exit(failed.getCause() instanceof ConfigException ? 2 : 1);
      return;
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> shutdown(vertx, agent), "canvas-agent-shutdown"));
    String base = "http://" + config.http().host() + ":" + agent.port();
    // With auth on, the hints show where the token goes; the token itself is the reader's.
    String bearer = config.auth().enabled() ? "-H \"authorization: Bearer $TOKEN\" " : "";
    LOG.atInfo()
        .addKeyValue("url", base)
        .addKeyValue("store", agent.storeKind())
        .addKeyValue("model", config.model().defaultModel())
        .addKeyValue("auth", config.auth().enabled() ? "on" : "off")
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

  private static void shutdown(Vertx vertx, CanvasAgent agent) {
    LOG.info("server.stopping");
    try {
      agent
          .stop()
          .eventually(() -> vertx.close())
          .toCompletionStage()
          .toCompletableFuture()
          .get(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      LOG.info("server.stopped");
    } catch (Exception e) {
      LOG.atError().addKeyValue("error", e.toString()).log("server.stop_failed");
    }
  }
}
