package dev.canvasagent.bench;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.anthropic.AnthropicStreamNormalizer;
import dev.canvasagent.model.sse.SseDecoder;
import dev.canvasagent.runner.stream.ActionsArrayReader;
import dev.canvasagent.runner.stream.EnumFields;
import dev.canvasagent.runner.stream.StreamedAction;
import dev.canvasagent.runner.stream.ToolCallArgumentsReader;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * How fast the runner reads a 200-action answer as it streams, in this JVM, without a server:
 *
 * <ul>
 *   <li>{@code text}: the actions JSON written as text (prose, a {@code ```json} fence, {@code
 *       {"actions":[…]}}) fed to one {@link ActionsArrayReader} in fragments of 16–64 characters;
 *   <li>{@code text+partials}: the same with a partial snapshot taken after every fragment, the most
 *       the runner can ask for (it takes one per action per {@code CANVAS_AGENT_PARTIAL_INTERVAL_MS});
 *   <li>{@code tool-calls}: 200 tool calls' argument fragments (16–64 characters) each fed to its
 *       {@link ToolCallArgumentsReader};
 *   <li>{@code anthropic-wire}: the Anthropic Messages stream of those 200 tool calls, one buffer per
 *       server-sent event, through {@link SseDecoder}, {@link AnthropicStreamNormalizer} and a
 *       {@link ToolCallArgumentsReader} per call compared with the normalizer's arguments at the
 *       call's end — what a run does with the body of a provider's answer.
 * </ul>
 *
 * <pre>./mvnw -q -B -Pbench -DskipTests verify -Dbench.which=parse</pre>
 */
public final class ParseThroughputBench {
  private static final int MIN_FRAGMENT = 16;
  private static final int MAX_FRAGMENT = 64;

  private ParseThroughputBench() {}

  public static void main(String[] args) throws Exception {
    ParentWatch.start();
    System.exit(execute());
  }

  static int execute() throws Exception {
    int actionCount = BenchProperties.number("bench.parse.actions", 200);
    int warmupMillis = BenchProperties.number("bench.parse.warmupMillis", 5_000);
    int rounds = BenchProperties.number("bench.parse.rounds", 10);
    int roundMillis = BenchProperties.number("bench.parse.roundMillis", 1_000);
    Path output = Path.of(System.getProperty("bench.parse.out", "target/bench/parse.json"));
    if (actionCount < 1 || warmupMillis < 0 || rounds < 2 || roundMillis < 1) {
      throw new IllegalArgumentException("bench.parse settings out of range");
    }
    String loadBefore = ProcCpu.loadAverage();
    List<BenchActions.Action> actions = BenchActions.board(actionCount, 200);
    EnumFields enums = new EnumFields(ActionCatalog.standard());
    Random random = new Random(64);

    String text = actionsText(actions);
    List<String> textFragments = BenchActions.fragments(text, MIN_FRAGMENT, MAX_FRAGMENT, random);
    List<List<String>> argumentFragments = new ArrayList<>();
    long argumentBytes = 0;
    for (BenchActions.Action action : actions) {
      String arguments = action.params().encode();
      argumentBytes += arguments.getBytes(StandardCharsets.UTF_8).length;
      argumentFragments.add(BenchActions.fragments(arguments, MIN_FRAGMENT, MAX_FRAGMENT, random));
    }
    AnthropicWire wire = AnthropicWire.of(actions, MIN_FRAGMENT, MAX_FRAGMENT, 65);
    List<Buffer> wireBuffers = wire.events().stream().map(Buffer::buffer).toList();

    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put(
        "text",
        new Case(
            text.getBytes(StandardCharsets.UTF_8).length,
            textFragments.size(),
            () -> readText(textFragments, null)));
    cases.put(
        "text+partials",
        new Case(
            text.getBytes(StandardCharsets.UTF_8).length,
            textFragments.size(),
            () -> readText(textFragments, enums)));
    cases.put(
        "tool-calls",
        new Case(
            argumentBytes,
            argumentFragments.stream().mapToInt(List::size).sum(),
            () -> readToolCalls(actions, argumentFragments)));
    cases.put(
        "anthropic-wire", new Case(wire.bytes(), wireBuffers.size(), () -> readWire(wireBuffers)));

    // Every case must read every action, exactly, before it is timed.
    for (Map.Entry<String, Case> entry : cases.entrySet()) {
      long read = entry.getValue().operation().getAsLong() & 0xFFFF_FFFFL;
      if (read != actionCount) {
        throw new IllegalStateException(
            entry.getKey() + " read " + read + " actions of " + actionCount);
      }
    }
    verifyText(textFragments, actions);

    Throughput throughput = new Throughput(warmupMillis, rounds, roundMillis);
    JsonObject results = new JsonObject();
    long[] machineBefore = ProcCpu.machineTicks();
    long ownBefore = ProcCpu.processTicks(ProcessHandle.current().pid());
    for (Map.Entry<String, Case> entry : cases.entrySet()) {
      Case measured = entry.getValue();
      results.put(
          entry.getKey(),
          throughput
              .measure(measured.operation())
              .toJson(measured.bytes(), actionCount)
              .put("bytes", measured.bytes())
              .put("fragments", measured.fragments()));
    }
    long[] machineAfter = ProcCpu.machineTicks();
    long own = ProcCpu.processTicks(ProcessHandle.current().pid()) - ownBefore;
    double coreTicks =
        (machineAfter[1] - machineBefore[1]) / (double) Runtime.getRuntime().availableProcessors();
    double machineBusy = 100.0 * (machineAfter[0] - machineBefore[0]) / coreTicks;
    double ownPercent = 100.0 * own / coreTicks;
    JsonObject report =
        new JsonObject()
            .put("benchmark", "parse-throughput")
            .put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString())
            .put(
                "machine",
                new JsonObject()
                    .put("cores", Runtime.getRuntime().availableProcessors())
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
                new JsonObject()
                    .put("actions", actionCount)
                    .put("verbs", verbCounts(actions))
                    .put("fragmentChars", MIN_FRAGMENT + "-" + MAX_FRAGMENT)
                    .put("warmupMillis", warmupMillis)
                    .put("rounds", rounds)
                    .put("roundMillis", roundMillis))
            .put("cases", results)
            .put("sink", throughput.sink());
    Files.createDirectories(output.toAbsolutePath().getParent());
    Files.writeString(output, report.encodePrettily() + "\n");
    System.out.println(summary(report, output));
    return 0;
  }

  /** One way of reading the answer: its input size, in bytes and pieces, and one full read. */
  private record Case(long bytes, int fragments, LongSupplier operation) {}

  /** A model's text answer holding the actions: a sentence, a fenced {@code {"actions":[…]}}, a closing line. */
  static String actionsText(List<BenchActions.Action> actions) {
    StringBuilder text =
        new StringBuilder(
            "Here is the layout, laid out left to right:\n\n```json\n{\"actions\": [\n");
    for (int i = 0; i < actions.size(); i++) {
      BenchActions.Action action = actions.get(i);
      text.append("  ")
          .append(
              new JsonObject().put("name", action.verb()).put("params", action.params()).encode())
          .append(i + 1 < actions.size() ? ",\n" : "\n");
    }
    return text.append("]}\n```\n\nTell me if the labels should be shorter.").toString();
  }

  /** The actions read, and in the upper 32 bits the params snapshotted (so that the snapshots are not dead code). */
  private static long readText(List<String> fragments, EnumFields enums) {
    ActionsArrayReader reader = new ActionsArrayReader();
    long read = 0;
    long snapshotted = 0;
    for (String fragment : fragments) {
      read += reader.feed(fragment).size();
      if (enums != null) {
        snapshotted += reader.partial(enums).map(partial -> partial.params().size()).orElse(0);
      }
    }
    reader.finish();
    if (reader.problem().isPresent()) {
      throw new IllegalStateException(reader.problem().get());
    }
    return read | snapshotted << 32;
  }

  private static void verifyText(List<String> fragments, List<BenchActions.Action> expected) {
    ActionsArrayReader reader = new ActionsArrayReader();
    List<StreamedAction> read = new ArrayList<>();
    for (String fragment : fragments) {
      read.addAll(reader.feed(fragment));
    }
    for (int i = 0; i < expected.size(); i++) {
      if (!read.get(i).name().equals(expected.get(i).verb())
          || !read.get(i).params().equals(expected.get(i).params())) {
        throw new IllegalStateException("text: action " + i + " read as " + read.get(i));
      }
    }
  }

  private static long readToolCalls(
      List<BenchActions.Action> actions, List<List<String>> fragments) {
    long read = 0;
    for (int i = 0; i < actions.size(); i++) {
      ToolCallArgumentsReader reader = new ToolCallArgumentsReader(actions.get(i).verb());
      for (String fragment : fragments.get(i)) {
        reader.feed(fragment);
      }
      JsonObject arguments = reader.arguments().orElseThrow();
      read += arguments.size() > 0 ? 1 : 0;
    }
    return read;
  }

  /** The provider path of a run: SSE decoding, the normalizer, and the runner's reader per call. */
  private static long readWire(List<Buffer> events) {
    Map<Integer, ToolCallArgumentsReader> readers = new HashMap<>();
    long[] read = new long[1];
    AnthropicStreamNormalizer normalizer =
        new AnthropicStreamNormalizer(
            event -> {
              if (event instanceof ModelEvent.ToolCallStart start) {
                readers.put(start.ordinal(), new ToolCallArgumentsReader(start.name()));
              } else if (event instanceof ModelEvent.ToolCallDelta delta) {
                readers.get(delta.ordinal()).feed(delta.argumentsDelta());
              } else if (event instanceof ModelEvent.ToolCallEnd end) {
                JsonObject streamed = readers.remove(end.ordinal()).arguments().orElseThrow();
                if (!streamed.equals(end.arguments())) {
                  throw new IllegalStateException(
                      "call " + end.ordinal() + ": the reader and the normalizer disagree");
                }
                read[0]++;
              } else if (event instanceof ModelEvent.Error error) {
                throw new IllegalStateException(error.toString());
              }
            });
    SseDecoder decoder = new SseDecoder(normalizer::accept);
    for (Buffer event : events) {
      decoder.feed(event);
    }
    decoder.end();
    normalizer.end();
    return read[0];
  }

  private static JsonObject verbCounts(List<BenchActions.Action> actions) {
    JsonObject counts = new JsonObject();
    for (BenchActions.Action action : actions) {
      counts.put(action.verb(), counts.getInteger(action.verb(), 0) + 1);
    }
    return counts;
  }

  private static String summary(JsonObject report, Path output) {
    StringBuilder out = new StringBuilder();
    JsonObject settings = report.getJsonObject("settings");
    JsonObject machine = report.getJsonObject("machine");
    out.append(
        String.format(
            Locale.ROOT,
            "canvas-agent parse throughput: one %d-action answer %s, fragments of %s characters; %d x %d ms rounds after %d ms warm-up%n",
            settings.getInteger("actions"),
            settings.getJsonObject("verbs").encode(),
            settings.getString("fragmentChars"),
            settings.getInteger("rounds"),
            settings.getInteger("roundMillis"),
            settings.getInteger("warmupMillis")));
    out.append(
        String.format(
            Locale.ROOT,
            "machine     %d cores; %s; load before %s, after %s; cpu this bench %.0f%%, other processes %.0f%% (100%% = one core)%n",
            machine.getInteger("cores"),
            machine.getString("java"),
            machine.getString("loadAverageBefore"),
            machine.getString("loadAverageAfter"),
            machine.getDouble("benchCpuPercent"),
            machine.getDouble("otherProcessesCpuPercent")));
    JsonObject cases = report.getJsonObject("cases");
    for (String name : cases.fieldNames()) {
      JsonObject result = cases.getJsonObject(name);
      JsonObject mb = result.getJsonObject("megabytesPerSecond");
      JsonObject actions = result.getJsonObject("actionsPerSecond");
      out.append(
          String.format(
              Locale.ROOT,
              "  %-15s %7d bytes %5d pieces: %7.1f ± %5.1f MB/s (min %.1f, max %.1f), %,10.0f actions/s, %,8.1f µs per answer (cv %.1f%%)%n",
              name,
              result.getLong("bytes"),
              result.getInteger("fragments"),
              mb.getDouble("mean"),
              mb.getDouble("stdev"),
              mb.getDouble("min"),
              mb.getDouble("max"),
              actions.getDouble("mean"),
              result.getDouble("microsPerAnswer"),
              mb.getDouble("cvPercent")));
    }
    out.append("report      ").append(output).append('\n');
    return out.toString();
  }
}
