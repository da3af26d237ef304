package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.patch.PatchEngineVerticle;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store fails under the server (its schema is dropped while it runs, so every statement meets
 * PostgreSQL's {@code relation "…" does not exist}): each request that needed it is answered 5xx with
 * a generic message and a correlation id, never the driver's text; the operator's log has that
 * correlation id on the line with the driver's text.
 */
@ExtendWith(VertxExtension.class)
class StoreFailureTextTest {
  static final String ROOM = "store-fails";
  static final Pattern CORRELATION_ID = Pattern.compile("correlation id ([0-9a-f]{16})");

  @Test
  void aFailingStoreIsAnsweredWithoutTheDriversText(Vertx vertx) {
    DatabaseConfig database = TestDatabase.freshSchema();
    List<HttpResponse<Buffer>> answers = new ArrayList<>();
    String logged;
    try (LogCapture log = LogCapture.open()) {
      TestServer server = TestServer.start(vertx, Optional.of(database));
      try {
        String sessionId =
            created(
                    send(
                        server,
                        HttpMethod.POST,
                        "/api/sessions",
                        new JsonObject().put("roomId", ROOM).put("title", "T")))
                .getJsonObject("session")
                .getString("id");
        String docId =
            created(
                    send(
                        server,
                        HttpMethod.POST,
                        "/api/docs",
                        new JsonObject().put("roomId", ROOM).put("content", "# Doc\n")))
                .getString("id");
        TestDatabase.drop(database);

        answers.add(
            send(
                server,
                HttpMethod.POST,
                "/api/sessions",
                new JsonObject().put("roomId", ROOM).put("title", "T")));
        answers.add(send(server, HttpMethod.GET, "/api/sessions/" + sessionId, null));
        answers.add(
            send(
                server,
                HttpMethod.PATCH,
                "/api/sessions/" + sessionId,
                new JsonObject().put("title", "U")));
        answers.add(
            send(
                server,
                HttpMethod.POST,
                "/api/canvas-agent/run",
                new JsonObject().put("roomId", ROOM).put("message", "hi")));
        answers.add(
            send(
                server,
                HttpMethod.POST,
                "/api/canvas-agent/run",
                new JsonObject()
                    .put("roomId", ROOM)
                    .put("message", "hi")
                    .put("sessionId", sessionId)));
        answers.add(
            send(
                server,
                HttpMethod.POST,
                "/api/rooms/" + ROOM + "/transcript",
                new JsonObject().put("speaker", "A").put("text", "t")));
        answers.add(send(server, HttpMethod.GET, "/api/rooms/" + ROOM + "/board", null));
        answers.add(send(server, HttpMethod.GET, "/api/sessions/" + sessionId + "/todos", null));
        answers.add(send(server, HttpMethod.GET, "/api/docs/" + docId, null));
        answers.add(
            send(
                server,
                HttpMethod.POST,
                "/api/docs",
                new JsonObject().put("roomId", ROOM).put("content", "x\n")));
      } finally {
        Await.result(server.stop());
      }
      logged = log.text();
    }

    for (HttpResponse<Buffer> answer : answers) {
      String body = answer.bodyAsString();
      assertTrue(answer.statusCode() >= 500, body);
      for (String driverText :
          List.of("does not exist", "relation \"", "42P01", database.schema(), "canvas_")) {
        assertFalse(
            body.contains(driverText), "the driver's text (" + driverText + ") in: " + body);
      }
      if (body.contains("\"error\":{\"code\"")) {
        JsonObject error = answer.bodyAsJsonObject().getJsonObject("error");
        Matcher id = CORRELATION_ID.matcher(error.getString("message"));
        assertTrue(id.find(), "a correlation id in: " + body);
        String line = line(logged, id.group(1));
        assertTrue(
            line.contains("does not exist"),
            "the log line of " + id.group(1) + " has the driver's text: " + line);
      }
    }
    assertEquals(503, answers.get(0).statusCode(), answers.get(0).bodyAsString());
    assertEquals(
        "STORE_UNAVAILABLE",
        answers.get(0).bodyAsJsonObject().getJsonObject("error").getString("code"));
  }

  /** The health probe reports a store that does not answer, in the same words: its text goes to the log. */
  @Test
  void theHealthProbeReportsAFailingStoreWithoutItsText(Vertx vertx) {
    String driverText = "FATAL: password authentication failed for user \"canvas\" (28P01)";
    MemoryStore memory = new MemoryStore();
    Store failing =
        (Store)
            Proxy.newProxyInstance(
                Store.class.getClassLoader(),
                new Class<?>[] {Store.class},
                (proxy, method, arguments) ->
                    method.getName().equals("ping")
                        ? Future.failedFuture(new IllegalStateException(driverText))
                        : method.invoke(memory, arguments));
    Await.result(
        vertx.deployVerticle(
            new PatchEngineVerticle(
                failing, TestServer.config(Map.of()).boardCache(), new NodeBoards())));

    JsonObject report =
        Await.result(
                vertx
                    .eventBus()
                    .<JsonObject>request(
                        Address.health("patch-engine").address(), new JsonObject()))
            .body();

    JsonObject store = report.getJsonObject("store");
    assertEquals(false, store.getBoolean("ok"), report.encode());
    assertFalse(store.getString("error").contains("password"), report.encode());
    assertTrue(CORRELATION_ID.matcher(store.getString("error")).find(), report.encode());
  }

  private static JsonObject created(HttpResponse<Buffer> response) {
    assertEquals(201, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  private static HttpResponse<Buffer> send(
      TestServer server, HttpMethod method, String path, JsonObject body) {
    var request = server.http().request(method, path);
    return Await.result(
        body == null
            ? request.send()
            : request.putHeader("content-type", "application/json").sendJsonObject(body));
  }

  /** The first log line that holds {@code text}, or "". */
  private static String line(String logged, String text) {
    return logged.lines().filter(line -> line.contains(text)).findFirst().orElse("");
  }
}
