package dev.canvasagent;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.bridge.BridgeVerticle;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.DrainRequest;
import dev.canvasagent.bus.Drained;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.cluster.ClusterView;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.docagent.DocumentAgentVerticle;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.document.LeaseVerticle;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.model.HttpProviders;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.model.fake.FakeModel;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.patch.PatchEngineVerticle;
import dev.canvasagent.runner.RunnerVerticle;
import dev.canvasagent.sanitizer.SanitizerVerticle;
import dev.canvasagent.scheduler.SchedulerVerticle;
import dev.canvasagent.screenshot.ScreenshotVerticle;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.files.DirectoryAssetStore;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.store.memory.RevisionRetention;
import dev.canvasagent.store.pg.PgStore;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running server: its store, its model providers and its eight verticles. {@link #start} opens the store and deploys
 * the HTTP edge first, answering only its health routes ({@code /health/ready}: "starting"), then the
 * other verticles in dependency order, and opens the API once all of them are there; if any step
 * fails, what was started is stopped again and the failure names the step. {@link #drain} is a
 * shutdown's first part (not ready, no new runs, the running ones end within a grace); {@link #stop}
 * undeploys the edge first, then the rest in reverse order, then closes the store.
 */
public final class CanvasAgent {
  private static final Logger LOG = LoggerFactory.getLogger(CanvasAgent.class);
  static final long DRAIN_MARGIN_MS = 5_000;

  private final Vertx vertx;
  private final Store store;
  private final List<String> deploymentIds;
  private final BridgeVerticle bridge;
  private final HttpProviders providers;
  private final NodeBoards boards;
  private final ClusterView cluster;
  private final AppConfig config;

  private CanvasAgent(
      Vertx vertx,
      Store store,
      List<String> deploymentIds,
      BridgeVerticle bridge,
      HttpProviders providers,
      NodeBoards boards,
      ClusterView cluster,
      AppConfig config) {
    this.vertx = vertx;
    this.store = store;
    this.deploymentIds = deploymentIds;
    this.bridge = bridge;
    this.providers = providers;
    this.boards = boards;
    this.cluster = cluster;
    this.config = config;
  }

  public static Future<CanvasAgent> start(Vertx vertx, AppConfig config) {
    return start(vertx, config, List.of());
  }

  /**
   * With {@code extraProviders} consulted before the built-in ones: how a test puts a model of its
   * own behind a real server, e.g. to see what a model is asked.
   */
  public static Future<CanvasAgent> start(
      Vertx vertx, AppConfig config, List<ModelProvider> extraProviders) {
    return start(vertx, config, extraProviders, ClusterView.single());
  }

  /**
   * As a member of {@code cluster}: {@code vertx} is the clustered Vert.x the view was started with
   * ({@code cluster/HazelcastNode}), or any Vert.x with {@link ClusterView#single()}.
   */
  public static Future<CanvasAgent> start(
      Vertx vertx, AppConfig config, List<ModelProvider> extraProviders, ClusterView cluster) {
    // First, so the verticles' meters (CanvasMetrics.of) have the configured objectives as buckets.
    CanvasMetrics.of(
        vertx,
        new CanvasMetrics.Objectives(
            config.ttfbSloMs(), config.screenshotSloMs(), config.applyJitterSloMs()));
    FakeScenarios scenarios = FakeScenarios.load();
    if (config.model().fakeTokenDelayMs().isPresent()) {
      scenarios = scenarios.withChunkDelayMs(config.model().fakeTokenDelayMs().getAsInt());
    }
    HttpProviders providers = HttpProviders.create(vertx, config);
    List<ModelProvider> all = new ArrayList<>(extraProviders);
    all.add(new FakeModel(vertx, scenarios));
    all.addAll(providers.providers());
    List<String> known = new ArrayList<>(List.of(FakeModel.MODEL));
    known.addAll(HttpProviders.KEYS);
    ModelRegistry models = new ModelRegistry(all, known);
    ModelRegistry.Resolution defaultModel = models.resolve(config.model().defaultModel());
    if (!(defaultModel instanceof ModelRegistry.Ready)) {
      String why =
          defaultModel instanceof ModelRegistry.NotConfigured notConfigured
              ? "its provider needs " + notConfigured.setting()
              : "unknown model; this server knows " + models.knownModels();
      return providers
          .close()
          .transform(
              closed ->
                  Future.failedFuture(
                      new ConfigException(
                          "bad configuration: model.default (CANVAS_STEWARD_MODEL) = '"
                              + config.model().defaultModel()
                              + "': "
                              + why)));
    }
    Optional<AccessTokens> tokens;
    try {
      tokens =
          config.auth().enabled()
              ? Optional.of(AccessTokens.create(vertx, config.auth()))
              : Optional.empty();
    } catch (ConfigException unusable) {
      return providers.close().transform(closed -> Future.failedFuture(unusable));
    }
    if (tokens.isEmpty()) {
      LOG.atWarn()
          .addKeyValue("host", config.http().host())
          .log(
              "auth.off: no CANVAS_AGENT_JWT_SECRET, so anyone who can reach this loopback address may read and drive every room");
    }
    ActionCatalog catalog = ActionCatalog.standard();
    Future<Store> opened =
        config.database().isPresent()
            ? PgStore.open(vertx, config.database().get())
                .recover(
                    error ->
                        Future.failedFuture(
                            new IllegalStateException(
                                "startup failed: cannot open the PostgreSQL store at "
                                    + config.database().get()
                                    + ": "
                                    + error.getMessage(),
                                error)))
            : Future.succeededFuture(
                new MemoryStore(
                    new RevisionRetention(
                        config.memoryHistory().revisionsPerRoom(),
                        config.memoryHistory().revisionBytesPerRoom()),
                    // Images off the heap, in files, read and written without blocking.
                    new DirectoryAssetStore(vertx, config.assets().directory())));
    return opened
        .recover(error -> providers.close().transform(closed -> Future.failedFuture(error)))
        .compose(
            store -> {
              DocumentToolCatalog documentTools = new DocumentToolCatalog();
              // The one place this node's boards are shared: the patch engine writes them, the
              // sanitizer and the runner read them by revision.
              NodeBoards boards = new NodeBoards();
              List<CanvasVerticle> verticles =
                  new ArrayList<>(
                      List.of(
                          new PatchEngineVerticle(store, config.boardCache(), boards),
                          new SanitizerVerticle(catalog, config.themeEnabled(), boards),
                          new ScreenshotVerticle(config.screenshot()),
                          new LeaseVerticle(store, config.documents(), documentTools),
                          new DocumentAgentVerticle(
                              store.documentAgentSessions(),
                              models,
                              config.model().defaultModel(),
                              config.documents(),
                              documentTools),
                          new RunnerVerticle(store, models, catalog, config, boards),
                          new SchedulerVerticle(store, models, config, cluster)));
              List<String> names =
                  new ArrayList<>(verticles.stream().map(CanvasVerticle::name).toList());
              names.add(0, "bridge");
              BridgeVerticle bridge =
                  new BridgeVerticle(
                      config, catalog, names, tokens, store.rateLimits(), store.assets(), cluster);
              verticles.add(bridge);
              List<String> deployed = new ArrayList<>();
              // The edge first: it listens while the rest deploy, answering only its health routes
              // (ready: "starting"); it opens the API once every verticle behind it is there.
              verticles.remove(bridge);
              verticles.add(0, bridge);
              Future<Void> chain = Future.succeededFuture();
              for (CanvasVerticle verticle : verticles) {
                chain =
                    chain.compose(
                        previous ->
                            vertx
                                .deployVerticle(verticle)
                                .recover(
                                    error ->
                                        Future.failedFuture(
                                            new IllegalStateException(
                                                "startup failed: the "
                                                    + verticle.name()
                                                    + " verticle did not deploy: "
                                                    + error.getMessage(),
                                                error)))
                                .map(
                                    id -> {
                                      deployed.add(id);
                                      return null;
                                    }));
              }
              CanvasAgent agent =
                  new CanvasAgent(
                      vertx, store, deployed, bridge, providers, boards, cluster, config);
              return chain
                  .compose(started -> bridge.serve())
                  .map(serving -> agent)
                  .recover(error -> agent.stop().transform(stopped -> Future.failedFuture(error)));
            });
  }

  /** The HTTP port the bridge listens on. */
  public int port() {
    return bridge.actualPort();
  }

  /** The boards this node holds (its patch engine's cache), as its verticles read them. */
  public NodeBoards boards() {
    return boards;
  }

  /** This node and the members it sees. */
  public ClusterView cluster() {
    return cluster;
  }

  public String storeKind() {
    return store.kind();
  }

  /**
   * The first part of a shutdown ({@link #stop} is the second): {@code /health/ready} answers 503
   * {@code draining} at once; then the scheduler and the document agent drain side by side, within
   * the one {@code scheduler.shutdownGraceMs}: each refuses new work SHUTTING_DOWN, lets what is
   * running end by itself within the grace and cancels what is still going then. Completes once both
   * are drained, every final status published while the streams are still open.
   */
  public Future<NodeDrained> drain() {
    long graceMs = config.scheduler().shutdownGraceMs();
    // Past the grace, the runner has the cancel grace to end what is canceled; a little more covers
    // the final writes (a document-agent loop's check-in among them).
    long patience = graceMs + config.scheduler().cancelGraceMs() + DRAIN_MARGIN_MS;
    DeliveryOptions patiently = new DeliveryOptions().setSendTimeout(patience);
    DrainRequest request = new DrainRequest(graceMs);
    return bridge
        .drain()
        .compose(
            notReady -> {
              Future<Drained> runs =
                  Address.SCHEDULER_DRAIN.ask(vertx.eventBus(), request, patiently);
              Future<Drained> loops =
                  Address.DOC_AGENT_DRAIN.ask(vertx.eventBus(), request, patiently);
              return Future.all(runs, loops)
                  .map(both -> new NodeDrained(runs.result(), loops.result()));
            });
  }

  /**
   * Undeploys the verticles: the HTTP edge first (its streams end), then the others newest first;
   * then closes the store.
   */
  public Future<Void> stop() {
    List<String> order = reversed(deploymentIds);
    if (!order.isEmpty()) {
      // The edge was deployed first: it goes first all the same.
      order.add(0, order.remove(order.size() - 1));
    }
    Future<Void> chain = Future.succeededFuture();
    for (String id : order) {
      chain =
          chain.compose(
              previous ->
                  vertx
                      .undeploy(id)
                      .otherwise(
                          error -> {
                            LOG.atWarn()
                                .addKeyValue("deployment", id)
                                .addKeyValue("error", error.getMessage())
                                .log("shutdown.undeploy_failed");
                            return null;
                          }));
    }
    return chain
        .compose(undeployed -> providers.close().otherwise(error -> null))
        .compose(closed -> store.close());
  }

  private static List<String> reversed(List<String> ids) {
    List<String> copy = new ArrayList<>(ids);
    java.util.Collections.reverse(copy);
    return copy;
  }
}
