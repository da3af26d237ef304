package dev.canvasagent.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.PrometheusText;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code GET /metrics} after real work, read by the reference Prometheus text parser: a run with the
 * {@code debug/fake} model that drops two malformed actions beside a valid one, a second run refused by
 * the room's run limit, a person's change on a stale revision, a document lease taken back and then
 * written under (STALE_EPOCH), an open event stream, all on the real
 * server over HTTP with PostgreSQL (its pool's meters too). The named series are there with sane
 * values, the SLOs are bucket boundaries, and no label carries the room's id.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsScrapeTest {
  static final String ROOM = "metrics-room-7f3a";
  static final Path DASHBOARD = Path.of("ops/grafana/canvas-agent.json");

  Vertx vertx;
  DatabaseConfig database;
  TestServer server;
  SseClient events;
  PrometheusText scrape;

  @BeforeAll
  void runSomethingThenScrape() {
    vertx = NodeRegistry.vertx(new VertxOptions());
    database = TestDatabase.freshSchema();
    server =
        TestServer.start(
            vertx,
            TestServer.config(Map.of("CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", "1"))
                .withDatabase(Optional.of(database)));
    events = server.events(ROOM);
    HttpResponse<Buffer> accepted =
        server.postRun(new JsonObject().put("roomId", ROOM).put("message", "/invalid please"));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    Await.result(
        events.awaitEvent(
            event ->
                event.event().equals("agent:status")
                    && sessionId.equals(event.data().getString("sessionId"))
                    && Set.of("done", "error", "canceled", "scheduled")
                        .contains(event.data().getString("state"))));
    HttpResponse<Buffer> limited =
        server.postRun(new JsonObject().put("roomId", ROOM).put("message", "another box"));
    assertEquals(429, limited.statusCode(), limited.bodyAsString());
    HttpResponse<Buffer> stale =
        Await.result(
            server
                .http()
                .post("/api/rooms/" + ROOM + "/changes")
                .sendJsonObject(
                    new JsonObject()
                        .put("baseRevision", 0)
                        .put("remove", new JsonArray().add("shape:nothing-here"))));
    assertEquals(409, stale.statusCode(), stale.bodyAsString());
    assertEquals(200, server.get("/api/rooms/" + ROOM + "/board").statusCode());
    // A document leased, taken back by its person, then written under the old lease.
    HttpResponse<Buffer> document =
        post("/api/docs", new JsonObject().put("roomId", ROOM).put("content", "one\ntwo\n"));
    assertEquals(201, document.statusCode(), document.bodyAsString());
    String docId = document.bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> checkedOut =
        post("/api/docs/" + docId + "/tools/canvas_check_out", new JsonObject());
    assertEquals(200, checkedOut.statusCode(), checkedOut.bodyAsString());
    JsonObject lease = checkedOut.bodyAsJsonObject();
    assertEquals(200, post("/api/docs/" + docId + "/lease/preempt", new JsonObject()).statusCode());
    HttpResponse<Buffer> late =
        post(
            "/api/docs/" + docId + "/tools/canvas_delete_lines",
            new JsonObject()
                .put("lease_id", lease.getString("lease_id"))
                .put("canvas_epoch", lease.getLong("canvas_epoch"))
                .put("start_line", 1)
                .put("end_line", 1));
    assertEquals(409, late.statusCode(), late.bodyAsString());

    HttpResponse<Buffer> metrics = server.get("/metrics");
    assertEquals(200, metrics.statusCode(), metrics.bodyAsString());
    assertTrue(
        metrics.getHeader("content-type").startsWith("text/plain; version=0.0.4"),
        metrics.getHeader("content-type"));
    scrape = PrometheusText.parse(metrics.bodyAsString());
  }

  private HttpResponse<Buffer> post(String path, JsonObject body) {
    return Await.result(server.http().post(path).sendJsonObject(body));
  }

  @AfterAll
  void stop() {
    Await.result(events.close());
    Await.result(server.stop());
    Await.result(vertx.close());
    TestDatabase.drop(database);
  }

  @Test
  void theRunIsCountedByItsEndStateAndCode() {
    assertAtLeast(1, CanvasMeter.RUNS, Map.of("state", "done", "code", "none"));
    assertAtLeast(1, "canvas_agent_provider_calls_total", Map.of("provider", "debug"));
    assertAtLeast(1, "canvas_agent_envelopes_published_total", Map.of("kind", "final"));
  }

  @Test
  void timeToFirstEnvelopeAndToFirstAppliedAreHistogramsWithTheSloAsABucket() {
    for (String histogram :
        List.of("canvas_agent_run_ttfb_seconds", "canvas_agent_run_first_applied_seconds")) {
      assertAtLeast(1, histogram + "_count", Map.of());
      assertTrue(
          scrape.value(histogram + "_bucket", Map.of("le", "0.2")).isPresent(),
          histogram + " has the 200 ms objective as a bucket");
      double sum = scrape.value(histogram + "_sum", Map.of()).orElseThrow();
      assertTrue(sum > 0 && sum < 60, histogram + "_sum in seconds: " + sum);
      assertEquals(
          scrape.value(histogram + "_count", Map.of()).orElseThrow(),
          scrape.value(histogram + "_bucket", Map.of("le", "+Inf")).orElseThrow(),
          "+Inf holds every observation");
    }
    assertTrue(
        scrape
            .value("canvas_agent_screenshot_capture_seconds_bucket", Map.of("le", "0.15"))
            .isPresent(),
        "the screenshot objective (150 ms) is a bucket, before any capture");
  }

  @Test
  void dropsRefusalsRejectionsStreamsAndLeasesAreCounted() {
    assertAtLeast(2, CanvasMeter.SANITIZER_DROPS, Map.of());
    for (var drop : scrape.samples("canvas_agent_sanitizer_drops_total", Map.of())) {
      assertTrue(CanvasMetrics.DROP_REASONS.contains(drop.labels().get("reason")), drop.toString());
    }
    assertAtLeast(1, CanvasMeter.RATE_LIMIT_REFUSALS, Map.of("limit", "room_runs_per_minute"));
    assertAtLeast(1, CanvasMeter.PATCH_REJECTIONS, Map.of("reason", "revision_conflict"));
    assertAtLeast(1, CanvasMeter.OPEN_STREAMS, Map.of("transport", "sse"));
    assertAtLeast(1, CanvasMeter.SCREENSHOTS, Map.of("outcome", "no_host"));
    assertAtLeast(1, CanvasMeter.LEASE_GRANTS, Map.of());
    assertAtLeast(1, CanvasMeter.LEASE_PREEMPTIONS, Map.of());
    assertAtLeast(1, CanvasMeter.LEASE_STALE_EPOCHS, Map.of());
    assertEquals(
        0.0,
        scrape.value("canvas_agent_open_streams", Map.of("transport", "websocket")).orElseThrow());
  }

  @Test
  void aWebSocketIsCountedWhileItIsOpenAndNoLongerOnceItCloses() {
    String open = "canvas_agent_open_streams{transport=\"websocket\"} 1.0";
    String none = "canvas_agent_open_streams{transport=\"websocket\"} 0.0";
    WsClient socket = Await.result(WsClient.connect(vertx, server.port(), ROOM));
    Await.result(Eventually.holds(vertx, () -> metricsText().map(text -> text.contains(open))));
    Await.result(socket.close());
    Await.result(Eventually.holds(vertx, () -> metricsText().map(text -> text.contains(none))));
  }

  @Test
  void theHostsAcksGiveItsApplyTimesAndTheirJitter() {
    String room = "metrics-host";
    WsClient host = Await.result(WsClient.connect(vertx, server.port(), room)).autoAck();
    SseClient watching = server.events(room);
    HttpResponse<Buffer> accepted =
        server.postRun(new JsonObject().put("roomId", room).put("message", "draw 3 red circles"));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    List<SseClient.SseEvent> events =
        Await.result(
            watching.awaitEvent(
                event ->
                    event.event().equals("agent:status")
                        && sessionId.equals(event.data().getString("sessionId"))
                        && "done".equals(event.data().getString("state"))));
    long finals =
        events.stream()
            .filter(event -> event.event().equals("agent:action"))
            .filter(event -> !event.data().getBoolean("partial", false))
            .count();
    assertTrue(finals >= 3, "the run's envelopes: " + finals);

    // Each final envelope's ack gives one apply time, and each after the first one jitter.
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                metricsText()
                    .map(
                        text ->
                            PrometheusText.parse(text)
                                    .value("canvas_agent_host_apply_seconds_count", Map.of())
                                    .orElse(0.0)
                                >= finals)));
    PrometheusText after = PrometheusText.parse(Await.result(metricsText()));
    assertEquals(
        (double) finals,
        after.value("canvas_agent_host_apply_seconds_count", Map.of()).orElseThrow());
    assertEquals(
        (double) finals - 1,
        after.value("canvas_agent_apply_jitter_seconds_count", Map.of()).orElseThrow());
    assertTrue(
        after.value("canvas_agent_apply_jitter_seconds_bucket", Map.of("le", "0.05")).isPresent(),
        "the objective is a bucket: "
            + after.samples("canvas_agent_apply_jitter_seconds_bucket", Map.of()));
    Await.result(watching.close());
    Await.result(host.close());
  }

  private io.vertx.core.Future<String> metricsText() {
    return server.http().get("/metrics").send().map(HttpResponse::bodyAsString);
  }

  @Test
  void everyDomainMeterIsExportedUnderItsDeclaredName() {
    for (CanvasMeter meter : CanvasMeter.values()) {
      String family = meter.prometheusName().replaceAll("_total$", "");
      assertTrue(
          scrape.samples().stream().anyMatch(sample -> sample.family().equals(family)),
          meter + " (" + family + ") is in the scrape: " + names("canvas_agent"));
    }
  }

  @Test
  void vertxsOwnMetersAreThereWithBoundedLabels() {
    assertTrue(
        scrape.samples().stream()
            .anyMatch(
                sample ->
                    sample.name().equals("vertx_http_server_requests_total")
                        && "/api/rooms/:roomId/board".equals(sample.labels().get("route"))),
        "HTTP server requests are labelled by route pattern: "
            + scrape.samples("vertx_http_server_requests_total", Map.of()));
    assertTrue(
        scrape.samples().stream().anyMatch(sample -> sample.name().startsWith("vertx_eventbus_")),
        "the event bus's meters: " + names("vertx_eventbus"));
    assertTrue(
        scrape.samples().stream()
            .anyMatch(sample -> "room.<id>".equals(sample.labels().get("address"))),
        "room topics are folded into one address");
    assertTrue(
        scrape.samples().stream()
            .anyMatch(
                sample ->
                    sample.name().startsWith("vertx_pool_")
                        || sample.name().startsWith("vertx_sql_")),
        "the PostgreSQL pool's meters: " + names("vertx_"));
    for (var sample : scrape.samples()) {
      for (String value : sample.labels().values()) {
        assertFalse(value.contains(ROOM), "a room id in a label: " + sample);
      }
    }
  }

  /**
   * ops/grafana/canvas-agent.json: every metric its PromQL names is in this scrape (a panel never
   * queries a series the server does not export), and every domain meter has a panel.
   */
  @Test
  void theGrafanaDashboardNamesOnlyMetricsTheServerExports() throws IOException {
    JsonObject dashboard = new JsonObject(Files.readString(DASHBOARD, StandardCharsets.UTF_8));
    List<String> expressions = new ArrayList<>();
    for (Object panel : dashboard.getJsonArray("panels")) {
      JsonArray targets = ((JsonObject) panel).getJsonArray("targets", new JsonArray());
      for (Object target : targets) {
        expressions.add(((JsonObject) target).getString("expr"));
      }
    }
    assertTrue(expressions.size() > 20, "the dashboard's queries: " + expressions.size());
    Set<String> named = new TreeSet<>();
    expressions.forEach(expression -> named.addAll(metricNames(expression)));
    Set<String> missing = new TreeSet<>(named);
    missing.removeAll(scrape.names());
    assertEquals(Set.of(), missing, "named by the dashboard, not in the scrape");
    for (CanvasMeter meter : CanvasMeter.values()) {
      assertTrue(
          named.stream().anyMatch(name -> name.startsWith(meter.prometheusName())),
          meter + " has a panel: " + named);
    }
    assertTrue(
        expressions.stream()
            .anyMatch(e -> e.contains("canvas_agent_run_ttfb_seconds_bucket{le=\"0.2\"}")),
        "an SLO panel counts runs within 200 ms");
    assertTrue(
        expressions.stream()
            .anyMatch(
                e -> e.contains("canvas_agent_screenshot_capture_seconds_bucket{le=\"0.15\"}")),
        "an SLO panel counts screenshots within 150 ms");
  }

  /**
   * The metric names in a PromQL expression: what is left once label matchers, ranges, strings,
   * grouping clauses, numbers, functions and keywords are taken out.
   */
  static Set<String> metricNames(String expression) {
    String bare =
        expression
            .replaceAll("\"[^\"]*\"", " ")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^\\]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
    Set<String> names = new TreeSet<>();
    Matcher identifier = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(bare);
    while (identifier.find()) {
      String word = identifier.group();
      if (!PROMQL_WORDS.contains(word)) {
        names.add(word);
      }
    }
    return names;
  }

  static final Set<String> PROMQL_WORDS =
      Set.of(
          "sum",
          "avg",
          "min",
          "max",
          "count",
          "rate",
          "irate",
          "increase",
          "histogram_quantile",
          "clamp_min",
          "clamp_max",
          "topk",
          "bottomk",
          "and",
          "or",
          "unless",
          "offset",
          "abs",
          "vector",
          "scalar");

  private void assertAtLeast(double least, CanvasMeter meter, Map<String, String> labels) {
    String name =
        meter.kind() == CanvasMeter.Kind.TIMER
            ? meter.prometheusName() + "_count"
            : meter.prometheusName();
    assertAtLeast(least, name, labels);
  }

  private void assertAtLeast(double least, String name, Map<String, String> labels) {
    Optional<Double> value = scrape.value(name, labels);
    assertTrue(
        value.isPresent() && value.get() >= least,
        name + labels + " ≥ " + least + ": " + value + " in " + names("canvas_agent"));
  }

  private List<String> names(String prefix) {
    return scrape.names().stream().filter(name -> name.startsWith(prefix)).toList();
  }
}
