package dev.canvasagent;

import dev.canvasagent.bridge.BridgeVerticle;
import dev.canvasagent.bus.CanvasVerticle;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.lease.LeaseVerticle;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.model.fake.FakeModel;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.patch.PatchEngineVerticle;
import dev.canvasagent.runner.RunnerVerticle;
import dev.canvasagent.sanitizer.SanitizerVerticle;
import dev.canvasagent.scheduler.SchedulerVerticle;
import dev.canvasagent.screenshot.ScreenshotVerticle;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.store.pg.PgStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running server: its store and its seven verticles. {@link #start} opens the store and deploys
 * the verticles in dependency order, the HTTP edge last, so nothing is reachable before everything
 * behind it listens; if any step fails, what was started is stopped again and the failure names the
 * step. {@link #stop} undeploys in reverse order, then closes the store.
 */
public final class CanvasAgent {
  private static final Logger LOG = LoggerFactory.getLogger(CanvasAgent.class);

  private final Vertx vertx;
  private final Store store;
  private final List<String> deploymentIds;
  private final BridgeVerticle bridge;

  private CanvasAgent(Vertx vertx, Store store, List<String> deploymentIds, BridgeVerticle bridge) {
    this.vertx = vertx;
    this.store = store;
    this.deploymentIds = deploymentIds;
    this.bridge = bridge;
  }

  public static Future<CanvasAgent> start(Vertx vertx, AppConfig config) {
    return start(vertx, config, List.of());
  }

  /**
   * With {@code extraProviders} consulted before the built-in ones: how a test puts a model of its
   * own behind a real server, e.g. to see what a model is asked.
   */
  public static Future<CanvasAgent> start(Vertx vertx, AppConfig config, List<ModelProvider> extraProviders) {
    List<ModelProvider> providers = new ArrayList<>(extraProviders);
    providers.add(new FakeModel(vertx, FakeScenarios.load()));
    ModelRegistry models = new ModelRegistry(providers, List.of(FakeModel.MODEL));
    if (models.provider(config.model().defaultModel()).isEmpty()) {
      return Future.failedFuture(new ConfigException("bad configuration: model.default (CANVAS_STEWARD_MODEL) = '"
          + config.model().defaultModel() + "': unknown model; this server knows " + models.knownModels()));
    }
    ActionCatalog catalog = ActionCatalog.standard();
    Future<Store> opened = config.database().isPresent()
        ? PgStore.open(vertx, config.database().get())
            .recover(error -> Future.failedFuture(new IllegalStateException(
                "startup failed: cannot open the PostgreSQL store at " + config.database().get() + ": " + error.getMessage(), error)))
        : Future.succeededFuture(new MemoryStore());
    return opened.compose(store -> {
      List<CanvasVerticle> verticles = new ArrayList<>(List.of(
          new PatchEngineVerticle(store),
          new SanitizerVerticle(catalog, config.themeEnabled()),
          new ScreenshotVerticle(config.screenshot()),
          new LeaseVerticle(),
          new RunnerVerticle(store, models, catalog, config),
          new SchedulerVerticle(store, models, config)));
      List<String> names = new ArrayList<>(verticles.stream().map(CanvasVerticle::name).toList());
      names.add(0, "bridge");
      BridgeVerticle bridge = new BridgeVerticle(config, catalog, names);
      verticles.add(bridge);
      List<String> deployed = new ArrayList<>();
      Future<Void> chain = Future.succeededFuture();
      for (CanvasVerticle verticle : verticles) {
        chain = chain.compose(previous -> vertx.deployVerticle(verticle)
            .recover(error -> Future.failedFuture(new IllegalStateException(
                "startup failed: the " + verticle.name() + " verticle did not deploy: " + error.getMessage(), error)))
            .map(id -> {
              deployed.add(id);
              return null;
            }));
      }
      CanvasAgent agent = new CanvasAgent(vertx, store, deployed, bridge);
      return chain
          .map(started -> agent)
          .recover(error -> agent.stop().transform(stopped -> Future.failedFuture(error)));
    });
  }

  /** The HTTP port the bridge listens on. */
  public int port() {
    return bridge.actualPort();
  }

  public String storeKind() {
    return store.kind();
  }

  /** Undeploys the verticles, newest first (the HTTP edge closes its streams first), then closes the store. */
  public Future<Void> stop() {
    Future<Void> chain = Future.succeededFuture();
    for (String id : reversed(deploymentIds)) {
      chain = chain.compose(previous -> vertx.undeploy(id).otherwise(error -> {
        LOG.atWarn().addKeyValue("deployment", id).addKeyValue("error", error.getMessage()).log("shutdown.undeploy_failed");
        return null;
      }));
    }
    return chain.compose(undeployed -> store.close());
  }

  private static List<String> reversed(List<String> ids) {
    List<String> copy = new ArrayList<>(ids);
    java.util.Collections.reverse(copy);
    return copy;
  }
}
