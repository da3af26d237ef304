package dev.canvasagent.bench;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What board size costs (issue 18): on boards of 100 to 50,000 shapes, one room each, on PostgreSQL
 * and on the memory store side by side, the round trip of a one-shape change ({@code POST
 * /api/rooms/{roomId}/changes}) and a {@code debug/fake} run's {@code ttfbMs} (the server's own time
 * from the run's start to its first envelope, from its {@code run.finished} line); then the server's
 * memory with ten 10,000-shape rooms cached, against {@code CANVAS_AGENT_BOARD_CACHE_BYTES}. The
 * server is the fat jar in a process of its own, a fresh one per store and per reading; the boards
 * are filled a batch of records a change. Prints a one-screen table ({@link ScaleReport}) and writes
 * {@code target/bench/scale.json}.
 *
 * <pre>./mvnw -q -B -Pbench -DskipTests verify -Dbench.which=scale</pre>
 */
public final class ScaleBench {
  static final String MODEL = "debug/fake";
  static final String RUN_MESSAGE = "draw a blue rectangle labeled A";
  private static final long START_SECONDS = 60;
  private static final long LOG_SECONDS = 10;
  private static final String WARMUP_ROOM = "scale-warmup";
  private static final int WARMUP_SHAPES = 1_000;
  private static final int WARMUP_CHANGES = 100;
  private static final int WARMUP_RUNS = 5;
  private static final Pattern RUN_FINISHED =
      Pattern.compile("run\\.finished .*runId=(\\S+) .*boardShapes=(\\d+) .*ttfbMs=(\\d+)");

  private ScaleBench() {}

  /** Runs the benchmark (from {@link Bench}), prints and writes its report; 0 when it ran to the end. */
  static int execute() throws Exception {
    ScaleSettings settings = ScaleSettings.fromSystemProperties();
    Path directory = settings.output().toAbsolutePath().getParent();
    String loadBefore = ProcCpu.loadAverage();
    long started = System.nanoTime();
    Vertx vertx = Vertx.vertx();
    int status = 1;
    try {
      JsonObject stores = new JsonObject();
      for (String store : settings.stores()) {
        stores.put(
            store,
            new JsonObject()
                .put("boards", boards(settings, vertx, store, directory))
                .put("cached", cached(settings, vertx, store, directory)));
      }
      JsonObject report =
          BenchMachine.reportStart(
                  "scale",
                  "the server, PostgreSQL and this driver (one server at a time)",
                  loadBefore)
              .put("seconds", Math.round((System.nanoTime() - started) / 1e9))
              .put("settings", settingsJson(settings))
              .put("stores", stores);
      ScaleReport.addRatios(report);
      Files.createDirectories(directory);
      Files.writeString(settings.output(), report.encodePrettily() + "\n");
      System.out.print(ScaleReport.summary(report));
      System.out.println("report: " + settings.output() + " (server logs beside it)");
      status = 0;
    } catch (Exception e) {
      System.err.println("scale bench failed: " + e + " (server logs in " + directory + ")");
      e.printStackTrace();
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    return status;
  }

  /** One server on {@code store}: a warm-up room, then each board size in a room of its own. */
  private static JsonArray boards(ScaleSettings settings, Vertx vertx, String store, Path directory)
      throws Exception {
    Path log = directory.resolve("scale-" + store + "-server.log");
    JsonArray boards = new JsonArray();
    try (DrivenServer driven = DrivenServer.start(settings, vertx, store, log)) {
      BoardWriter writer = driven.writer();
      System.out.printf("%s: warming up (%,d shapes)%n", store, WARMUP_SHAPES);
      writer.fill(WARMUP_ROOM, WARMUP_SHAPES, settings.batch());
      for (int i = 0; i < WARMUP_CHANGES; i++) {
        writer.changeOne(WARMUP_ROOM);
      }
      driven.runs(WARMUP_ROOM, WARMUP_RUNS);
      for (int size : settings.sizes()) {
        boards.add(board(settings, driven, size, store));
      }
      Map<String, long[]> lines = runLines(log, measuredRunIds(boards));
      for (int i = 0; i < boards.size(); i++) {
        addServerFigures(boards.getJsonObject(i), lines);
      }
    }
    return boards;
  }

  /** One board: filled, then its changes and runs, each after its warm-up. */
  private static JsonObject board(
      ScaleSettings settings, DrivenServer driven, int size, String store) throws Exception {
    BoardWriter writer = driven.writer();
    String room = "scale-" + size;
    System.out.printf("%s: %,d shapes: filling", store, size);
    long fillStarted = System.nanoTime();
    writer.fill(room, size, settings.batch());
    double fillSeconds = (System.nanoTime() - fillStarted) / 1e9;
    System.out.printf(
        " (%.1f s), %d changes, %d runs%n", fillSeconds, settings.samples(), settings.runSamples());
    for (int i = 0; i < settings.warmup(); i++) {
      writer.changeOne(room);
    }
    int[] changes = new int[settings.samples()];
    for (int i = 0; i < changes.length; i++) {
      changes[i] = writer.changeOne(room);
    }
    driven.runs(room, settings.runWarmup());
    List<RunProbe.Result> runs = driven.runs(room, settings.runSamples());
    // A run that ended done but published no final envelope has no ttfbMs: it failed here.
    List<RunProbe.Result> ok =
        runs.stream().filter(run -> run.problem() == null && run.firstFinal() != 0).toList();
    JsonArray problems = new JsonArray();
    runs.stream()
        .filter(run -> !ok.contains(run))
        .limit(5)
        .forEach(
            run -> problems.add(run.problem() != null ? run.problem() : "done, no final envelope"));
    return new JsonObject()
        .put("shapes", size)
        .put("room", room)
        .put("fillSeconds", Percentiles.round(fillSeconds))
        .put("changeMs", new Percentiles(changes).toJson())
        .put("runs", runs.size())
        .put("runsFailed", runs.size() - ok.size())
        .put("problems", problems)
        .put("runIds", new JsonArray(ok.stream().map(RunProbe.Result::runId).toList()))
        .put(
            "postToFirstEnvelopeMs",
            new Percentiles(micros(ok.stream().map(run -> run.firstEnvelope() - run.postSent())))
                .toJson())
        .put(
            "postToFirstFinalEnvelopeMs",
            new Percentiles(micros(ok.stream().map(run -> run.firstFinal() - run.postSent())))
                .toJson())
        .put(
            "postToFinalStatusMs",
            new Percentiles(micros(ok.stream().map(run -> run.finished() - run.postSent())))
                .toJson());
  }

  /**
   * The measured runs' {@code ttfbMs} and the board size each started from, from the server's {@code
   * run.finished} lines; the run ids are dropped from the report once used.
   */
  private static void addServerFigures(JsonObject board, Map<String, long[]> lines) {
    List<long[]> found =
        board.getJsonArray("runIds").stream()
            .map(id -> lines.get((String) id))
            .filter(line -> line != null)
            .toList();
    board.remove("runIds");
    board
        .put(
            "ttfbMs",
            new Percentiles(found.stream().mapToInt(line -> (int) line[1] * 1_000).toArray())
                .toJson())
        .put(
            "boardShapesSeenByRuns",
            new JsonObject()
                .put("min", found.stream().mapToLong(line -> line[0]).min().orElse(-1))
                .put("max", found.stream().mapToLong(line -> line[0]).max().orElse(-1)));
  }

  /**
   * A fresh server on {@code store}: {@code cachedRooms} rooms of {@code cachedRoomShapes} shapes,
   * each changed once after filling so its board is the patch engine's latest, then the memory: VmRSS
   * and VmHWM, and the heap in use before and after a full collection, beside the server's reading
   * when it had just started, and the patch engine's {@code /health} (the boards it holds, where it
   * says).
   */
  private static JsonObject cached(
      ScaleSettings settings, Vertx vertx, String store, Path directory) throws Exception {
    JsonObject cached =
        new JsonObject()
            .put("rooms", settings.cachedRooms())
            .put("shapesEach", settings.cachedRoomShapes())
            .put("cacheBytes", settings.cacheBytes());
    if (settings.cachedRooms() == 0) {
      return cached;
    }
    Path log = directory.resolve("scale-" + store + "-cached-server.log");
    try (DrivenServer driven = DrivenServer.start(settings, vertx, store, log)) {
      BenchServer server = driven.server();
      BoardWriter writer = driven.writer();
      settle();
      long[] idle = server.memoryKib();
      long heapIdle = server.heapUsedLastKib();
      System.out.printf(
          "%s: %d rooms of %,d shapes for the memory reading%n",
          store, settings.cachedRooms(), settings.cachedRoomShapes());
      for (int room = 0; room < settings.cachedRooms(); room++) {
        writer.fill("scale-cached-" + room, settings.cachedRoomShapes(), settings.batch());
      }
      for (int room = 0; room < settings.cachedRooms(); room++) {
        writer.changeOne("scale-cached-" + room);
      }
      settle();
      long[] memory = server.memoryKib();
      long heapUsed = server.heapUsedLastKib();
      // What a server left alone gives back: nothing asks for a collection until the server's own
      // periodic one (CANVAS_AGENT_HEAP_RETURN_IDLE_MS, 30 s by default) has shrunk the heap.
      Thread.sleep(IDLE_RETURN_WAIT_MS);
      long rssAfterIdle = server.memoryKib()[0];
      long heapAfterIdle = server.heapUsedLastKib();
      server.collectGarbage();
      settle();
      long heapLive = server.heapUsedLastKib();
      long rssAfterGc = server.memoryKib()[0];
      JsonObject patchEngine = driven.patchEngineHealth();
      return cached
          .put("rssIdleKib", idle[0])
          .put("heapUsedIdleKib", heapIdle)
          .put("rssKib", memory[0])
          .put("vmHwmKib", memory[1])
          .put("rssGrowthKib", memory[0] - idle[0])
          .put("heapUsedKib", heapUsed)
          .put("rssAfterIdleReturnKib", rssAfterIdle)
          .put("heapUsedAfterIdleReturnKib", heapAfterIdle)
          .put("heapLiveAfterFullGcKib", heapLive)
          .put("rssAfterFullGcKib", rssAfterGc)
          .put("heapUsedMaxKib", server.heapUsedMaxKib())
          .put("patchEngine", patchEngine);
    }
  }

  /**
   * Two of the server's default idle-return intervals (30 s) and the concurrent cycle it starts: G1
   * looks once an interval, so a collection comes within two of them after the last one.
   */
  private static final long IDLE_RETURN_WAIT_MS = 75_000;

  /** Two jstat readings (one a second), so the figures after a step are the step's. */
  private static void settle() throws InterruptedException {
    Thread.sleep(2_500);
  }

  /**
   * A fresh server on one store, started and sampled, with the HTTP clients that drive it: a few
   * connections for runs' streams, a few for POSTs. Closing it stops the server.
   */
  private static final class DrivenServer implements AutoCloseable {
    private final Vertx vertx;
    private final StoreServer running;
    private final int port;
    private final int runTimeoutMs;
    private final JsonObject runBody;
    private final HttpClient streams;
    private final HttpClient posts;
    private final BoardWriter writer;
    private long runNumbers;

    private DrivenServer(Vertx vertx, StoreServer running, int port, ScaleSettings settings) {
      PoolOptions pool = new PoolOptions().setHttp1MaxSize(4).setMaxWaitQueueSize(-1);
      HttpClientOptions options = new HttpClientOptions().setKeepAlive(true);
      this.vertx = vertx;
      this.running = running;
      this.port = port;
      this.runTimeoutMs = settings.runTimeoutMs();
      this.runBody = new JsonObject().put("model", MODEL).put("message", RUN_MESSAGE);
      if (settings.viewport() != null) {
        runBody.put("viewport", settings.viewport());
      }
      this.streams = vertx.createHttpClient(options, pool);
      this.posts = vertx.createHttpClient(options, pool);
      this.writer = new BoardWriter(posts, port);
    }

    static DrivenServer start(ScaleSettings settings, Vertx vertx, String store, Path log)
        throws Exception {
      StoreServer running =
          StoreServer.start(
              store,
              settings.jar(),
              settings.serverHeap(),
              settings.serverJvmOptions(),
              Map.of(
                  "CANVAS_AGENT_BOARD_CACHE_BYTES",
                  Long.toString(settings.cacheBytes()),
                  // One action a run; the low-action rule would queue follow-ups ending
                  // "scheduled".
                  "CANVAS_AGENT_LOW_ACTION_THRESHOLD",
                  "0"),
              log);
      try {
        int port = running.server().awaitPort(START_SECONDS);
        running.server().startSampling();
        return new DrivenServer(vertx, running, port, settings);
      } catch (Exception e) {
        running.close();
        throw e;
      }
    }

    BenchServer server() {
      return running.server();
    }

    BoardWriter writer() {
      return writer;
    }

    /** What {@code /health} says of the patch engine (its counters, and the boards it holds if any). */
    JsonObject patchEngineHealth() throws Exception {
      JsonObject health =
          streams
              .request(HttpMethod.GET, port, "127.0.0.1", "/health")
              .compose(request -> request.send().compose(response -> response.body()))
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS)
              .toJsonObject();
      return health
          .getJsonObject("verticles", new JsonObject())
          .getJsonObject("patch-engine", new JsonObject());
    }

    /**
     * {@code count} {@code debug/fake} runs in {@code room}, one after another, each one's rectangle
     * removed once it is final: the board keeps its size, and the next run's rectangle is not refused
     * as a duplicate of it (which would publish no envelope).
     */
    List<RunProbe.Result> runs(String room, int count) throws Exception {
      List<RunProbe.Result> results = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        RunProbe.Result run =
            RunProbe.start(vertx, streams, posts, port, ++runNumbers, room, runBody, runTimeoutMs)
                .toCompletionStage()
                .toCompletableFuture()
                .get(runTimeoutMs + 30_000L, TimeUnit.MILLISECONDS);
        if (!run.shapesPut().isEmpty()) {
          writer.remove(room, run.shapesPut());
        }
        results.add(run);
      }
      return results;
    }

    @Override
    public void close() throws Exception {
      try {
        streams.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        posts.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } finally {
        running.close();
      }
    }
  }

  private static List<String> measuredRunIds(JsonArray boards) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < boards.size(); i++) {
      boards.getJsonObject(i).getJsonArray("runIds").forEach(id -> ids.add((String) id));
    }
    return ids;
  }

  /**
   * Per run id, {boardShapes, ttfbMs} from the server's {@code run.finished} lines, waiting a little
   * for the lines of {@code expected} runs the log copier has not written yet.
   */
  private static Map<String, long[]> runLines(Path log, List<String> expected)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LOG_SECONDS);
    while (true) {
      Map<String, long[]> lines = RunFinishedLines.byRunId(log, RUN_FINISHED);
      if (lines.keySet().containsAll(expected) || System.nanoTime() > deadline) {
        return lines;
      }
      Thread.sleep(200);
    }
  }

  private static int[] micros(Stream<Long> nanos) {
    return nanos
        .mapToInt(value -> (int) Math.max(0, Math.min(Integer.MAX_VALUE, value / 1_000)))
        .toArray();
  }

  private static JsonObject settingsJson(ScaleSettings settings) {
    return new JsonObject()
        .put("sizes", new JsonArray(settings.sizes()))
        .put("stores", new JsonArray(settings.stores()))
        .put("changeSamples", settings.samples())
        .put("changeWarmup", settings.warmup())
        .put("runSamples", settings.runSamples())
        .put("runWarmup", settings.runWarmup())
        .put(
            "serverWarmup",
            WARMUP_SHAPES
                + " shapes, "
                + WARMUP_CHANGES
                + " changes, "
                + WARMUP_RUNS
                + " runs in a room of its own")
        .put("fillBatch", settings.batch())
        .put("model", MODEL)
        .put("message", RUN_MESSAGE)
        .put("viewport", settings.viewport())
        .put("layout", "a square grid of 120 x 80 rectangles, 160 x 120 apart, from the origin")
        .put("cacheBytes", settings.cacheBytes())
        .put("serverHeap", "-Xmx" + settings.serverHeap())
        .put("serverJvmOptions", String.join(" ", settings.serverJvmOptions()));
  }
}
