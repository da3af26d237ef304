package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class AuthSmokeTest {
  TestServer server;
  TestTokens tokens;

  @BeforeEach
  void start(Vertx vertx) {
    server = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    tokens = new TestTokens(vertx);
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
  }

  int status(String path, String token) {
    var request = server.http().get(path);
    if (token != null) {
      request.putHeader("authorization", TestTokens.bearer(token));
    }
    var response = Await.result(request.send());
    return response.statusCode();
  }

  @Test
  void tokensDecide() {
    assertEquals(200, status("/health", null));
    assertEquals(401, status("/api/rooms/a/board", null));
    assertEquals(401, status("/api/rooms/a/board", tokens.expired("a")));
    assertEquals(403, status("/api/rooms/a/board", tokens.editor("b")));
    assertEquals(200, status("/api/rooms/a/board", tokens.viewer("a")));
    var run = Await.result(server.http().post("/api/canvas-agent/run").putHeader("authorization", TestTokens.bearer(tokens.viewer("a")))
        .sendJsonObject(new JsonObject().put("roomId", "a").put("message", "draw a box")));
    assertEquals(403, run.statusCode(), run.bodyAsString());
    run = Await.result(server.http().post("/api/canvas-agent/run").putHeader("authorization", TestTokens.bearer(tokens.editor("a")))
        .sendJsonObject(new JsonObject().put("roomId", "a").put("message", "draw a box")));
    assertEquals(202, run.statusCode(), run.bodyAsString());
  }
}
