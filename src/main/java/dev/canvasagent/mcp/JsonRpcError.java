package dev.canvasagent.mcp;

import io.vertx.core.json.JsonObject;

/**
 * A JSON-RPC error answered in place of a result: the protocol's own codes (JSON-RPC 2.0 and MCP's),
 * each with a message that names the problem. A tool that fails is not one of these: it answers a
 * result with {@code isError} ({@link ToolResult#error}), so the model can read what went wrong.
 */
public final class JsonRpcError extends RuntimeException {
  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;

  /** The transport's own: a session id this server does not know (MCP's SDKs use it too). */
  public static final int SESSION_NOT_FOUND = -32001;

  /** MCP's code for a resource that does not exist (or that the caller may not see). */
  public static final int RESOURCE_NOT_FOUND = -32002;

  private final int code;
  private final JsonObject data;

  public JsonRpcError(int code, String message) {
    this(code, message, null);
  }

  public JsonRpcError(int code, String message, JsonObject data) {
    super(message, null, false, false);
    this.code = code;
    this.data = data;
  }

  public static JsonRpcError invalidParams(String message) {
    return new JsonRpcError(INVALID_PARAMS, message);
  }

  public int code() {
    return code;
  }

  /** {@code {code, message, data?}}, the {@code error} member of a response. */
  public JsonObject toJson() {
    JsonObject error = new JsonObject().put("code", code).put("message", getMessage());
    if (data != null) {
      error.put("data", data);
    }
    return error;
  }
}
