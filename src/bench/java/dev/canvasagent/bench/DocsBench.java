package dev.canvasagent.bench;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.document.DocumentDiffs;
import dev.canvasagent.document.DocumentTools;
import dev.canvasagent.document.patch.ApplyResult;
import dev.canvasagent.document.patch.HunkPlacement;
import dev.canvasagent.document.patch.MissingFinalNewline;
import dev.canvasagent.document.patch.StrictPatch;
import dev.canvasagent.store.DocumentStore.NewDocument;
import dev.canvasagent.store.memory.MemoryStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * The document tools' two heavy reads and writes, per call, in this JVM, without a server:
 *
 * <ul>
 *   <li>{@code patch}: {@link StrictPatch#apply} of a 20-hunk unified diff (made by the project's
 *       Myers diff, {@link DocumentDiffs#unified}, 3 context lines) to a 10,000-line Markdown document;
 *   <li>{@code patch-offset}: the same patch to the same document with 25 lines of front matter put
 *       before it, so that no hunk is where its header says and every one is found by searching;
 *   <li>{@code grep-literal} and {@code grep-regex}: {@code canvas_grep} through
 *       {@link DocumentTools#call} (schema check, in-memory store, the line split and the bounded
 *       regex, as the event bus runs it) over a 1 MB Markdown document;
 *   <li>{@code http-grep-literal} and {@code http-grep-regex}: the same two calls end to end, {@code POST
 *       /api/docs/{id}/tools/canvas_grep} to the fat jar running as a server of its own ({@link
 *       DocsOverHttp}); {@code -Dbench.docs.skipHttp=true} leaves them out.
 * </ul>
 *
 * Every case is checked before it is timed (the patch's result against the diff's input; the grep's
 * matches against a plain count). Each is run for a warm-up, then timed call by call.
 *
 * <pre>./mvnw -q -B -Pbench -DskipTests verify -Dbench.which=docs</pre>
 */
public final class DocsBench {
  /** Who the in-process document writes and reads are made for, as a token's subject would be. */
  private static final Actor BENCH_ACTOR = Actor.person("bench");

  static final int DOCUMENT_LINES = 10_000;
  static final int HUNKS = 20;
  static final int SHIFT = 25;
  static final int GREP_MIN_BYTES = 999_000;
  static final int GREP_MAX_BYTES = 1_000_000;
  static final String LITERAL = "lease manager";
  static final String REGEX = "\\b[A-Z][a-z]+ing\\b";

  private DocsBench() {}

  public static void main(String[] args) throws Exception {
    ParentWatch.start();
    System.exit(execute());
  }

  static int execute() throws Exception {
    int warmupMillis = BenchProperties.number("bench.docs.warmupMillis", 3_000);
    int samples = BenchProperties.number("bench.docs.samples", 2_000);
    Path output = Path.of(System.getProperty("bench.docs.out", "target/bench/docs.json"));
    if (warmupMillis < 0 || samples < 100) {
      throw new IllegalArgumentException("bench.docs settings out of range (samples at least 100)");
    }
    String loadBefore = ProcCpu.loadAverage();

    MarkdownCorpus corpus = new MarkdownCorpus(80);
    List<String> beforeLines = corpus.lines(DOCUMENT_LINES);
    List<String> afterLines = edited(beforeLines, corpus);
    String before = String.join("\n", beforeLines) + "\n";
    String after = String.join("\n", afterLines) + "\n";
    String patch = DocumentDiffs.unified(before, after, 3);
    long hunks = patch.lines().filter(line -> line.startsWith("@@ ")).count();
    if (hunks != HUNKS) {
      throw new IllegalStateException("the diff has " + hunks + " hunks, not " + HUNKS);
    }
    List<String> front = frontMatter(corpus);
    String shifted = String.join("\n", front) + "\n" + before;
    String shiftedAfter = String.join("\n", front) + "\n" + after;
    StrictPatch strict = new StrictPatch(MissingFinalNewline.TOLERATED);
    List<HunkPlacement> direct = checkedApply(strict, before, patch, after, 0);
    List<HunkPlacement> offset = checkedApply(strict, shifted, patch, shiftedAfter, SHIFT);

    String big = new MarkdownCorpus(81).text(GREP_MIN_BYTES, GREP_MAX_BYTES);
    MemoryStore store = new MemoryStore();
    String docId = "bench-doc";
    store.documents().create(new NewDocument(docId, "bench-room", "Benchmark", big, BENCH_ACTOR));
    DocumentTools tools =
        new DocumentTools(
            store.documents(),
            new DocumentToolCatalog(),
            60_000,
            1_048_576,
            event -> {},
            event -> {});
    JsonObject literalArgs = new JsonObject().put("query", LITERAL).put("max_results", 1000);
    JsonObject regexArgs =
        new JsonObject().put("query", REGEX).put("regex", true).put("max_results", 1000);
    int literalMatches =
        checkedGrep(tools, docId, literalArgs, big, Pattern.compile(Pattern.quote(LITERAL)));
    int regexMatches = checkedGrep(tools, docId, regexArgs, big, Pattern.compile(REGEX));

    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put(
        "patch",
        new Case(
            new JsonObject()
                .put("lines", DOCUMENT_LINES)
                .put("bytes", bytes(before))
                .put("hunks", HUNKS)
                .put("patchBytes", bytes(patch))
                .put("offsets", offsets(direct)),
            () -> applied(strict.apply(before, patch))));
    cases.put(
        "patch-offset",
        new Case(
            new JsonObject()
                .put("lines", DOCUMENT_LINES + SHIFT)
                .put("bytes", bytes(shifted))
                .put("hunks", HUNKS)
                .put("patchBytes", bytes(patch))
                .put("offsets", offsets(offset)),
            () -> applied(strict.apply(shifted, patch))));
    cases.put(
        "grep-literal",
        new Case(
            new JsonObject()
                .put("lines", big.lines().count())
                .put("bytes", bytes(big))
                .put("query", LITERAL)
                .put("matches", literalMatches),
            () -> grep(tools, docId, literalArgs)));
    cases.put(
        "grep-regex",
        new Case(
            new JsonObject()
                .put("lines", big.lines().count())
                .put("bytes", bytes(big))
                .put("query", REGEX)
                .put("matches", regexMatches),
            () -> grep(tools, docId, regexArgs)));
    DocsOverHttp http = null;
    if (!Boolean.getBoolean("bench.docs.skipHttp")) {
      http =
          DocsOverHttp.start(
              Path.of(System.getProperty("bench.jar", "target/canvas-agent.jar")),
              System.getProperty("bench.serverHeap", "512m"),
              output.toAbsolutePath().getParent().resolve("docs-server.log"),
              big);
      DocsOverHttp server = http;
      checkedHttpGrep(server, literalArgs, literalMatches);
      checkedHttpGrep(server, regexArgs, regexMatches);
      cases.put(
          "http-grep-literal",
          new Case(
              cases.get("grep-literal").input(),
              () -> server.tool("canvas_grep", literalArgs).getJsonArray("matches").size()));
      cases.put(
          "http-grep-regex",
          new Case(
              cases.get("grep-regex").input(),
              () -> server.tool("canvas_grep", regexArgs).getJsonArray("matches").size()));
    }

    long sink = 0;
    JsonObject results = new JsonObject();
    long[] machineBefore = ProcCpu.machineTicks();
    long ownBefore = ProcCpu.processTicks(ProcessHandle.current().pid());
    try {
      for (Map.Entry<String, Case> entry : cases.entrySet()) {
        LongSupplier operation = entry.getValue().operation();
        long warmupEnd = System.nanoTime() + warmupMillis * 1_000_000L;
        while (System.nanoTime() < warmupEnd) {
          sink += operation.getAsLong();
        }
        long[] nanos = new long[samples];
        List<Long> ours =
            http == null
                ? List.of(ProcessHandle.current().pid())
                : List.of(ProcessHandle.current().pid(), http.serverPid());
        long[] caseMachineBefore = ProcCpu.machineTicks();
        long caseOursBefore = ticks(ours);
        for (int i = 0; i < samples; i++) {
          long start = System.nanoTime();
          sink += operation.getAsLong();
          nanos[i] = System.nanoTime() - start;
        }
        results.put(
            entry.getKey(),
            entry
                .getValue()
                .input()
                .copy()
                .put("micros", new NanoLatencies(nanos).toJson())
                .put(
                    "otherProcessesCpuPercent",
                    otherPercent(caseMachineBefore, ticks(ours) - caseOursBefore)));
      }
    } finally {
      if (http != null) {
        http.close();
      }
    }
    long[] machineAfter = ProcCpu.machineTicks();
    long own = ProcCpu.processTicks(ProcessHandle.current().pid()) - ownBefore;
    double coreTicks =
        (machineAfter[1] - machineBefore[1]) / (double) Runtime.getRuntime().availableProcessors();
    double machineBusy = 100.0 * (machineAfter[0] - machineBefore[0]) / coreTicks;
    double ownPercent = 100.0 * own / coreTicks;
    JsonObject report =
        new JsonObject()
            .put("benchmark", "docs")
            .put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString())
            .put(
                "machine",
                new JsonObject()
                    .put("cores", Runtime.getRuntime().availableProcessors())
                    .put("cpu", cpuModel())
                    .put(
                        "java",
                        System.getProperty("java.vm.name")
                            + " "
                            + System.getProperty("java.runtime.version"))
                    .put("loadAverageBefore", loadBefore)
                    .put("loadAverageAfter", ProcCpu.loadAverage())
                    .put("benchCpuPercent", Percentiles.round(ownPercent))
                    .put(
                        "otherProcessesCpuPercent",
                        Percentiles.round(Math.max(0, machineBusy - ownPercent))))
            .put(
                "settings",
                new JsonObject().put("warmupMillis", warmupMillis).put("samples", samples))
            .put("cases", results)
            .put("sink", sink);
    Files.createDirectories(output.toAbsolutePath().getParent());
    Files.writeString(output, report.encodePrettily() + "\n");
    System.out.println(summary(report, output));
    return 0;
  }

  /** What a case works on (for the report) and one call of it. */
  private record Case(JsonObject input, LongSupplier operation) {}

  /**
   * Twenty edits 500 lines apart, so that Myers makes twenty separate hunks: a line reworded, two
   * lines inserted, a line deleted, three lines made two, in turn.
   */
  static List<String> edited(List<String> lines, MarkdownCorpus corpus) {
    List<String> after = new ArrayList<>(lines);
    int spacing = lines.size() / HUNKS;
    for (int hunk = HUNKS - 1; hunk >= 0; hunk--) {
      int at = hunk * spacing + spacing / 2;
      switch (hunk % 4) {
        case 0 -> after.set(at, corpus.prose());
        case 1 -> after.addAll(at, List.of(corpus.prose(), corpus.prose()));
        case 2 -> after.remove(at);
        default -> {
          after.subList(at, at + 3).clear();
          after.addAll(at, List.of(corpus.prose(), corpus.prose()));
        }
      }
    }
    return after;
  }

  private static List<String> frontMatter(MarkdownCorpus corpus) {
    List<String> front =
        new ArrayList<>(
            List.of(
                "---", "title: Design notes", "status: draft", "---", "", "# Design notes", ""));
    while (front.size() < SHIFT - 1) {
      front.add(corpus.prose());
    }
    front.add("");
    return front;
  }

  private static List<HunkPlacement> checkedApply(
      StrictPatch strict, String document, String patch, String expected, int expectedOffset) {
    ApplyResult result = strict.apply(document, patch);
    if (!(result instanceof ApplyResult.Applied applied)) {
      throw new IllegalStateException("the patch did not apply: " + result);
    }
    if (!applied.text().equals(expected)) {
      throw new IllegalStateException("the patch applied to something else than the diff's result");
    }
    for (HunkPlacement placement : applied.placements()) {
      if (placement.offset() != expectedOffset) {
        throw new IllegalStateException(
            "hunk "
                + placement.hunk()
                + " applied at offset "
                + placement.offset()
                + ", not "
                + expectedOffset);
      }
    }
    return applied.placements();
  }

  private static int checkedGrep(
      DocumentTools tools, String docId, JsonObject args, String text, Pattern pattern) {
    JsonObject answer = answer(tools.call(docId, "canvas_grep", args, BENCH_ACTOR));
    long expected = text.lines().filter(line -> pattern.matcher(line).find()).count();
    int matches = answer.getJsonArray("matches").size();
    if (answer.getBoolean("truncated") || matches != expected || matches == 0) {
      throw new IllegalStateException(
          "canvas_grep "
              + args.getString("query")
              + ": "
              + matches
              + " matches (truncated "
              + answer.getBoolean("truncated")
              + "), a plain count finds "
              + expected);
    }
    return matches;
  }

  private static void checkedHttpGrep(DocsOverHttp http, JsonObject args, int expected) {
    JsonObject answer = http.tool("canvas_grep", args);
    if (answer.getJsonArray("matches").size() != expected || answer.getBoolean("truncated")) {
      throw new IllegalStateException(
          "POST canvas_grep "
              + args.getString("query")
              + ": "
              + answer.getJsonArray("matches").size()
              + " matches over HTTP, "
              + expected
              + " in process");
    }
  }

  private static long applied(ApplyResult result) {
    return ((ApplyResult.Applied) result).text().length();
  }

  private static long grep(DocumentTools tools, String docId, JsonObject args) {
    return answer(tools.call(docId, "canvas_grep", args, BENCH_ACTOR))
        .getJsonArray("matches")
        .size();
  }

  /** The in-memory store answers with completed futures, so the tool's answer is there at once. */
  private static JsonObject answer(Future<JsonObject> future) {
    if (!future.isComplete()) {
      throw new IllegalStateException("canvas_grep did not complete synchronously");
    }
    if (future.failed()) {
      throw new IllegalStateException("canvas_grep failed", future.cause());
    }
    return future.result();
  }

  private static JsonArray offsets(List<HunkPlacement> placements) {
    return new JsonArray(placements.stream().map(HunkPlacement::offset).distinct().toList());
  }

  private static long ticks(List<Long> pids) {
    return pids.stream().mapToLong(ProcCpu::processTicks).sum();
  }

  /**
   * The CPU the rest of the machine (not this JVM, not the bench's server) used while a case was
   * timed, in percent of one core: another build, say, that the figures would suffer from.
   */
  private static double otherPercent(long[] machineBefore, long own) {
    long[] machineAfter = ProcCpu.machineTicks();
    double coreTicks =
        (machineAfter[1] - machineBefore[1]) / (double) Runtime.getRuntime().availableProcessors();
    if (coreTicks <= 0) {
      return 0;
    }
    return Percentiles.round(
        Math.max(0, 100.0 * (machineAfter[0] - machineBefore[0] - own) / coreTicks));
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(line -> line.startsWith("model name"))
          .map(line -> line.substring(line.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (Exception e) {
      return "unknown";
    }
  }

  private static String summary(JsonObject report, Path output) {
    StringBuilder out = new StringBuilder();
    JsonObject machine = report.getJsonObject("machine");
    JsonObject settings = report.getJsonObject("settings");
    out.append(
        String.format(
            Locale.ROOT,
            "canvas-agent document tools: %d timed calls per case after %d ms warm-up%n",
            settings.getInteger("samples"),
            settings.getInteger("warmupMillis")));
    out.append(
        String.format(
            Locale.ROOT,
            "machine     %d cores (%s); %s; load before %s, after %s; cpu this bench %.0f%%, other processes %.0f%% (100%% = one core)%n",
            machine.getInteger("cores"),
            machine.getString("cpu"),
            machine.getString("java"),
            machine.getString("loadAverageBefore"),
            machine.getString("loadAverageAfter"),
            machine.getDouble("benchCpuPercent"),
            machine.getDouble("otherProcessesCpuPercent")));
    JsonObject cases = report.getJsonObject("cases");
    for (String name : cases.fieldNames()) {
      JsonObject result = cases.getJsonObject(name);
      JsonObject micros = result.getJsonObject("micros");
      out.append(
          String.format(
              Locale.ROOT,
              "  %-17s %6d lines %,9d bytes: p50 %,9.1f µs  p90 %,9.1f  p99 %,9.1f  max %,9.1f  mean %,9.1f%n",
              name,
              result.getLong("lines"),
              result.getLong("bytes"),
              micros.getDouble("p50"),
              micros.getDouble("p90"),
              micros.getDouble("p99"),
              micros.getDouble("max"),
              micros.getDouble("mean")));
    }
    out.append("report      ").append(output).append('\n');
    return out.toString();
  }
}
