package dev.canvasagent.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The server as an operating-system process, with its output read line by line. */
public final class ServerProcess implements AutoCloseable {
  public static final long PROCESS_SECONDS = 60;
  static final Pattern STARTED =
      Pattern.compile("server\\.started url=http://127\\.0\\.0\\.1:(\\d+)");

  private final Process process;
  private final BufferedReader output;
  private final List<String> lines = new ArrayList<>();

  private ServerProcess(Process process) {
    this.process = process;
    this.output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** {@code java <arguments>} with this JVM's java, with no inherited server or database settings. */
  public static ServerProcess java(List<String> arguments, Map<String, String> environment)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.keySet()
        .removeIf(
            name ->
                name.startsWith("PG")
                    || name.startsWith("CANVAS_")
                    || name.equals("DATABASE_URL")
                    || name.equals("HOST")
                    || name.equals("PORT"));
    env.putAll(environment);
    return new ServerProcess(builder.start());
  }

  /** Reads output (on a plain thread) until a line matches; returns that line. */
  public String awaitLine(Pattern pattern) throws Exception {
    return CompletableFuture.supplyAsync(
            () -> {
              try {
                String line;
                while ((line = output.readLine()) != null) {
                  synchronized (lines) {
                    lines.add(line);
                  }
                  if (pattern.matcher(line).find()) {
                    return line;
                  }
                }
                throw new IllegalStateException(
                    "output ended without " + pattern + ":\n" + output());
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            })
        .get(PROCESS_SECONDS, TimeUnit.SECONDS);
  }

  /** Waits for the startup line and returns the port it names. */
  public int awaitStartedPort() throws Exception {
    Matcher started = STARTED.matcher(awaitLine(STARTED));
    if (!started.find()) {
      throw new IllegalStateException("no port in the startup line");
    }
    return Integer.parseInt(started.group(1));
  }

  /**
   * From now on, reads the rest of the output on a daemon thread into {@link #output()}, so that a
   * process that keeps logging never blocks on a full pipe and its log is there for a failure message.
   * Call it once the lines awaited with {@link #awaitLine} are in; do not await lines after it.
   */
  public void keepReading() {
    Thread reader =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = output.readLine()) != null) {
                  synchronized (lines) {
                    lines.add(line);
                  }
                }
              } catch (IOException closed) {
                // The process is gone and its pipe with it: what was read is kept.
              }
            },
            "server-process-output-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** SIGTERM. ({@code Process.destroy()} would also close our end of the process's output.) */
  public void terminate() {
    process.toHandle().destroy();
  }

  public int awaitExit() throws InterruptedException {
    if (!process.waitFor(PROCESS_SECONDS, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the process did not exit:\n" + output());
    }
    return process.exitValue();
  }

  /** Everything read so far, plus whatever is left once the process has exited. */
  public String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  public String remainingOutput() throws IOException {
    StringBuilder rest = new StringBuilder();
    String line;
    while ((line = output.readLine()) != null) {
      rest.append(line).append('\n');
    }
    return rest.toString();
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
