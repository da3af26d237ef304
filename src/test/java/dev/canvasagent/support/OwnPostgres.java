package dev.canvasagent.support;

import dev.canvasagent.config.DatabaseConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL cluster of the test's own, on a free loopback port in a temporary directory, for tests
 * that stop and start the database under a running server. Made with the installed {@code initdb} and
 * {@code pg_ctl}; as root they run as the {@code postgres} user, which owns the directory. Without
 * those binaries the test is skipped locally and fails under {@code CI=true}.
 */
public final class OwnPostgres implements AutoCloseable {
  private static final long COMMAND_SECONDS = 60;

  private final Path bin;
  private final Path directory;
  private final int port;

  private OwnPostgres(Path bin, Path directory, int port) {
    this.bin = bin;
    this.directory = directory;
    this.port = port;
  }

  /** Creates the cluster ({@code initdb}, trust authentication, user {@code postgres}) and starts it. */
  public static OwnPostgres start() {
    Path bin = binaries();
    try {
      Path directory = Files.createTempDirectory("canvas-agent-pg-");
      OwnPostgres cluster = new OwnPostgres(bin, directory, freePort());
      if (runningAsRoot()) {
        cluster.run(List.of("chown", "-R", "postgres:postgres", directory.toString()), false);
      }
      cluster.run(
          List.of(
              bin.resolve("initdb").toString(),
              "-D",
              cluster.data().toString(),
              "-A",
              "trust",
              "-U",
              "postgres",
              "--no-sync"),
          true);
      cluster.startServer();
      return cluster;
    } catch (IOException e) {
      throw new IllegalStateException("could not make a PostgreSQL cluster: " + e, e);
    }
  }

  public int port() {
    return port;
  }

  /** A fresh schema in the cluster's {@code postgres} database, for the server under test. */
  public DatabaseConfig config(String schema) {
    return new DatabaseConfig("127.0.0.1", port, "postgres", "postgres", "", schema, 4, 64);
  }

  /** Starts the stopped cluster on the same port; returns once it accepts connections. */
  public void startServer() {
    run(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data().toString(),
            "-l",
            directory.resolve("server.log").toString(),
            "-o",
            "-p " + port + " -c listen_addresses=127.0.0.1 -k " + directory + " -c fsync=off",
            "-w",
            "start"),
        true);
  }

  /** Stops the cluster at once ({@code -m immediate}): every connection drops, as in a crash. */
  public void stopServer() {
    run(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data().toString(),
            "-m",
            "immediate",
            "-w",
            "stop"),
        true);
  }

  @Override
  public void close() {
    try {
      stopServer();
    } catch (IllegalStateException alreadyStopped) {
      // Nothing to stop.
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // A temporary directory left behind.
    }
  }

  private Path data() {
    return directory.resolve("data");
  }

  private void run(List<String> command, boolean asPostgres) {
    List<String> full = new ArrayList<>();
    if (asPostgres && runningAsRoot()) {
      full.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    full.addAll(command);
    try {
      Process process =
          new ProcessBuilder(full)
              .redirectErrorStream(true)
              .redirectOutput(directory.resolve("commands.log").toFile())
              .start();
      if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", command)
                + " failed ("
                + process.exitValue()
                + "):\n"
                + Files.readString(directory.resolve("commands.log"), StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static Path binaries() {
    Path root = Path.of("/usr/lib/postgresql");
    try (Stream<Path> versions = Files.list(root)) {
      Path found =
          versions
              .map(version -> version.resolve("bin"))
              .filter(bin -> Files.isExecutable(bin.resolve("pg_ctl")))
              .max(Comparator.naturalOrder())
              .orElse(null);
      if (found != null) {
        return found;
      }
    } catch (IOException missing) {
      // Reported below.
    }
    String why = "initdb/pg_ctl are not installed under " + root;
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new IllegalStateException(why + " (CI=true: database tests may not be skipped)");
    }
    Assumptions.abort(why);
    return null;
  }

  private static boolean runningAsRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
