package dev.canvasagent.support;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A scrape parsed by a real Prometheus text parser: the reference Python client's ({@code
 * prometheus_client.parser}, Debian's {@code python3-prometheus-client}; {@code .ci/run} installs it),
 * run as a process by {@code src/test/python/prometheus_text.py}. Called from a test's own thread,
 * never from an event loop.
 */
public final class PrometheusText {
  /** One sample line: its name (with {@code _total}, {@code _bucket}, … as written), labels and value. */
  public record Sample(
      String family, String type, String name, Map<String, String> labels, double value) {}

  private static final Path SCRIPT = Path.of("src/test/python/prometheus_text.py");
  private static final long PARSE_TIMEOUT_SECONDS = 60;

  private final List<Sample> samples;

  private PrometheusText(List<Sample> samples) {
    this.samples = List.copyOf(samples);
  }

  /** Parses {@code text}; fails the test when the parser refuses it. */
  public static PrometheusText parse(String text) {
    try {
      Process process =
          new ProcessBuilder(python(), SCRIPT.toString())
              .redirectError(ProcessBuilder.Redirect.PIPE)
              .start();
      try (OutputStream in = process.getOutputStream()) {
        in.write(text.getBytes(StandardCharsets.UTF_8));
      }
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(PARSE_TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new AssertionError("the Prometheus parser refused the scrape: " + err);
      }
      List<Sample> samples = new ArrayList<>();
      for (Object family : new JsonObject(out).getJsonArray("families")) {
        JsonObject f = (JsonObject) family;
        for (Object sample : f.getJsonArray("samples")) {
          JsonObject s = (JsonObject) sample;
          Map<String, String> labels = new java.util.TreeMap<>();
          s.getJsonObject("labels")
              .forEach(entry -> labels.put(entry.getKey(), (String) entry.getValue()));
          Object value = s.getValue("value");
          samples.add(
              new Sample(
                  f.getString("name"),
                  f.getString("type"),
                  s.getString("name"),
                  labels,
                  value instanceof Number number
                      ? number.doubleValue()
                      : "+Inf".equals(value)
                          ? Double.POSITIVE_INFINITY
                          : "-Inf".equals(value) ? Double.NEGATIVE_INFINITY : Double.NaN));
        }
      }
      return new PrometheusText(samples);
    } catch (IOException e) {
      throw new AssertionError("could not run " + python() + " " + SCRIPT + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while parsing the scrape", e);
    }
  }

  /** Debian's interpreter, where {@code python3-prometheus-client} installs; else the one on the PATH. */
  private static String python() {
    return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
  }

  public List<Sample> samples() {
    return samples;
  }

  /** The samples called {@code name} whose labels include {@code labels}. */
  public List<Sample> samples(String name, Map<String, String> labels) {
    Predicate<Sample> matches =
        sample ->
            sample.name().equals(name)
                && labels.entrySet().stream()
                    .allMatch(
                        label -> label.getValue().equals(sample.labels().get(label.getKey())));
    return samples.stream().filter(matches).toList();
  }

  /** The one sample called {@code name} with {@code labels} among its labels, summed if several. */
  public Optional<Double> value(String name, Map<String, String> labels) {
    List<Sample> found = samples(name, labels);
    return found.isEmpty()
        ? Optional.empty()
        : Optional.of(found.stream().mapToDouble(Sample::value).sum());
  }

  /** Every sample name and family name in the scrape. */
  public TreeSet<String> names() {
    TreeSet<String> names = new TreeSet<>();
    for (Sample sample : samples) {
      names.add(sample.name());
      names.add(sample.family());
    }
    return names;
  }
}
