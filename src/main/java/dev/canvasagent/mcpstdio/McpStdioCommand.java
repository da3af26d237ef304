package dev.canvasagent.mcpstdio;

import io.vertx.core.Vertx;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * {@code java -jar canvas-agent.jar mcp-stdio --url http://127.0.0.1:8080/mcp [--token TOKEN]}:
 * an MCP client that only launches processes (Claude Desktop's config) talks to a running server
 * through this command, stdio on one side and Streamable HTTP on the other ({@link StdioBridge}).
 * The token may come from {@code CANVAS_AGENT_TOKEN} instead, which keeps it out of the process
 * list; it is never printed.
 */
public final class McpStdioCommand {
  public static final String NAME = "mcp-stdio";
  public static final String TOKEN_VARIABLE = "CANVAS_AGENT_TOKEN";
  static final String USAGE =
      "usage: mcp-stdio --url <http(s)://host:port/mcp> [--token <token>]"
          + "   (the token may be in "
          + TOKEN_VARIABLE
          + " instead; stdin and stdout carry MCP's stdio transport)";

  private McpStdioCommand() {}

  /** A refusal of the command line, its message naming the option. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  /**
   * Returns the process's exit code: 0 once stdin has ended (the session deleted), 2 with the
   * reason on {@code err} for bad options, 1 if the bridge itself failed. {@code out} carries
   * nothing but JSON-RPC lines (and {@code --help}'s usage).
   */
  public static int run(
      List<String> args,
      Map<String, String> env,
      InputStream in,
      PrintStream out,
      PrintStream err) {
    if (args.contains("--help")) {
      out.println(USAGE);
      return 0;
    }
    McpServerTarget target;
    try {
      target = parse(args, env);
    } catch (UsageException bad) {
      err.println(bad.getMessage() + "\n" + USAGE);
      return 2;
    }
    Vertx vertx = Vertx.vertx();
    try {
      new StdioBridge(vertx, target, StdioBridge.Settings.defaults(), in, out, err)
          .run()
          .toCompletionStage()
          .toCompletableFuture()
          .join();
      return 0;
    } catch (CompletionException failed) {
      err.println("mcp-stdio: the bridge failed: " + failed.getCause());
      return 1;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().join();
    }
  }

  static McpServerTarget parse(List<String> args, Map<String, String> env) throws UsageException {
    URI url = null;
    String token = null;
    for (int i = 0; i < args.size(); i++) {
      String flag = args.get(i);
      if (!flag.equals("--url") && !flag.equals("--token")) {
        throw new UsageException("unknown option " + flag);
      }
      if (i + 1 >= args.size() || args.get(i + 1).isBlank()) {
        throw new UsageException(flag + " needs a value");
      }
      String value = args.get(++i);
      if (flag.equals("--url")) {
        url = url(value);
      } else {
        token = value;
      }
    }
    if (url == null) {
      throw new UsageException(
          "--url is required: the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp");
    }
    if (token == null) {
      token = env.get(TOKEN_VARIABLE);
    }
    return new McpServerTarget(url, Optional.ofNullable(token).filter(given -> !given.isBlank()));
  }

  private static URI url(String value) throws UsageException {
    URI url;
    try {
      url = new URI(value);
    } catch (URISyntaxException bad) {
      throw new UsageException("--url is not a URL: " + bad.getMessage());
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
      throw new UsageException(
          "--url must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080/mcp");
    }
    return url;
  }
}
