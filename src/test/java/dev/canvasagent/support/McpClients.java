package dev.canvasagent.support;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * MCP clients nobody here wrote: the official TypeScript SDK's {@code Client}
 * ({@code @modelcontextprotocol/sdk}, pinned in {@code src/test/node/package-lock.json}) over
 * Streamable HTTP or stdio, driven from one Node process ({@code src/test/node/mcp-client.mjs}) that
 * holds any number of named clients. Each call waits for its answer; a refusal (a JSON-RPC error, or
 * the HTTP status of a refused request) throws {@link McpFailure} with its code. Without the npm
 * packages the tests that need them are skipped, except with {@code CI=true}, where they fail. Call it
 * from the test thread, never from an event loop.
 */
public final class McpClients implements AutoCloseable {
  public static final long WAIT_MS = 30_000;
  private static final String SCRIPT = "mcp-client.mjs";

  private final Process process;
  private final BufferedWriter commands;
  private final StringBuffer errors = new StringBuffer();
  private final NodeAnswers answers;
  private int refs;

  private McpClients(Process process) {
    this.process = process;
    this.commands =
        new BufferedWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.answers = new NodeAnswers("the MCP client process", errors);
    NodeProcesses.daemon("mcp-clients-out", () -> answers.read(process.getInputStream()));
    NodeProcesses.daemon(
        "mcp-clients-err", () -> NodeProcesses.collectErrors(process.getErrorStream(), errors));
  }

  /** The Node process, once it has started. */
  public static McpClients start() {
    Path directory = nodeDirectory();
    requirePackage(directory, "@modelcontextprotocol/sdk");
    McpClients clients;
    try {
      clients =
          new McpClients(new ProcessBuilder("node", SCRIPT).directory(directory.toFile()).start());
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run `node` (Node.js 20+ must be on the PATH; the test suite needs it)", e);
    }
    clients.answers.await(0, 60_000, "the MCP client process to start");
    return clients;
  }

  /** {@code src/test/node}, where the build installs the pinned npm packages. */
  static Path nodeDirectory() {
    return Path.of(System.getProperty("tldraw.oracle.dir", "src/test/node")).toAbsolutePath();
  }

  /** Skips the test without {@code node_modules/<name>}, or fails it with {@code CI=true}. */
  static void requirePackage(Path directory, String name) {
    if (Files.isDirectory(directory.resolve("node_modules").resolve(name))) {
      return;
    }
    String why =
        name + " is not installed in " + directory + "/node_modules (the build runs npm ci there)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new IllegalStateException(why + " (CI=true: the MCP client tests may not be skipped)");
    }
    Assumptions.abort(why);
  }

  /** A client connected over Streamable HTTP at {@code url} (…/mcp), without a token. */
  public Client http(String name, String url) {
    return http(name, url, Optional.empty(), Map.of());
  }

  /** A client connected over Streamable HTTP, sending {@code Authorization: Bearer token}. */
  public Client http(String name, String url, String token) {
    return http(name, url, Optional.of(token), Map.of());
  }

  /** A client connected over Streamable HTTP, with a bearer token if given and extra headers. */
  public Client http(String name, String url, Optional<String> token, Map<String, String> headers) {
    JsonObject command =
        new JsonObject()
            .put("transport", "http")
            .put("url", url)
            .put("headers", new JsonObject(new HashMap<>(headers)));
    token.ifPresent(value -> command.put("token", value));
    return connect(name, command);
  }

  /**
   * A client that launches {@code command args} and speaks MCP over its stdin/stdout, as Claude
   * Desktop launches a local server. The process's environment is the SDK's safe default ({@code
   * HOME}, {@code PATH}, …) plus {@code environment}; its stderr joins this helper's diagnostics.
   */
  public Client stdio(
      String name, String command, List<String> args, Map<String, String> environment) {
    return connect(
        name,
        new JsonObject()
            .put("transport", "stdio")
            .put("command", command)
            .put("args", new JsonArray(List.copyOf(args)))
            .put("env", new JsonObject(new HashMap<>(environment))));
  }

  private Client connect(String name, JsonObject command) {
    JsonObject connection =
        (JsonObject) call(command.put("op", "connect").put("client", name), WAIT_MS);
    return new Client(name, connection);
  }

  /** One connected client; its calls answer with the SDK's results, as JSON. */
  public final class Client {
    private final String name;
    private final JsonObject connection;

    private Client(String name, JsonObject connection) {
      this.name = name;
      this.connection = connection;
    }

    public String name() {
      return name;
    }

    /** The server's {@code serverInfo} from its initialize result ({@code name}, {@code version}). */
    public JsonObject serverInfo() {
      return connection.getJsonObject("serverInfo");
    }

    /** The protocol version the two sides agreed on. */
    public String protocolVersion() {
      return connection.getString("protocolVersion");
    }

    public JsonObject capabilities() {
      return connection.getJsonObject("capabilities");
    }

    /** The {@code Mcp-Session-Id} the server gave (Streamable HTTP), or null. */
    public String sessionId() {
      return connection.getString("sessionId");
    }

    /** {@code tools/list}: {@code {tools:[…], nextCursor?}}. */
    public JsonObject listTools() {
      return object(command("listTools"));
    }

    /**
     * {@code tools/call}: the CallToolResult ({@code content}, {@code structuredContent?}, {@code
     * isError?}). A tool's own failure is a result with {@code isError: true}, not a throw.
     */
    public JsonObject callTool(String tool, JsonObject arguments) {
      return object(command("callTool").put("name", tool).put("arguments", arguments));
    }

    /**
     * {@code tools/call} with a progress token: the result and every {@code notifications/progress}
     * the call received ({@code progress}, {@code total?}, {@code message?}), in order. Each
     * progress notification restarts the {@code timeoutMs} the call may stay quiet.
     */
    public ToolRun callToolWithProgress(String tool, JsonObject arguments, long timeoutMs) {
      JsonObject answer =
          (JsonObject)
              call(
                  command("callTool")
                      .put("name", tool)
                      .put("arguments", arguments)
                      .put("progress", true)
                      .put("timeoutMs", timeoutMs),
                  timeoutMs + WAIT_MS);
      return new ToolRun(answer.getJsonObject("result"), objects(answer.getJsonArray("progress")));
    }

    /** {@code resources/list}. */
    public JsonObject listResources() {
      return object(command("listResources"));
    }

    /** {@code resources/templates/list}. */
    public JsonObject listResourceTemplates() {
      return object(command("listResourceTemplates"));
    }

    /** {@code resources/read}: {@code {contents:[{uri, mimeType?, text | blob}…]}}. */
    public JsonObject readResource(String uri) {
      return object(command("readResource").put("uri", uri));
    }

    /** {@code resources/subscribe}. */
    public void subscribe(String uri) {
      call(command("subscribe").put("uri", uri), WAIT_MS);
    }

    /** {@code resources/unsubscribe}. */
    public void unsubscribe(String uri) {
      call(command("unsubscribe").put("uri", uri), WAIT_MS);
    }

    /** {@code prompts/list}. */
    public JsonObject listPrompts() {
      return object(command("listPrompts"));
    }

    /** {@code prompts/get}: {@code {description?, messages:[…]}}. */
    public JsonObject getPrompt(String prompt, JsonObject arguments) {
      return object(command("getPrompt").put("name", prompt).put("arguments", arguments));
    }

    /** Any request, as written: the server's result, or {@link McpFailure} with its error code. */
    public JsonObject request(String method, JsonObject params) {
      JsonObject command = command("request").put("method", method);
      if (params != null) {
        command.put("params", params);
      }
      return object(command);
    }

    /**
     * The notifications the server sent this client from the {@code since}-th on (0: all), each
     * {@code {index, method, params}}; progress notifications go to their call instead.
     */
    public List<JsonObject> notifications(int since) {
      JsonObject answer = object(command("notifications").put("since", since));
      return objects(answer.getJsonArray("notifications"));
    }

    /**
     * The first notification {@code method} (about {@code uri}, when not null) from the {@code
     * since}-th on, {@code {index, method, params}}, waiting for it up to {@code timeoutMs}. To wait
     * for a later one, pass the last one's index + 1.
     */
    public JsonObject waitNotification(String method, String uri, int since, long timeoutMs) {
      JsonObject command =
          command("waitNotification")
              .put("method", method)
              .put("since", since)
              .put("timeoutMs", timeoutMs);
      if (uri != null) {
        command.put("uri", uri);
      }
      return (JsonObject) call(command, timeoutMs + WAIT_MS);
    }

    /** Closes the client (ending its stdio process, if any); the HTTP session is left to expire. */
    public void close() {
      call(command("close"), WAIT_MS);
    }

    /** Ends the HTTP session first ({@code DELETE /mcp} with its id), then closes the client. */
    public void terminate() {
      call(command("close").put("terminate", true), WAIT_MS);
    }

    private JsonObject command(String op) {
      return new JsonObject().put("op", op).put("client", name);
    }

    private JsonObject object(JsonObject command) {
      return (JsonObject) call(command, WAIT_MS);
    }
  }

  /** A tool call's result and the progress notifications it received on the way. */
  public record ToolRun(JsonObject result, List<JsonObject> progress) {}

  /**
   * A command the SDK or the server refused: {@code code} is the JSON-RPC error code (-32601 method
   * not found, …) or the HTTP status of a refused Streamable HTTP request (401, …); null when the
   * failure had none (a timeout of the driver's own, a closed process, …).
   */
  public static final class McpFailure extends AssertionError {
    private final Integer code;
    private final String reason;
    private final Object data;

    McpFailure(String what, JsonObject error) {
      super(
          what
              + " failed"
              + (error.getInteger("code") == null ? "" : " with code " + error.getInteger("code"))
              + ": "
              + error.getString("message")
              + (error.getString("stack") == null ? "" : "\n" + error.getString("stack")));
      this.code = error.getInteger("code");
      this.reason = error.getString("message");
      this.data = error.getValue("data");
    }

    public Integer code() {
      return code;
    }

    /** The error's message as the SDK gave it. */
    public String reason() {
      return reason;
    }

    /** The JSON-RPC error's {@code data}, or null. */
    public Object data() {
      return data;
    }
  }

  private static List<JsonObject> objects(JsonArray array) {
    return array.stream().map(JsonObject.class::cast).toList();
  }

  private Object call(JsonObject command, long waitMs) {
    int ref;
    synchronized (this) {
      ref = ++refs;
    }
    NodeProcesses.send(commands, command.put("ref", ref), errors);
    String what = command.getString("op") + " " + command.getString("client");
    JsonObject answer = answers.await(ref, waitMs, what);
    if (!answer.getBoolean("ok", false)) {
      throw new McpFailure(what, answer.getJsonObject("error", new JsonObject()));
    }
    return answer.getValue("result");
  }

  /** What the process and the servers it launched wrote on stderr so far (bounded). */
  public String errors() {
    return errors.toString();
  }

  @Override
  public void close() {
    // Closing a stdio client waits for the process it launched to end.
    NodeProcesses.stop(process, commands, 20);
  }
}
