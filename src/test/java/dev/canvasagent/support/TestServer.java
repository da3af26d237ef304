package dev.canvasagent.support;

import dev.canvasagent.CanvasAgent;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigLoader;
import dev.canvasagent.config.DatabaseConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The real server, all verticles deployed, on a random port, with the memory or the PostgreSQL store. */
public final class TestServer {
  private final Vertx vertx;
  private final CanvasAgent agent;
  private final WebClient http;
  private final AppConfig config;

  private TestServer(Vertx vertx, CanvasAgent agent, AppConfig config) {
    this.vertx = vertx;
    this.agent = agent;
    this.config = config;
    this.http =
        WebClient.create(
            vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(agent.port()));
  }

  /**
   * The embedded defaults on a random port, with extra environment variables. Partial envelopes are
   * off unless a test turns them on ({@code CANVAS_AGENT_PARTIAL_INTERVAL_MS}): tests that count
   * envelopes count the final ones, and the partial-envelope tests ask for partials themselves. The
   * low-action rule is off too ({@code CANVAS_AGENT_LOW_ACTION_THRESHOLD=0}): most fake runs apply
   * fewer than six actions, and the tests of that rule turn it on. The edge limits are as high as they
   * go ({@link #UNLIMITED}): every test is one client (127.0.0.1) that starts runs and opens streams far
   * faster than a person, and the tests of the limits set their own. So are the connection deadlines:
   * a test's pooled client may leave a connection quiet for a while, and the tests of the deadlines set
   * their own.
   */
  public static AppConfig config(Map<String, String> environment) {
    Map<String, String> env = new HashMap<>(environment);
    env.putIfAbsent("PORT", "0");
    env.putIfAbsent("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "0");
    env.putIfAbsent("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "0");
    UNLIMITED.forEach(env::putIfAbsent);
    return ConfigLoader.load(env);
  }

  /** The highest value each edge limit takes. */
  public static final Map<String, String> UNLIMITED =
      Map.ofEntries(
          Map.entry("CANVAS_AGENT_RUNS_PER_MINUTE", "100000"),
          Map.entry("CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", "100000"),
          Map.entry("CANVAS_AGENT_REQUESTS_PER_SECOND", "100000"),
          Map.entry("CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND", "1000000"),
          Map.entry("CANVAS_AGENT_SCREENSHOT_BYTES_PER_MINUTE", String.valueOf(Integer.MAX_VALUE)),
          Map.entry("CANVAS_AGENT_CONNECTIONS_PER_ADDRESS", "100000"),
          Map.entry("CANVAS_AGENT_ROOMS_PER_CLIENT", "100000"),
          Map.entry("CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS", "100000"),
          Map.entry("CANVAS_AGENT_HEAD_TIMEOUT_MS", "300000"),
          Map.entry("CANVAS_AGENT_BODY_TIMEOUT_MS", "3600000"),
          Map.entry("CANVAS_AGENT_IDLE_TIMEOUT_MS", "86400000"));

  public static TestServer start(Vertx vertx, Optional<DatabaseConfig> database) {
    return start(vertx, config(Map.of()).withDatabase(database));
  }

  public static TestServer start(Vertx vertx, AppConfig config) {
    return start(vertx, config, java.util.List.of());
  }

  /** With model providers of the test's own ahead of the built-in ones. */
  public static TestServer start(
      Vertx vertx,
      AppConfig config,
      java.util.List<dev.canvasagent.model.ModelProvider> providers) {
    return new TestServer(vertx, Await.result(CanvasAgent.start(vertx, config, providers)), config);
  }

  /** As a member of {@code cluster}, on the clustered {@code vertx} it was started with. */
  public static TestServer start(
      Vertx vertx, AppConfig config, dev.canvasagent.cluster.ClusterView cluster) {
    return start(vertx, config, java.util.List.of(), cluster);
  }

  /** As a member of {@code cluster}, with model providers of the test's own. */
  public static TestServer start(
      Vertx vertx,
      AppConfig config,
      java.util.List<dev.canvasagent.model.ModelProvider> providers,
      dev.canvasagent.cluster.ClusterView cluster) {
    return new TestServer(
        vertx, Await.result(CanvasAgent.start(vertx, config, providers, cluster)), config);
  }

  /** This node and the members it sees. */
  public dev.canvasagent.cluster.ClusterView cluster() {
    return agent.cluster();
  }

  public int port() {
    return agent.port();
  }

  /** The boards this server holds (its patch engine's), as its runner and sanitizer read them. */
  public dev.canvasagent.nodeboards.NodeBoards boards() {
    return agent.boards();
  }

  public AppConfig config() {
    return config;
  }

  public WebClient http() {
    return http;
  }

  /** A shutdown's first part, as SIGTERM starts it: not ready, no new runs, the running ones end. */
  public Future<dev.canvasagent.NodeDrained> drain() {
    return agent.drain();
  }

  public Future<Void> stop() {
    http.close();
    return agent.stop();
  }

  public SseClient events(String roomId) {
    return Await.result(SseClient.connect(vertx, port(), "/api/rooms/" + roomId + "/events"));
  }

  public HttpResponse<io.vertx.core.buffer.Buffer> postRun(JsonObject body) {
    return Await.result(
        http.post("/api/canvas-agent/run")
            .putHeader("content-type", "application/json")
            .sendJsonObject(body));
  }

  public HttpResponse<io.vertx.core.buffer.Buffer> get(String path) {
    return Await.result(http.get(path).send());
  }

  public JsonObject board(String roomId) {
    return get("/api/rooms/" + roomId + "/board").bodyAsJsonObject();
  }
}
