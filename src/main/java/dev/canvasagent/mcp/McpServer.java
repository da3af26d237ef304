package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP's methods, independent of the transport: {@code initialize}'s answer, then {@code ping},
 * {@code tools/*}, {@code resources/*} and {@code prompts/*} for a session. A request the protocol
 * cannot take fails with a {@link JsonRpcError} (the transport answers it as the response's
 * {@code error}); a tool that refuses answers a result with {@code isError}.
 */
public final class McpServer {
  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);
  private static final int MAX_URI_CHARS = 2_048;

  private final Map<String, McpTool> tools = new LinkedHashMap<>();
  private final List<McpResource> resources;
  private final Map<String, McpPrompt> prompts = new LinkedHashMap<>();
  private final String version;

  public McpServer(
      List<McpTool> tools, List<McpResource> resources, List<McpPrompt> prompts, String version) {
    tools.forEach(tool -> this.tools.put(tool.name(), tool));
    this.resources = List.copyOf(resources);
    prompts.forEach(prompt -> this.prompts.put(prompt.name(), prompt));
    this.version = version;
  }

  /**
   * The revision the session will speak: the one asked for when this server speaks it, else the
   * newest. INVALID_PARAMS when initialize names none.
   */
  public static String negotiate(JsonObject params) {
    Object asked = params.getValue("protocolVersion");
    if (!(asked instanceof String requested) || requested.isBlank()) {
      throw JsonRpcError.invalidParams("initialize needs params.protocolVersion, a string");
    }
    if (params.containsKey("clientInfo")
        && !(params.getValue("clientInfo") instanceof JsonObject)) {
      throw JsonRpcError.invalidParams("params.clientInfo must be an object");
    }
    return McpProtocol.supported(requested) ? requested : McpProtocol.LATEST;
  }

  /** initialize's result for a session that speaks {@code protocolVersion}. */
  public JsonObject initializeResult(String protocolVersion) {
    return new JsonObject()
        .put("protocolVersion", protocolVersion)
        .put(
            "capabilities",
            new JsonObject()
                .put("tools", new JsonObject().put("listChanged", false))
                .put("resources", new JsonObject().put("subscribe", true).put("listChanged", false))
                .put("prompts", new JsonObject().put("listChanged", false)))
        .put(
            "serverInfo",
            new JsonObject()
                .put("name", McpProtocol.SERVER_NAME)
                .put("title", "canvas-agent: shared tldraw boards and Markdown documents")
                .put("version", version))
        .put(
            "instructions",
            "Shared canvases people watch live. Board tools (create_shape, move, align, batch_operations, …) "
                + "act in a room (roomId, or the room of /mcp?room=) through the server's sanitizer; each call "
                + "answers what it created, the revision, and what was adjusted or dropped. canvas_view shows "
                + "the room as a model sees it. Document tools (canvas_*) edit Markdown under an exclusive "
                + "lease (canvas_check_out first); a person's edit takes the lease back.");
  }

  /** One request of an initialized session. */
  public Future<JsonObject> request(
      McpSession session, Grant grant, JsonRpcMessage request, ToolProgress progress) {
    JsonObject params = request.params();
    try {
      return switch (request.method()) {
        case "ping" -> Future.succeededFuture(new JsonObject());
        case "tools/list" -> Future.succeededFuture(listTools(params));
        case "tools/call" -> callTool(session, grant, params, progress).map(ToolResult::toJson);
        case "resources/list" -> listResources(session, grant, params);
        case "resources/templates/list" -> Future.succeededFuture(templates(params));
        case "resources/read" -> readResource(session, grant, params);
        case "resources/subscribe" -> subscribe(session, grant, params);
        case "resources/unsubscribe" -> unsubscribe(session, params);
        case "prompts/list" -> Future.succeededFuture(listPrompts(params));
        case "prompts/get" -> getPrompt(params);
        case "initialize" ->
            throw new JsonRpcError(
                JsonRpcError.INVALID_REQUEST,
                "this session is already initialized; send initialize without Mcp-Session-Id to open another");
        default ->
            throw new JsonRpcError(
                JsonRpcError.METHOD_NOT_FOUND, "method not found: " + request.method());
      };
    } catch (JsonRpcError error) {
      return Future.failedFuture(error);
    }
  }

  /** A notification from the client: nothing it can send needs an answer from this server. */
  public void notification(McpSession session, JsonRpcMessage notification) {
    LOG.atDebug()
        .addKeyValue("mcpSession", session.id().substring(0, 12))
        .addKeyValue("method", notification.method())
        .log("mcp.notification");
  }

  private static void noCursor(JsonObject params) {
    Object cursor = params.getValue("cursor");
    if (cursor != null) {
      // Every list fits one page, so no cursor was ever handed out.
      throw JsonRpcError.invalidParams("unknown cursor: every list here is one page");
    }
  }

  private JsonObject listTools(JsonObject params) {
    noCursor(params);
    JsonArray list = new JsonArray();
    tools.values().forEach(tool -> list.add(tool.descriptor()));
    return new JsonObject().put("tools", list);
  }

  private Future<ToolResult> callTool(
      McpSession session, Grant grant, JsonObject params, ToolProgress progress) {
    if (!(params.getValue("name") instanceof String name)) {
      throw JsonRpcError.invalidParams("tools/call needs params.name, the tool's name");
    }
    McpTool tool = tools.get(name);
    if (tool == null) {
      throw JsonRpcError.invalidParams(
          "unknown tool: " + (name.length() > 64 ? name.substring(0, 64) + "…" : name));
    }
    Object arguments = params.getValue("arguments");
    if (arguments != null && !(arguments instanceof JsonObject)) {
      throw JsonRpcError.invalidParams("params.arguments must be an object");
    }
    JsonObject args = arguments == null ? new JsonObject() : (JsonObject) arguments;
    Future<ToolResult> answered;
    try {
      answered = tool.call(new ToolCall(session, grant, args, progress));
    } catch (RuntimeException thrown) {
      answered = Future.failedFuture(thrown);
    }
    return answered.recover(
        error -> {
          Failure failure = Failure.of(error);
          LOG.atInfo()
              .addKeyValue("mcpSession", session.id().substring(0, 12))
              .addKeyValue("tool", name)
              .addKeyValue("code", failure.code())
              .log("mcp.tool.refused");
          return Future.succeededFuture(
              ToolResult.error(failure.code().name(), failure.getMessage()));
        });
  }

  private Future<JsonObject> listResources(McpSession session, Grant grant, JsonObject params) {
    noCursor(params);
    List<Future<JsonArray>> lists = new ArrayList<>();
    resources.forEach(resource -> lists.add(resource.list(session, grant)));
    return Future.all(lists)
        .map(
            all -> {
              JsonArray list = new JsonArray();
              lists.forEach(each -> list.addAll(each.result()));
              return new JsonObject().put("resources", list);
            });
  }

  private JsonObject templates(JsonObject params) {
    noCursor(params);
    JsonArray list = new JsonArray();
    resources.forEach(resource -> resource.template().ifPresent(list::add));
    return new JsonObject().put("resourceTemplates", list);
  }

  private static String uri(JsonObject params) {
    if (!(params.getValue("uri") instanceof String uri)
        || uri.isEmpty()
        || uri.length() > MAX_URI_CHARS) {
      throw JsonRpcError.invalidParams(
          "params.uri is required: a resource URI of at most " + MAX_URI_CHARS + " characters");
    }
    return uri;
  }

  private McpResource owner(String uri) {
    Optional<McpResource> owner = resources.stream().filter(r -> r.owns(uri)).findFirst();
    return owner.orElseThrow(() -> notFound(uri));
  }

  private static JsonRpcError notFound(String uri) {
    return new JsonRpcError(
        JsonRpcError.RESOURCE_NOT_FOUND,
        "resource not found: " + (uri.length() > 200 ? uri.substring(0, 200) + "…" : uri),
        new JsonObject().put("uri", uri));
  }

  /** NOT_FOUND and FORBIDDEN alike are "resource not found"; other failures as JSON-RPC errors. */
  private static <T> Future<T> resourceFailure(String uri, Throwable error) {
    Failure failure = Failure.of(error);
    if (failure.code() == FailureCode.NOT_FOUND
        || failure.code() == FailureCode.FORBIDDEN
        || failure.code() == FailureCode.SESSION_NOT_FOUND) {
      return Future.failedFuture(notFound(uri));
    }
    if (failure.code().httpStatus() < 500) {
      return Future.failedFuture(
          JsonRpcError.invalidParams(failure.code().name() + ": " + failure.getMessage()));
    }
    return Future.failedFuture(
        new JsonRpcError(
            JsonRpcError.INTERNAL_ERROR,
            failure.code().name() + ": " + failure.getMessage(),
            new JsonObject().put("code", failure.code().name())));
  }

  private Future<JsonObject> readResource(McpSession session, Grant grant, JsonObject params) {
    String uri = uri(params);
    return owner(uri)
        .read(uri, session, grant)
        .map(contents -> new JsonObject().put("contents", contents))
        .recover(error -> resourceFailure(uri, error));
  }

  private Future<JsonObject> subscribe(McpSession session, Grant grant, JsonObject params) {
    String uri = uri(params);
    return owner(uri)
        .subscribe(uri, session, grant)
        .map(new JsonObject())
        .recover(error -> resourceFailure(uri, error));
  }

  private Future<JsonObject> unsubscribe(McpSession session, JsonObject params) {
    String uri = uri(params);
    // Unsubscribing from what was never subscribed changes nothing, and says so by succeeding.
    session.unsubscribe(uri);
    return Future.succeededFuture(new JsonObject());
  }

  private JsonObject listPrompts(JsonObject params) {
    noCursor(params);
    JsonArray list = new JsonArray();
    prompts.values().forEach(prompt -> list.add(prompt.descriptor()));
    return new JsonObject().put("prompts", list);
  }

  private Future<JsonObject> getPrompt(JsonObject params) {
    if (!(params.getValue("name") instanceof String name)) {
      throw JsonRpcError.invalidParams("prompts/get needs params.name");
    }
    McpPrompt prompt = prompts.get(name);
    if (prompt == null) {
      throw JsonRpcError.invalidParams(
          "unknown prompt: " + (name.length() > 64 ? name.substring(0, 64) + "…" : name));
    }
    Object arguments = params.getValue("arguments");
    if (arguments != null && !(arguments instanceof JsonObject)) {
      throw JsonRpcError.invalidParams("params.arguments must be an object");
    }
    return prompt
        .get(arguments == null ? new JsonObject() : (JsonObject) arguments)
        .recover(
            error ->
                Future.failedFuture(JsonRpcError.invalidParams(Failure.of(error).getMessage())));
  }
}
