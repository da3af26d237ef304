package dev.canvasagent.mcpstdio;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * One line the MCP client wrote on stdin: its text, forwarded byte for byte, and what the bridge
 * needs to know of it. {@code json} is the decoded value (an object, or an array or scalar the
 * server will judge).
 */
record ClientMessage(String line, Object json) {

  /** The line decoded; a line that is not JSON throws {@link DecodeException}. */
  static ClientMessage parse(String line) {
    return new ClientMessage(line, Json.decodeValue(line));
  }

  /** The id of a request (a method and a non-null id); a notification or a response has none. */
  Optional<Object> requestId() {
    if (json instanceof JsonObject object
        && object.getValue("method") instanceof String
        && object.getValue("id") != null) {
      return Optional.of(object.getValue("id"));
    }
    return Optional.empty();
  }

  /** What the message is, for stderr: its method, or that it answers the server. */
  String describe() {
    if (json instanceof JsonObject object) {
      if (object.getValue("method") instanceof String method) {
        return method;
      }
      return "a response to the server's request " + object.getValue("id");
    }
    return "a message that is not a JSON-RPC object";
  }

  boolean isInitialize() {
    return requestId().isPresent() && "initialize".equals(((JsonObject) json).getString("method"));
  }

  boolean isInitializedNotification() {
    return json instanceof JsonObject object
        && object.getValue("id") == null
        && "notifications/initialized".equals(object.getValue("method"));
  }
}
