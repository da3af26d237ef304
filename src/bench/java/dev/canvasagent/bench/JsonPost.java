package dev.canvasagent.bench;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;

/** A JSON body POSTed to the server under test on 127.0.0.1, and its answer read whole. */
final class JsonPost {
  private JsonPost() {}

  /** The answer's status and body, whatever the status. */
  record Answer(int status, Buffer body) {}

  static Future<Answer> send(HttpClient client, int port, String uri, Buffer body) {
    return client
        .request(HttpMethod.POST, port, "127.0.0.1", uri)
        .compose(
            request ->
                request
                    .putHeader("content-type", "application/json")
                    .send(body)
                    .compose(
                        response ->
                            response
                                .body()
                                .map(answer -> new Answer(response.statusCode(), answer))));
  }
}
