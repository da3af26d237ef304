package dev.canvasagent.mcpstdio;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Streamable HTTP MCP server played by the test, its answers chosen by the JSON-RPC method: what
 * a real one would say, and the failures the bridge must map. Every request it receives is kept,
 * headers and body, for the test to check.
 */
final class FakeMcpServer {
  static final String SESSION = "session-7f3a";
  static final String VERSION = "2025-11-25";

  /** One request as the server saw it. */
  record Received(HttpMethod method, MultiMap headers, String body) {
    String header(String name) {
      return headers.get(name);
    }

    String rpcMethod() {
      return body.isEmpty() ? "" : new JsonObject(body).getString("method", "");
    }
  }

  final List<Received> received = new CopyOnWriteArrayList<>();

  /** Completed by the test to let {@code tools/call} of {@code slow} answer. */
  final Promise<Void> releaseSlowCall = Promise.promise();

  /** What the GET stream does: {@code drop-then-resume} (the default) or answer 405. */
  volatile boolean offersStream = true;

  private final Vertx vertx;
  private HttpServer server;
  private int streamsOpened;
  private Object pollingRequestId;

  FakeMcpServer(Vertx vertx) {
    this.vertx = vertx;
  }

  Future<Integer> start() {
    server = vertx.createHttpServer().requestHandler(this::handle);
    return server.listen(0, "127.0.0.1").map(HttpServer::actualPort);
  }

  Future<Void> close() {
    return server.close();
  }

  List<Received> received(HttpMethod method) {
    return received.stream().filter(request -> request.method().equals(method)).toList();
  }

  private void handle(HttpServerRequest request) {
    request
        .body()
        .onSuccess(
            body -> {
              received.add(
                  new Received(
                      request.method(),
                      MultiMap.caseInsensitiveMultiMap().addAll(request.headers()),
                      body.toString()));
              HttpServerResponse response = request.response();
              switch (request.method().name()) {
                case "GET" -> stream(request, response);
                case "DELETE" -> response.setStatusCode(200).end();
                default -> post(new JsonObject(body.toString()), response);
              }
            });
  }

  private void post(JsonObject message, HttpServerResponse response) {
    Object id = message.getValue("id");
    String method = message.getString("method", "");
    switch (method) {
      case "initialize" ->
          // Pretty-printed on purpose: the bridge must still write it as one line.
          json(
              response.putHeader(SessionHeaders.SESSION_ID, SESSION),
              result(
                      id,
                      new JsonObject()
                          .put("protocolVersion", VERSION)
                          .put("capabilities", new JsonObject())
                          .put(
                              "serverInfo",
                              new JsonObject().put("name", "fake").put("version", "1")))
                  .encodePrettily());
      case "notifications/initialized", "notifications/cancelled" ->
          response.setStatusCode(202).end();
      case "notifications/refused" -> response.setStatusCode(500).end("no notifications today");
      case "ping" -> json(response, result(id, new JsonObject()).encode());
      case "tools/call" -> {
        if ("slow".equals(message.getJsonObject("params").getString("name"))) {
          releaseSlowCall
              .future()
              .onComplete(
                  released ->
                      json(response, result(id, new JsonObject().put("slow", true)).encode()));
        } else {
          sse(response, id);
        }
      }
      case "fail/401" -> response.setStatusCode(401).end("missing bearer token");
      case "fail/404" -> response.setStatusCode(404).end();
      case "fail/500" -> response.setStatusCode(500).end("the store is down\nsee the logs");
      case "fail/jsonrpc" ->
          json(
              response.setStatusCode(400),
              new JsonObject()
                  .put("jsonrpc", "2.0")
                  .put("id", id)
                  .put(
                      "error",
                      new JsonObject().put("code", -32602).put("message", "invalid params: name"))
                  .encode());
      case "poll/resume" -> {
        // Only a priming event: the client is to come back with a GET and Last-Event-ID.
        pollingRequestId = id;
        response.setChunked(true).putHeader("content-type", "text/event-stream");
        response.end("id: r1\ndata:\n\n");
      }
      case "cut/short" -> {
        response.setChunked(true).putHeader("content-type", "text/event-stream");
        response.write("event: message\ndata: " + progress(0.5).encode() + "\n\n");
        response.end();
      }
      default -> response.setStatusCode(400).end("unexpected " + method);
    }
  }

  /** A progress notification, then the result, as one SSE response. */
  private void sse(HttpServerResponse response, Object id) {
    response.setChunked(true).putHeader("content-type", "text/event-stream; charset=utf-8");
    response.write("id: p0\ndata:\n\n"); // a priming event, no message
    response.write("id: p1\nevent: message\ndata: " + progress(0.5).encode() + "\n\n");
    response.write(
        "id: p2\nevent: message\ndata: "
            + result(id, new JsonObject().put("content", "drawn")).encode()
            + "\n\n");
    response.end();
  }

  /**
   * The first GET stream pushes one notification with an id and ends (a dropped stream); the next
   * pushes another and stays open.
   */
  private void stream(HttpServerRequest request, HttpServerResponse response) {
    if ("r1".equals(request.getHeader(SessionHeaders.LAST_EVENT_ID))) {
      response.setChunked(true).putHeader("content-type", "text/event-stream");
      response.write("id: r2\ndata: " + progress(0.9).encode() + "\n\n");
      response.write(
          "id: r3\ndata: "
              + result(pollingRequestId, new JsonObject().put("polled", true)).encode()
              + "\n\n");
      return; // left open: the client closes it once answered
    }
    if (!offersStream) {
      response.setStatusCode(405).end();
      return;
    }
    streamsOpened++;
    response.setChunked(true).putHeader("content-type", "text/event-stream");
    if (streamsOpened == 1) {
      response.write("id: e1\ndata: " + notification("notifications/tools/list_changed") + "\n\n");
      response.end();
    } else {
      response.write(
          "id: e2\ndata: " + notification("notifications/resources/list_changed") + "\n\n");
    }
  }

  private static void json(HttpServerResponse response, String body) {
    response.putHeader("content-type", "application/json").end(body);
  }

  static JsonObject result(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  static JsonObject progress(double progress) {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("method", "notifications/progress")
        .put("params", new JsonObject().put("progressToken", "t1").put("progress", progress));
  }

  static String notification(String method) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method).encode();
  }
}
