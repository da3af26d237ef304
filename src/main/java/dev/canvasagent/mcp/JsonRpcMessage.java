package dev.canvasagent.mcp;

import io.vertx.core.json.JsonObject;

/**
 * One JSON-RPC 2.0 message as MCP uses it: a request (an {@code id} and a {@code method}), a notification
 * (a method, no id) or a response (an id and a {@code result} or an {@code error}). Batches are not part
 * of MCP since 2025-06-18, so a message is always one object. {@link #read} refuses anything else with
 * {@link JsonRpcError#INVALID_REQUEST}, naming what is wrong.
 */
public record JsonRpcMessage(Kind kind, Object id, String method, JsonObject params) {
  public enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE
  }

  private static final int MAX_METHOD_CHARS = 128;
  private static final int MAX_ID_CHARS = 256;

  public static JsonRpcMessage read(Object parsed) {
    if (parsed instanceof io.vertx.core.json.JsonArray) {
      throw new JsonRpcError(
          JsonRpcError.INVALID_REQUEST,
          "send one JSON-RPC message per request: batches are not supported");
    }
    if (!(parsed instanceof JsonObject message)) {
      throw new JsonRpcError(JsonRpcError.INVALID_REQUEST, "a JSON-RPC message is a JSON object");
    }
    if (!"2.0".equals(message.getValue("jsonrpc"))) {
      throw new JsonRpcError(JsonRpcError.INVALID_REQUEST, "\"jsonrpc\" must be \"2.0\"");
    }
    Object id = message.getValue("id");
    boolean hasId = message.containsKey("id");
    if (hasId && !validId(id)) {
      throw new JsonRpcError(
          JsonRpcError.INVALID_REQUEST,
          "\"id\" must be a string of at most " + MAX_ID_CHARS + " characters or an integer");
    }
    Object method = message.getValue("method");
    if (method == null) {
      if (!hasId || message.containsKey("result") == message.containsKey("error")) {
        throw new JsonRpcError(
            JsonRpcError.INVALID_REQUEST,
            "a message without \"method\" is a response: it has an \"id\" and one of \"result\" or \"error\"");
      }
      return new JsonRpcMessage(Kind.RESPONSE, id, null, null);
    }
    if (!(method instanceof String name) || name.isEmpty() || name.length() > MAX_METHOD_CHARS) {
      throw new JsonRpcError(
          JsonRpcError.INVALID_REQUEST,
          "\"method\" must be a string of 1 to " + MAX_METHOD_CHARS + " characters");
    }
    Object params = message.getValue("params");
    if (params != null && !(params instanceof JsonObject)) {
      throw new JsonRpcError(JsonRpcError.INVALID_REQUEST, "\"params\" must be an object");
    }
    JsonObject named = params == null ? new JsonObject() : (JsonObject) params;
    return new JsonRpcMessage(hasId ? Kind.REQUEST : Kind.NOTIFICATION, id, name, named);
  }

  /** MCP's ids: a string or an integer, never null. */
  private static boolean validId(Object id) {
    if (id instanceof String text) {
      return text.length() <= MAX_ID_CHARS;
    }
    return id instanceof Integer || id instanceof Long;
  }

  public static JsonObject result(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  public static JsonObject error(Object id, JsonRpcError error) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", error.toJson());
  }

  public static JsonObject notification(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method).put("params", params);
  }

  /** The request's {@code _meta.progressToken}, or null when it asked for no progress. */
  public Object progressToken() {
    Object token =
        params != null && params.getValue("_meta") instanceof JsonObject meta
            ? meta.getValue("progressToken")
            : null;
    return token instanceof String || token instanceof Integer || token instanceof Long
        ? token
        : null;
  }
}
