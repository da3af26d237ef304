package dev.canvasagent.bench;

import dev.canvasagent.support.TestServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server under test: {@code java -Xmx… -jar canvas-agent.jar} as a process of its own (port 0, the
 * memory store), its log copied to a file, and its memory and CPU read from {@code /proc} once a
 * second. {@link #close} stops it (SIGTERM, then SIGKILL) and is safe to call twice.
 */
final class BenchServer implements AutoCloseable {
  static final Pattern STARTED =
      Pattern.compile("server\\.started url=http://127\\.0\\.0\\.1:(\\d+)");
  static final String SLOW_CONSUMER = "sse.slow_consumer_disconnected";
  private static final long STOP_SECONDS = 15;

  private final Process process;
  private final CompletableFuture<Integer> port = new CompletableFuture<>();
  private final AtomicLong slowConsumerDisconnects = new AtomicLong();
  private final AtomicLong warnings = new AtomicLong();
  private final List<Sample> samples = new ArrayList<>();
  private Process jstat;
  private volatile long heapUsedMaxKib = -1;
  private volatile long heapUsedLastKib = -1;
  private Thread sampler;
  private boolean closed;

  /**
   * One reading, taken at {@code atMicros} (epoch): the server's memory, and the CPU the server and the
   * whole machine used since the previous reading, in percent of one core.
   */
  record Sample(
      long atMicros, long rssKib, long hwmKib, double serverCpuPercent, double machineCpuPercent) {}

  private BenchServer(Process process) {
    this.process = process;
  }

  static BenchServer start(Path jar, String heap, List<String> jvmOptions, Path log)
      throws IOException {
    return start(jar, heap, jvmOptions, Map.of(), log);
  }

  /** As above, with {@code environment} set for the server on top of the cleaned environment (e.g. a provider's base URL). */
  static BenchServer start(
      Path jar, String heap, List<String> jvmOptions, Map<String, String> environment, Path log)
      throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "no server jar at " + jar + " (build it first: ./mvnw -q -DskipTests package)");
    }
    List<String> command = new ArrayList<>(List.of(javaTool("java"), "-Xmx" + heap));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toString()));
    return launch(command, environment, log);
  }

  /**
   * The fan-out benchmark's raw floor ({@link RawFloorServer}) as a JVM of its own, on this driver's
   * class path, with the same heap and options as the real server and {@code -Dbench.floorLoops}.
   */
  static BenchServer startRawFloor(String heap, List<String> jvmOptions, int loops, Path log)
      throws IOException {
    List<String> command = new ArrayList<>(List.of(javaTool("java"), "-Xmx" + heap));
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-Dbench.floorLoops=" + loops,
            "-cp",
            System.getProperty("java.class.path"),
            RawFloorServer.class.getName()));
    return launch(command, Map.of(), log);
  }

  private static BenchServer launch(List<String> command, Map<String, String> environment, Path log)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    // The memory store and a free port, whatever the developer's shell holds.
    env.keySet()
        .removeIf(
            name ->
                name.startsWith("PG")
                    || name.startsWith("CANVAS_")
                    || name.equals("DATABASE_URL")
                    || name.equals("HOST")
                    || name.equals("PORT")
                    || name.startsWith("ANTHROPIC_")
                    || name.startsWith("OPENAI_")
                    || name.startsWith("GEMINI_"));
    env.put("PORT", "0");
    // Every load driver is one client on one address: the edge limits, which exist to stop one
    // client from crowding out the others, would measure themselves. A benchmark may still set
    // them.
    env.putAll(TestServer.UNLIMITED);
    env.putAll(environment);
    BenchServer server = new BenchServer(builder.start());
    Files.createDirectories(log.toAbsolutePath().getParent());
    Thread reader =
        new Thread(() -> server.copyLog(server.process.getInputStream(), log), "bench-server-log");
    reader.setDaemon(true);
    reader.start();
    return server;
  }

  long pid() {
    return process.pid();
  }

  int awaitPort(long seconds) throws Exception {
    return port.get(seconds, TimeUnit.SECONDS);
  }

  long slowConsumerDisconnects() {
    return slowConsumerDisconnects.get();
  }

  long warnings() {
    return warnings.get();
  }

  private void copyLog(InputStream output, Path log) {
    try (BufferedReader lines =
            new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8));
        PrintWriter file =
            new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
      String line;
      while ((line = lines.readLine()) != null) {
        file.println(line);
        Matcher started = STARTED.matcher(line);
        if (started.find()) {
          port.complete(Integer.parseInt(started.group(1)));
        }
        if (line.contains(SLOW_CONSUMER)) {
          slowConsumerDisconnects.incrementAndGet();
        }
        if (line.contains(" WARN ") || line.contains(" ERROR ")) {
          warnings.incrementAndGet();
        }
      }
    } catch (IOException e) {
      // the process is gone; the port future below says so if it never started
    }
    port.completeExceptionally(
        new IllegalStateException(
            "the server exited before logging server.started (see " + log + ")"));
  }

  /** Starts reading VmRSS and VmHWM once a second, and the heap through {@code jstat -gc} if there is one. */
  void startSampling() {
    sampler =
        new Thread(
            () -> {
              long lastNanos = System.nanoTime();
              long lastServer = cpuTicks();
              long lastMachine = ProcCpu.machineTicks()[0];
              while (!Thread.currentThread().isInterrupted() && process.isAlive()) {
                try {
                  Thread.sleep(1_000);
                } catch (InterruptedException e) {
                  return;
                }
                long[] memory = memoryKib();
                long nanos = System.nanoTime();
                long server = cpuTicks();
                long machine = ProcCpu.machineTicks()[0];
                double seconds = (nanos - lastNanos) / 1e9;
                synchronized (samples) {
                  samples.add(
                      new Sample(
                          MeasurementWindow.nowMicros(),
                          memory[0],
                          memory[1],
                          percentOfCore(server - lastServer, seconds),
                          percentOfCore(machine - lastMachine, seconds)));
                }
                lastNanos = nanos;
                lastServer = server;
                lastMachine = machine;
              }
            },
            "bench-server-memory");
    sampler.setDaemon(true);
    sampler.start();
    try {
      jstat =
          new ProcessBuilder(javaTool("jstat"), "-gc", Long.toString(process.pid()), "1000")
              .redirectErrorStream(true)
              .start();
      Thread reader = new Thread(() -> readJstat(jstat.getInputStream()), "bench-server-heap");
      reader.setDaemon(true);
      reader.start();
    } catch (IOException noJstat) {
      jstat = null;
    }
  }

  /** {@code jstat -gc} columns, in KiB: the heap in use is survivors + eden + old generation. */
  private void readJstat(InputStream output) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(output, StandardCharsets.US_ASCII))) {
      List<String> header = null;
      String line;
      while ((line = lines.readLine()) != null) {
        List<String> columns = Arrays.asList(line.trim().split("\\s+"));
        if (columns.contains("EU")) {
          header = columns;
          continue;
        }
        if (header == null || columns.size() != header.size()) {
          continue;
        }
        double used = 0;
        for (String column : List.of("S0U", "S1U", "EU", "OU")) {
          used += Double.parseDouble(columns.get(header.indexOf(column)));
        }
        heapUsedLastKib = (long) used;
        heapUsedMaxKib = Math.max(heapUsedMaxKib, (long) used);
      }
    } catch (IOException | NumberFormatException e) {
      // no heap figures then; the report says so
    }
  }

  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** The largest heap in use jstat saw (KiB), or -1. */
  long heapUsedMaxKib() {
    return heapUsedMaxKib;
  }

  long heapUsedLastKib() {
    return heapUsedLastKib;
  }

  /** {VmRSS, VmHWM} in KiB, now; -1 where /proc does not say. */
  long[] memoryKib() {
    long rss = -1;
    long hwm = -1;
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          rss = kib(line);
        } else if (line.startsWith("VmHWM:")) {
          hwm = kib(line);
        }
      }
    } catch (IOException gone) {
      // the process has exited
    }
    return new long[] {rss, hwm};
  }

  /**
   * Has the server's JVM collect its whole heap now ({@code jcmd <pid> GC.run}), so that the heap
   * readings after it are what is live.
   */
  void collectGarbage() throws IOException, InterruptedException {
    Process jcmd =
        new ProcessBuilder(javaTool("jcmd"), Long.toString(process.pid()), "GC.run")
            .redirectErrorStream(true)
            .start();
    jcmd.getInputStream().readAllBytes();
    if (!jcmd.waitFor(STOP_SECONDS, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
      jcmd.destroyForcibly();
      throw new IOException("jcmd " + process.pid() + " GC.run did not succeed");
    }
  }

  /** CPU time the server has used so far (user + system), in clock ticks; -1 if unknown. */
  long cpuTicks() {
    return ProcCpu.processTicks(process.pid());
  }

  private static double percentOfCore(long ticks, double seconds) {
    return seconds <= 0
        ? 0
        : Math.round(1000.0 * ticks / ProcCpu.TICKS_PER_SECOND / seconds) / 10.0;
  }

  private static long kib(String statusLine) {
    String[] parts = statusLine.trim().split("\\s+");
    return Long.parseLong(parts[1]);
  }

  private static String javaTool(String name) {
    return Path.of(System.getProperty("java.home"), "bin", name).toString();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (sampler != null) {
      sampler.interrupt();
    }
    if (jstat != null) {
      jstat.destroyForcibly();
    }
    process.destroy();
    try {
      if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(STOP_SECONDS, TimeUnit.SECONDS);
      }
      if (jstat != null) {
        jstat.waitFor(STOP_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
