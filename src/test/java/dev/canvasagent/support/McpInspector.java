package dev.canvasagent.support;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The MCP Inspector's CLI ({@code @modelcontextprotocol/inspector}, pinned in {@code
 * src/test/node/package-lock.json}), one process per call:
 *
 * <pre>
 * node_modules/.bin/mcp-inspector --cli URL --stored-auth-only --method tools/list
 *     [--header "Authorization: Bearer T"] [more arguments…]
 * </pre>
 *
 * It runs with a fresh, empty {@code HOME} of its own: the Inspector keeps a catalog and OAuth state
 * under {@code ~/.mcp-inspector}, which must neither leak between runs nor touch the developer's. With
 * {@code --stored-auth-only} a refused token ends the run (exit 3) instead of starting an interactive
 * OAuth login. Call it from the test thread, never from an event loop: it blocks until the process
 * ends, at most {@link #WAIT_SECONDS}.
 */
public final class McpInspector {
  public static final long WAIT_SECONDS = 60;
  private static final String PACKAGE = "@modelcontextprotocol/inspector";

  private McpInspector() {}

  /** How a run ended: the exit code, and everything it wrote. */
  public record Result(int exitCode, String stdout, String stderr) {
    /** Stdout as JSON: the method's result (e.g. {@code {tools:[…]}}) when the run succeeded. */
    public JsonObject json() {
      try {
        return new JsonObject(stdout);
      } catch (RuntimeException e) {
        throw new AssertionError(
            "the Inspector's stdout is not a JSON object (exit "
                + exitCode
                + "):\n"
                + stdout
                + "\nstderr:\n"
                + stderr,
            e);
      }
    }
  }

  /** {@code tools/list} on the server at {@code url}, with the bearer token if given. */
  public static Result toolsList(String url, Optional<String> token) {
    return run(url, token, "--method", "tools/list");
  }

  /** The CLI on {@code url} with {@code arguments} (such as {@code --method resources/list}). */
  public static Result run(String url, Optional<String> token, String... arguments) {
    Path directory = McpClients.nodeDirectory();
    McpClients.requirePackage(directory, PACKAGE);
    List<String> command = new ArrayList<>();
    command.add(directory.resolve("node_modules/.bin/mcp-inspector").toString());
    command.add("--cli");
    command.add(url);
    command.add("--stored-auth-only");
    command.addAll(List.of(arguments));
    token.ifPresent(
        value -> {
          command.add("--header");
          command.add("Authorization: Bearer " + value);
        });
    Path home = temporaryHome();
    try {
      ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
      Map<String, String> environment = builder.environment();
      environment.put("HOME", home.toString());
      environment.put("MCP_CATALOG_PATH", home.resolve("mcp.json").toString());
      environment.put("MCP_CLIENT_CONFIG_PATH", home.resolve("client.json").toString());
      return run(builder, String.join(" ", command));
    } finally {
      delete(home);
    }
  }

  private static Result run(ProcessBuilder builder, String shown) {
    Process process;
    try {
      process = builder.start();
      // Nothing to type: an ended stdin also tells it no person is there to log in.
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run " + shown + " (Node.js 20+ must be on the PATH)", e);
    }
    // Both streams are read while it runs: a full pipe would stop it.
    CompletableFuture<String> stdout = readAll(process.getInputStream());
    CompletableFuture<String> stderr = readAll(process.getErrorStream());
    try {
      if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError(
            shown + " did not end within " + WAIT_SECONDS + " s; stderr:\n" + stderr.getNow(""));
      }
      return new Result(
          process.exitValue(), stdout.get(10, TimeUnit.SECONDS), stderr.get(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the output of " + shown, e);
    }
  }

  private static CompletableFuture<String> readAll(InputStream stream) {
    CompletableFuture<String> text = new CompletableFuture<>();
    NodeProcesses.daemon(
        "mcp-inspector-output",
        () -> {
          try (stream) {
            text.complete(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
          } catch (IOException e) {
            text.completeExceptionally(e);
          }
        });
    return text;
  }

  private static Path temporaryHome() {
    try {
      return Files.createTempDirectory("mcp-inspector-home");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void delete(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException ignored) {
      // A temporary directory left behind harms nothing.
    }
  }
}
