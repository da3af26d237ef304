package dev.canvasagent.support;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare Streamable HTTP client for {@code /mcp}, for tests of the transport itself: it sends exactly
 * the headers and bytes a test gives, and reads an event-stream answer into its messages. Tests of the
 * protocol as clients speak it use the official SDK ({@link McpClients}).
 */
public final class McpHttp {
  public static final String ACCEPT = "application/json, text/event-stream";

  private final WebClient http;
  private final int port;
  private final String token;
  private String session;
  private int nextId = 1;

  public McpHttp(WebClient http, int port, String token) {
    this.http = http;
    this.port = port;
    this.token = token;
  }

  /** Initializes and keeps the session id. */
  public JsonObject initialize(String query) {
    HttpResponse<Buffer> answer =
        Await.result(
            post(
                "/mcp" + query,
                MultiMap.caseInsensitiveMultiMap(),
                Buffer.buffer(
                    request(
                            "initialize",
                            new JsonObject()
                                .put("protocolVersion", "2025-11-25")
                                .put("capabilities", new JsonObject())
                                .put(
                                    "clientInfo",
                                    new JsonObject().put("name", "test").put("version", "1")))
                        .encode())));
    session = answer.getHeader("Mcp-Session-Id");
    if (answer.statusCode() != 200 || session == null) {
      throw new AssertionError("initialize: " + answer.statusCode() + " " + answer.bodyAsString());
    }
    Await.result(
        post(
            "/mcp",
            headers(),
            Buffer.buffer(
                new JsonObject()
                    .put("jsonrpc", "2.0")
                    .put("method", "notifications/initialized")
                    .encode())));
    return answer.bodyAsJsonObject();
  }

  public String session() {
    return session;
  }

  public JsonObject request(String method, JsonObject params) {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", nextId++)
        .put("method", method)
        .put("params", params);
  }

  /** A request in this session, answered as JSON: the whole response message. */
  public JsonObject call(String method, JsonObject params) {
    HttpResponse<Buffer> answer =
        Await.result(post("/mcp", headers(), Buffer.buffer(request(method, params).encode())), 60);
    if (answer.statusCode() != 200) {
      throw new AssertionError(method + ": " + answer.statusCode() + " " + answer.bodyAsString());
    }
    String type = answer.getHeader("content-type");
    if (type != null && type.startsWith("text/event-stream")) {
      List<JsonObject> messages = events(answer.bodyAsString());
      return messages.get(messages.size() - 1);
    }
    return answer.bodyAsJsonObject();
  }

  /** {@code tools/call}'s result. */
  public JsonObject tool(String name, JsonObject arguments) {
    JsonObject answer =
        call("tools/call", new JsonObject().put("name", name).put("arguments", arguments));
    if (answer.containsKey("error")) {
      throw new AssertionError(name + ": " + answer.encode());
    }
    return answer.getJsonObject("result");
  }

  /** The session's own headers: Accept, the session id, the protocol version, the token. */
  public MultiMap headers() {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    if (session != null) {
      headers.add("Mcp-Session-Id", session);
    }
    headers.add("MCP-Protocol-Version", "2025-11-25");
    return headers;
  }

  /** POSTs {@code body} with JSON content type, the default Accept and the token unless {@code headers} set them. */
  public Future<HttpResponse<Buffer>> post(String path, MultiMap headers, Buffer body) {
    HttpRequest<Buffer> request = http.post(port, "127.0.0.1", path);
    request.putHeader("content-type", "application/json").putHeader("accept", ACCEPT);
    if (token != null) {
      request.putHeader("authorization", "Bearer " + token);
    }
    headers.forEach(header -> request.putHeader(header.getKey(), header.getValue()));
    return request.sendBuffer(body);
  }

  /** The messages of an event-stream body ({@code data:} lines). */
  public static List<JsonObject> events(String body) {
    List<JsonObject> messages = new ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.startsWith("data: ")) {
        messages.add(new JsonObject(line.substring(6)));
      }
    }
    return messages;
  }
}
