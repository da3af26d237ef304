package dev.canvasagent.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Who may read {@code /metrics} (docs/operations.md, "Who may scrape it"): with auth on, only an
 * admin's token; no token or a bad one is 401, a viewer's or an editor's 403, and a refused scrape
 * shows nothing of the meters. With auth off (loopback only) anyone there may.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsAccessTest {
  Vertx vertx;
  TestServer secured;
  TestServer open;
  TestTokens tokens;

  @BeforeAll
  void start() {
    vertx = NodeRegistry.vertx(new VertxOptions());
    secured = TestServer.start(vertx, TestServer.config(TestTokens.ENVIRONMENT));
    open = TestServer.start(vertx, TestServer.config(Map.of()));
    tokens = new TestTokens(vertx);
  }

  @AfterAll
  void stop() {
    Await.result(secured.stop());
    Await.result(open.stop());
    Await.result(vertx.close());
  }

  @Test
  void withoutATokenOrWithABadOneTheAnswerIs401() {
    refused(scrape(secured, null), 401, "UNAUTHENTICATED");
    refused(scrape(secured, "not-a-jwt"), 401, "UNAUTHENTICATED");
    refused(scrape(secured, tokens.expired("metrics-room")), 401, "TOKEN_EXPIRED");
    HttpResponse<Buffer> malformed =
        Await.result(secured.http().get("/metrics").putHeader("Authorization", "Basic abc").send());
    refused(malformed, 401, "UNAUTHENTICATED");
  }

  @Test
  void aViewersOrAnEditorsTokenIsForbiddenWhateverItsRooms() {
    refused(scrape(secured, tokens.viewer("metrics-room")), 403, "FORBIDDEN");
    refused(scrape(secured, tokens.editor("metrics-room")), 403, "FORBIDDEN");
    refused(scrape(secured, tokens.editor("*")), 403, "FORBIDDEN");
  }

  @Test
  void anAdminsTokenGetsTheScrape() {
    HttpResponse<Buffer> admin = scrape(secured, tokens.admin());
    assertEquals(200, admin.statusCode(), admin.bodyAsString());
    assertTrue(admin.getHeader("content-type").startsWith("text/plain; version=0.0.4"));
    assertTrue(
        admin.bodyAsString().contains("canvas_agent_runs_total")
            || admin.bodyAsString().contains("canvas_agent_open_streams"));
  }

  @Test
  void withAuthOffTheLoopbackCallerGetsTheScrape() {
    HttpResponse<Buffer> anyone = scrape(open, null);
    assertEquals(200, anyone.statusCode(), anyone.bodyAsString());
    assertTrue(anyone.bodyAsString().contains("canvas_agent_open_streams"));
  }

  private HttpResponse<Buffer> scrape(TestServer server, String token) {
    HttpRequest<Buffer> request = server.http().get("/metrics");
    if (token != null) {
      request.putHeader("Authorization", TestTokens.bearer(token));
    }
    return Await.result(request.send());
  }

  private static void refused(HttpResponse<Buffer> response, int status, String code) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    assertEquals(
        code,
        response.bodyAsJsonObject().getJsonObject("error").getString("code"),
        response.bodyAsString());
    assertTrue(!response.bodyAsString().contains("canvas_agent_"), "a refusal shows no meter");
    if (status == 401) {
      assertTrue(response.getHeader("WWW-Authenticate") != null, "401 carries its challenge");
    }
  }
}
