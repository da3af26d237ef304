package dev.canvasagent.bench;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.PersonWriters;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * An agent on a board people are editing (issue 16): {@code writers} people move shapes of their own
 * in one room at {@code rate} changes a second between them ({@code POST /api/rooms/{roomId}/changes},
 * one at a time each; a change refused as stale goes with the person's next one, on the revision its
 * 409 names, as a page does: {@link PersonWriters}), while agent runs of seven actions
 * each ({@link BenchActions#busy}: two creates, a restyle, a move, a relabel, an align, a think) run
 * {@code concurrency} at a time in the same room. The server is the fat jar in a process of its own,
 * on PostgreSQL (a schema of its own on the tests' database) or the memory store, with
 * {@code anthropic:bench} pointed at {@link StubModel}. It reports the fraction of runs that end
 * {@code done} with every action applied (the goal: at least 99%), how the others ended, the people's
 * achieved rate, and the conflicts the patch engine refused.
 *
 * <pre>./mvnw -q -B -Pbench -DskipTests verify -Dbench.which=busy</pre>
 */
public final class BusyBoardBench {
  static final String ROOM = "bench-busy";
  private static final long START_SECONDS = 60;

  private BusyBoardBench() {}

  public static void main(String[] args) throws Exception {
    ParentWatch.start();
    System.exit(execute());
  }

  /** One run as the room's stream told it: how it ended, and how long from its POST. */
  record Outcome(long run, String state, JsonObject detail, long elapsedMs, String problem) {
    boolean complete() {
      return "done".equals(state)
          && detail.getInteger("applied", -1) == BenchActions.busy(run).size()
          && detail.getInteger("dropped", -1) == 0;
    }

    String kind() {
      if (complete()) {
        return "done, all applied";
      }
      if (state == null) {
        return "no final status: " + problem;
      }
      return state
          + (detail.containsKey("code") ? " " + detail.getString("code") : "")
          + ("done".equals(state) ? " (applied " + detail.getInteger("applied") + ")" : "");
    }
  }

  static int execute() throws Exception {
    BusyBoardSettings settings = BusyBoardSettings.fromSystemProperties();
    Path log = settings.output().toAbsolutePath().getParent().resolve("busy-server.log");
    String loadBefore = ProcCpu.loadAverage();
    Vertx vertx = Vertx.vertx();
    DatabaseConfig database = null;
    BenchServer server = null;
    StubModel stub = null;
    int status = 1;
    try {
      Map<String, String> environment = new HashMap<>();
      if (settings.store().equals("pg")) {
        database = TestDatabase.freshSchema();
        environment.putAll(StoreServer.environment(database));
      }
      stub =
          new StubModel(vertx, run -> AnthropicWire.of(BenchActions.busy(run), 16, 48, run), 50, 0);
      stub.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      environment.putAll(
          Map.of(
              "ANTHROPIC_BASE_URL", stub.baseUrl(),
              "ANTHROPIC_API_KEY", "bench-stub-accepts-any-key",
              "CANVAS_AGENT_PARTIAL_INTERVAL_MS", "0",
              // Seven actions a run; the low-action rule would add follow-ups that end "scheduled".
              "CANVAS_AGENT_LOW_ACTION_THRESHOLD", "0"));
      server =
          BenchServer.start(
              settings.jar(), settings.serverHeap(), settings.serverJvmOptions(), environment, log);
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "bench-stop-server"));
      int port = server.awaitPort(START_SECONDS);
      JsonObject report = run(settings, vertx, port, loadBefore, log);
      Files.createDirectories(settings.output().toAbsolutePath().getParent());
      Files.writeString(settings.output(), report.encodePrettily() + "\n");
      System.out.println(summary(report));
      status = 0;
    } catch (Exception e) {
      System.err.println("busy-board bench failed: " + e + " (server log: " + log + ")");
      e.printStackTrace();
    } finally {
      try {
        if (stub != null) {
          stub.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } finally {
        if (server != null) {
          server.close();
        }
        if (database != null) {
          TestDatabase.drop(database);
        }
      }
    }
    return status;
  }

  private static JsonObject run(
      BusyBoardSettings settings, Vertx vertx, int port, String loadBefore, Path log)
      throws Exception {
    WebClient http =
        WebClient.create(
            vertx,
            new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port),
            new PoolOptions().setHttp1MaxSize(settings.writers() + settings.concurrency() + 4));
    SseClient sse = await(SseClient.connect(vertx, port, "/api/rooms/" + ROOM + "/events"), 30);
    AtomicLong numbers = new AtomicLong();
    PersonWriters people =
        await(
            PersonWriters.start(vertx, port, ROOM, settings.writers(), settings.changesPerSecond()),
            60);
    long warmupTimeout = (long) settings.runTimeoutMs() * (settings.warmupRuns() + 1) / 1000 + 60;
    await(loop(vertx, http, sse, settings, numbers, settings.warmupRuns()), warmupTimeout);

    long sentBefore = people.sent();
    long committedBefore = people.committed();
    long conflictsBefore = people.conflicts();
    long skippedBefore = people.skipped();
    JsonObject engineBefore = patchEngine(http);
    long started = System.nanoTime();
    List<Outcome> outcomes =
        await(
            loop(vertx, http, sse, settings, numbers, settings.runs()),
            (long) settings.runTimeoutMs() * (settings.runs() + 1) / 1000 + 60);
    double seconds = (System.nanoTime() - started) / 1e9;
    long sent = people.sent() - sentBefore;
    long committed = people.committed() - committedBefore;
    long peopleConflicts = people.conflicts() - conflictsBefore;
    long skipped = people.skipped() - skippedBefore;
    JsonObject engineAfter = patchEngine(http);
    await(people.stop(), 30);
    await(sse.close(), 10);

    long complete = outcomes.stream().filter(Outcome::complete).count();
    Map<String, Integer> byKind = new TreeMap<>();
    outcomes.forEach(outcome -> byKind.merge(outcome.kind(), 1, Integer::sum));
    long engineConflicts =
        engineAfter.getLong("conflicts", 0L) - engineBefore.getLong("conflicts", 0L);
    long unchanged =
        outcomes.stream().mapToLong(outcome -> outcome.detail().getInteger("unchanged", 0)).sum();
    List<Long> elapsed = outcomes.stream().map(Outcome::elapsedMs).sorted().toList();
    // The server's own word on each measured run: its commits refused as stale, and the longest one
    // action went refused (to compare with the run's conflict patience, 10 s by default).
    Map<String, long[]> lines = conflictLines(log);
    List<long[]> measured =
        outcomes.stream()
            .map(outcome -> lines.get(outcome.detail().getString("runId", "")))
            .filter(line -> line != null)
            .toList();
    List<Long> longest = measured.stream().map(line -> line[1]).sorted().toList();
    JsonArray notComplete = new JsonArray();
    outcomes.stream()
        .filter(outcome -> !outcome.complete())
        .limit(20)
        .forEach(
            outcome ->
                notComplete.add(
                    new JsonObject()
                        .put("run", outcome.run())
                        .put("state", outcome.state())
                        .put("detail", outcome.detail())
                        .put("problem", outcome.problem())));
    return new JsonObject()
        .put("benchmark", "busy-board")
        .put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString())
        .put(
            "machine",
            new JsonObject()
                .put("cores", Runtime.getRuntime().availableProcessors())
                .put("cpu", BenchMachine.cpuModel())
                .put(
                    "sharedBy",
                    "the server, PostgreSQL, this driver and its stub model (and whatever else runs"
                        + " on the machine)")
                .put(
                    "java",
                    System.getProperty("java.vm.name")
                        + " "
                        + System.getProperty("java.runtime.version"))
                .put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"))
                .put("loadAverageBefore", loadBefore)
                .put("loadAverageAfter", ProcCpu.loadAverage()))
        .put(
            "settings",
            new JsonObject()
                .put("store", settings.store())
                .put("writers", settings.writers())
                .put("changesPerSecond", settings.changesPerSecond())
                .put("concurrency", settings.concurrency())
                .put("runs", settings.runs())
                .put("warmupRuns", settings.warmupRuns())
                .put("actionsPerRun", BenchActions.busy(0).size())
                .put("runTimeoutMs", settings.runTimeoutMs()))
        .put(
            "runs",
            new JsonObject()
                .put("measured", outcomes.size())
                .put("completeAllApplied", complete)
                .put(
                    "fractionComplete",
                    outcomes.isEmpty() ? 0 : (double) complete / outcomes.size())
                .put("goalMet", outcomes.size() > 0 && complete * 100 >= 99L * outcomes.size())
                .put("byOutcome", new JsonObject(new HashMap<>(byKind)))
                .put("unchangedActions", unchanged)
                .put(
                    "server",
                    new JsonObject()
                        .put("runLines", measured.size())
                        .put("commitConflicts", measured.stream().mapToLong(line -> line[0]).sum())
                        .put(
                            "longestConflictMs",
                            new JsonObject()
                                .put("p50", percentile(longest, 50))
                                .put("p99", percentile(longest, 99))
                                .put(
                                    "max",
                                    longest.isEmpty() ? 0 : longest.get(longest.size() - 1))))
                .put(
                    "elapsedMs",
                    new JsonObject()
                        .put("p50", percentile(elapsed, 50))
                        .put("p90", percentile(elapsed, 90))
                        .put("max", elapsed.isEmpty() ? 0 : elapsed.get(elapsed.size() - 1)))
                .put("notComplete", notComplete))
        .put(
            "people",
            new JsonObject()
                .put("seconds", Math.round(seconds * 10) / 10.0)
                .put("sent", sent)
                .put("sentPerSecond", Math.round(sent / seconds * 10) / 10.0)
                .put("committed", committed)
                .put("committedPerSecond", Math.round(committed / seconds * 10) / 10.0)
                .put("refusedAsStale", peopleConflicts)
                .put("ticksSkipped", skipped)
                .put("failed", people.failed()))
        .put(
            "patchEngine",
            new JsonObject()
                .put("conflicts", engineConflicts)
                .put("agentCommitConflicts", engineConflicts - peopleConflicts));
  }

  /**
   * {@code count} runs with {@code concurrency} in flight, each in a session of its own, numbered from
   * {@code numbers}: as one ends (or times out) the next starts.
   */
  private static Future<List<Outcome>> loop(
      Vertx vertx,
      WebClient http,
      SseClient sse,
      BusyBoardSettings settings,
      AtomicLong numbers,
      int count) {
    List<Outcome> outcomes = new ArrayList<>();
    AtomicLong remaining = new AtomicLong(count);
    List<Future<Void>> chains = new ArrayList<>();
    for (int c = 0; c < settings.concurrency(); c++) {
      chains.add(chain(vertx, http, sse, settings, numbers, remaining, outcomes));
    }
    return Future.all(chains)
        .map(
            done -> {
              synchronized (outcomes) {
                return List.copyOf(outcomes);
              }
            });
  }

  private static Future<Void> chain(
      Vertx vertx,
      WebClient http,
      SseClient sse,
      BusyBoardSettings settings,
      AtomicLong numbers,
      AtomicLong remaining,
      List<Outcome> outcomes) {
    if (remaining.getAndDecrement() <= 0) {
      return Future.succeededFuture();
    }
    long run = numbers.incrementAndGet();
    return one(vertx, http, sse, settings, run)
        .compose(
            outcome -> {
              synchronized (outcomes) {
                outcomes.add(outcome);
              }
              return chain(vertx, http, sse, settings, numbers, remaining, outcomes);
            });
  }

  /** One run: its POST, then its final status on the room's stream (or the timeout). */
  private static Future<Outcome> one(
      Vertx vertx, WebClient http, SseClient sse, BusyBoardSettings settings, long run) {
    long posted = System.nanoTime();
    Promise<Outcome> outcome = Promise.promise();
    long timer =
        vertx.setTimer(
            settings.runTimeoutMs(),
            id ->
                outcome.tryComplete(
                    new Outcome(
                        run,
                        null,
                        new JsonObject(),
                        settings.runTimeoutMs(),
                        "not final within " + settings.runTimeoutMs() + " ms")));
    http.post("/api/canvas-agent/run")
        .sendJsonObject(
            new JsonObject()
                .put("roomId", ROOM)
                .put("model", RunLatencySettings.MODEL)
                .put("message", "bench-run-" + run + " two boxes, then tidy them"))
        .onFailure(
            error ->
                outcome.tryComplete(
                    new Outcome(run, null, new JsonObject(), 0, "POST failed: " + error)))
        .onSuccess(
            accepted -> {
              if (accepted.statusCode() != 202) {
                outcome.tryComplete(
                    new Outcome(
                        run,
                        null,
                        new JsonObject(),
                        0,
                        "POST answered " + accepted.statusCode() + ": " + accepted.bodyAsString()));
                return;
              }
              String runId = accepted.bodyAsJsonObject().getString("runId");
              sse.awaitEvent(endOf(runId))
                  .onSuccess(
                      events -> {
                        JsonObject end =
                            events.stream()
                                .filter(endOf(runId))
                                .map(SseEvent::data)
                                .reduce((first, second) -> second)
                                .orElseThrow();
                        outcome.tryComplete(
                            new Outcome(
                                run,
                                end.getString("state"),
                                end.getJsonObject("detail", new JsonObject()),
                                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - posted),
                                null));
                      });
            });
    return outcome.future().onComplete(done -> vertx.cancelTimer(timer));
  }

  /** The status that ends the run: {@code scheduled}, or a final one. */
  static Predicate<SseEvent> endOf(String runId) {
    return event ->
        event.event().equals("agent:status")
            && runId.equals(
                event.data().getJsonObject("detail", new JsonObject()).getString("runId"))
            && List.of("scheduled", "done", "error", "canceled")
                .contains(event.data().getString("state"))
            && !event.data().getJsonObject("detail").containsKey("position");
  }

  private static final Pattern RUN_CONFLICTS =
      Pattern.compile(
          "run\\.finished .*runId=(\\S+) .*commitConflicts=(\\d+) longestConflictMs=(\\d+)");

  /** Per run id, from the server's {@code run.finished} lines: {commitConflicts, longestConflictMs}. */
  private static Map<String, long[]> conflictLines(Path log) throws IOException {
    return RunFinishedLines.byRunId(log, RUN_CONFLICTS);
  }

  private static JsonObject patchEngine(WebClient http) throws Exception {
    JsonObject health = await(http.get("/health").send(), 30).bodyAsJsonObject();
    return health
        .getJsonObject("verticles", new JsonObject())
        .getJsonObject("patch-engine", new JsonObject());
  }

  private static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
  }

  private static <T> T await(Future<T> future, long seconds) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }

  static String summary(JsonObject report) {
    JsonObject runs = report.getJsonObject("runs");
    JsonObject people = report.getJsonObject("people");
    JsonObject machine = report.getJsonObject("machine");
    JsonObject settings = report.getJsonObject("settings");
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "busy board: %d people at %d changes/s (sent %.1f/s, committed %.1f/s, %d refused as"
                + " stale), %d agent runs of %d actions, %d at a time, store %s%n",
            settings.getInteger("writers"),
            settings.getInteger("changesPerSecond"),
            people.getDouble("sentPerSecond"),
            people.getDouble("committedPerSecond"),
            people.getLong("refusedAsStale"),
            runs.getInteger("measured"),
            settings.getInteger("actionsPerRun"),
            settings.getInteger("concurrency"),
            settings.getString("store")));
    out.append(
        String.format(
            Locale.ROOT,
            "  done with every action applied: %d of %d = %.1f%% (goal >= 99%%: %s)%n",
            runs.getLong("completeAllApplied"),
            runs.getInteger("measured"),
            runs.getDouble("fractionComplete") * 100,
            runs.getBoolean("goalMet") ? "met" : "NOT met"));
    runs.getJsonObject("byOutcome")
        .forEach(
            entry ->
                out.append("    ")
                    .append(entry.getKey())
                    .append(": ")
                    .append(entry.getValue())
                    .append('\n'));
    out.append(
        String.format(
            Locale.ROOT,
            "  agent commits refused as stale and retried: %d (longest an action went refused: p50 %d"
                + " ms, p99 %d ms, max %d ms); run time p50 %d ms, p90 %d ms, max %d ms%n",
            report.getJsonObject("patchEngine").getLong("agentCommitConflicts"),
            runs.getJsonObject("server").getJsonObject("longestConflictMs").getLong("p50"),
            runs.getJsonObject("server").getJsonObject("longestConflictMs").getLong("p99"),
            runs.getJsonObject("server").getJsonObject("longestConflictMs").getLong("max"),
            runs.getJsonObject("elapsedMs").getLong("p50"),
            runs.getJsonObject("elapsedMs").getLong("p90"),
            runs.getJsonObject("elapsedMs").getLong("max")));
    out.append(
        String.format(
            Locale.ROOT,
            "  machine: %d cores (%s), load average %s before, %s after%n",
            machine.getInteger("cores"),
            machine.getString("cpu"),
            machine.getString("loadAverageBefore"),
            machine.getString("loadAverageAfter")));
    return out.toString();
  }
}
