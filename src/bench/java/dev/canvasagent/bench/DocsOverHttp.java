package dev.canvasagent.bench;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The fat jar as a server of its own (memory store, port 0) holding one document, and document tool
 * calls to it over one kept-alive HTTP/1.1 connection, one at a time: what an agent's tool call costs
 * end to end, the JSON encoding of the answer and the loopback round trip included.
 */
final class DocsOverHttp implements AutoCloseable {
  private static final long START_SECONDS = 60;

  private final BenchServer server;
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final URI base;
  private final String docId;

  private DocsOverHttp(BenchServer server, int port, String content) {
    this.server = server;
    this.base = URI.create("http://127.0.0.1:" + port);
    this.docId =
        post("/api/docs", new JsonObject().put("content", content).put("title", "Benchmark"), 201)
            .getString("id");
  }

  static DocsOverHttp start(Path jar, String heap, Path log, String content) throws Exception {
    BenchServer server = BenchServer.start(jar, heap, List.of(), log);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "bench-stop-server"));
    try {
      return new DocsOverHttp(server, server.awaitPort(START_SECONDS), content);
    } catch (Exception | Error e) {
      server.close();
      throw e;
    }
  }

  /** One tool call; its answer, or an exception naming the status and body when it is not 200. */
  JsonObject tool(String name, JsonObject args) {
    return post("/api/docs/" + docId + "/tools/" + name, args, 200);
  }

  private JsonObject post(String path, JsonObject body, int expectedStatus) {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
            .build();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != expectedStatus) {
        throw new IllegalStateException(
            "POST " + path + ": " + response.statusCode() + " " + response.body());
      }
      return new JsonObject(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  long serverPid() {
    return server.pid();
  }

  @Override
  public void close() {
    server.close();
  }
}
