package dev.canvasagent.mcpstdio;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.util.Objects;

/**
 * The server's JSON-RPC messages on their way to stdout: each one line, whether it came as a JSON
 * body or as an SSE event's data.
 */
final class ServerMessages {
  private final StdoutLines stdout;
  private final PrintStream err;

  ServerMessages(StdoutLines stdout, PrintStream err) {
    this.stdout = stdout;
    this.err = err;
  }

  /**
   * Writes one message as one line and answers its decoded JSON; an empty one (an SSE event that
   * only primes an id) is skipped and text that is not JSON is dropped (stdout carries nothing
   * else), both answering null.
   */
  Object relay(String text, String source) {
    if (text.isBlank()) {
      return null;
    }
    Object json;
    try {
      json = Json.decodeValue(text);
    } catch (DecodeException notJson) {
      err.println("mcp-stdio: the server sent " + source + " that is not JSON; dropped");
      return null;
    }
    stdout.write(compact(text));
    return json;
  }

  /**
   * The JSON text without its whitespace between tokens (a pretty-printed body holds newlines),
   * strings untouched: unlike decoding and encoding again, no number is rewritten.
   */
  static String compact(String json) {
    StringBuilder compact = new StringBuilder(json.length());
    boolean inString = false;
    boolean escaped = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        compact.append(c);
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
        compact.append(c);
      } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        compact.append(c);
      }
    }
    return compact.toString();
  }

  void write(JsonObject message) {
    stdout.write(message.encode());
  }

  /** Whether {@code json} is the response (result or error) to the request with {@code id}. */
  static boolean answers(Object json, Object id) {
    if (!(json instanceof JsonObject object)
        || !(object.containsKey("result") || object.containsKey("error"))) {
      return false;
    }
    Object answered = object.getValue("id");
    return Objects.equals(answered, id)
        || (answered instanceof Number
            && id instanceof Number
            && answered.toString().equals(id.toString()));
  }
}
