package dev.canvasagent.mcpstdio;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The JSON-RPC error responses the bridge writes itself, when the client's request got no
 * JSON-RPC answer from the server: a line that is not JSON, an HTTP error, a server out of reach.
 * The client sees the request's id and a message that says what to do.
 */
final class JsonRpcErrors {
  static final int PARSE_ERROR = -32700;

  /** JSON-RPC's first "server error" code: the transport, not the method, failed. */
  static final int TRANSPORT_ERROR = -32000;

  /** How much of an HTTP error's body is quoted: enough for a reason, never a whole page. */
  static final int MAX_QUOTED_CHARS = 300;

  private JsonRpcErrors() {}

  static JsonObject parseError() {
    return response(null, PARSE_ERROR, "parse error: the line on stdin is not JSON", null);
  }

  /**
   * The error for a request the server answered with an HTTP error: the body's own JSON-RPC error
   * when it sent one, else {@link #TRANSPORT_ERROR} naming the status and the server's text.
   */
  static JsonObject fromHttp(Object id, int status, Buffer body, boolean sessionSent) {
    JsonObject bodyError = jsonRpcError(body);
    if (bodyError != null) {
      return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", bodyError);
    }
    return response(
        id,
        TRANSPORT_ERROR,
        httpProblem(status, body, sessionSent),
        new JsonObject().put("httpStatus", status));
  }

  /** What went wrong, in words: the status, what it likely means here, and the server's text. */
  static String httpProblem(int status, Buffer body, boolean sessionSent) {
    String meaning =
        switch (status) {
          case 401 -> "unauthorized: check --token (or CANVAS_AGENT_TOKEN)";
          case 403 -> "forbidden: the token does not grant this";
          case 404 ->
              sessionSent
                  ? "session expired: the server no longer knows this MCP session; reconnect to start a new one"
                  : "not found: check that --url is the server's /mcp endpoint";
          case 413 -> "the message is larger than the server accepts";
          case 429 -> "too many requests: the server's rate limit";
          default -> status >= 500 ? "the server failed" : "the server refused the message";
        };
    String text = serverText(body);
    return "HTTP " + status + " " + meaning + (text.isEmpty() ? "" : ": " + text);
  }

  static JsonObject unreachable(Object id, String shownUrl, Throwable cause) {
    return response(id, TRANSPORT_ERROR, unreachableText(shownUrl, cause), null);
  }

  static String unreachableText(String shownUrl, Throwable cause) {
    return "cannot reach the server at " + shownUrl + ": " + cause.getMessage();
  }

  static JsonObject response(Object id, int code, String message, JsonObject data) {
    JsonObject error = new JsonObject().put("code", code).put("message", message);
    if (data != null) {
      error.put("data", data);
    }
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", error);
  }

  /** A JSON-RPC response's error object, if the body is one. */
  private static JsonObject jsonRpcError(Buffer body) {
    if (decode(body) instanceof JsonObject object
        && object.getValue("error") instanceof JsonObject error
        && error.getValue("code") instanceof Number
        && error.getValue("message") instanceof String) {
      return error;
    }
    return null;
  }

  /**
   * The server's reason: a JSON body's {@code message} or {@code error} string, else the body's
   * text, on one line and bounded.
   */
  private static String serverText(Buffer body) {
    String text;
    if (decode(body) instanceof JsonObject object) {
      text =
          object.getValue("message") instanceof String message
              ? message
              : object.getValue("error") instanceof String error ? error : object.encode();
    } else {
      text = body == null ? "" : body.toString();
    }
    text = text.replaceAll("\\s+", " ").trim();
    return text.length() > MAX_QUOTED_CHARS ? text.substring(0, MAX_QUOTED_CHARS) + "…" : text;
  }

  private static Object decode(Buffer body) {
    if (body == null || body.length() == 0) {
      return null;
    }
    try {
      return Json.decodeValue(body);
    } catch (DecodeException notJson) {
      return null;
    }
  }
}
