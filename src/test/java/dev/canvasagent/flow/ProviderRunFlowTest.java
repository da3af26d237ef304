package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.StubProvider;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A run against a real provider class, end to end: the server's providers point at a stub on
 * loopback, a run names {@code anthropic:…} or {@code openai:…}, and the stub's streamed tool calls
 * reach the room as action envelopes, then {@code done}. Models whose provider is not configured,
 * or that name no model, are refused at submission.
 */
@ExtendWith(VertxExtension.class)
class ProviderRunFlowTest {
  private StubProvider stub;
  private TestServer server;

  @BeforeEach
  void start(Vertx vertx) {
    stub = Await.result(StubProvider.start(vertx));
    server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "ANTHROPIC_API_KEY",
                    "sk-ant-flow",
                    "ANTHROPIC_BASE_URL",
                    stub.baseUrl(),
                    "OPENAI_API_KEY",
                    "sk-flow",
                    "OPENAI_BASE_URL",
                    stub.baseUrl() + "/v1")));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
    Await.result(stub.close());
  }

  @ParameterizedTest
  @CsvSource({"anthropic:claude-test, anthropic-answer.sse", "openai:gpt-test, openai-answer.sse"})
  void aRunOnAProviderStreamsItsToolCallsToTheRoomAsActions(String model, String answer)
      throws IOException {
    stub.then(StubProvider.Stream.whole(resource(answer)));
    String roomId = "provider-" + model.substring(0, model.indexOf(':'));
    SseClient sse = server.events(roomId);

    var response =
        server.postRun(
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "draw two shapes")
                .put("model", model));
    assertEquals(202, response.statusCode(), response.bodyAsString());
    String sessionId = response.bodyAsJsonObject().getString("sessionId");
    List<SseEvent> events = Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));

    JsonObject last = events.get(events.size() - 1).data();
    assertEquals("done", last.getString("state"), last.encode());
    List<JsonObject> actions =
        events.stream()
            .filter(event -> event.event().equals("agent:action"))
            .flatMap(
                event -> event.data().getJsonArray("actions").stream().map(JsonObject.class::cast))
            .toList();
    assertEquals(
        List.of("create_shape", "create_shape"),
        actions.stream().map(a -> a.getString("name")).toList());
    assertEquals(2, server.board(roomId).getJsonArray("records").size());
    assertEquals(1, stub.received().size());
    JsonObject sent = stub.received().get(0).body();
    assertEquals(model.substring(model.indexOf(':') + 1), sent.getString("model"));
    assertTrue(sent.getJsonArray("tools").size() > 0, "the catalog's tools were sent");
    Await.result(sse.close());
  }

  @Test
  void aModelWhoseProviderHasNoKeyIsRefusedNamingTheVariable() {
    var response =
        server.postRun(
            new JsonObject()
                .put("roomId", "r")
                .put("message", "hi")
                .put("model", "google:gemini-2.5-flash"));

    assertEquals(422, response.statusCode(), response.bodyAsString());
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertEquals("MODEL_NOT_CONFIGURED", error.getString("code"));
    assertTrue(error.getString("message").contains("GEMINI_API_KEY"), error.getString("message"));
    assertEquals(0, stub.received().size());
  }

  @Test
  void aModelKeyWithoutAModelNameIsUnknown() {
    var response =
        server.postRun(
            new JsonObject().put("roomId", "r").put("message", "hi").put("model", "anthropic:"));

    assertEquals(400, response.statusCode(), response.bodyAsString());
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertEquals("UNKNOWN_MODEL", error.getString("code"));
    assertTrue(
        error.getString("message").contains("anthropic:<model>"), error.getString("message"));
  }

  @Test
  void aDefaultModelWhoseProviderIsNotConfiguredStopsStartupNamingTheVariable(Vertx vertx) {
    Throwable failure =
        Await.failure(
            dev.canvasagent.CanvasAgent.start(
                vertx,
                TestServer.config(
                    Map.of("CANVAS_STEWARD_MODEL", "openai-compatible:llama3.1:8b"))));

    assertTrue(failure.getMessage().contains("OPENAI_COMPATIBLE_BASE_URL"), failure.getMessage());
    assertTrue(failure.getMessage().contains("CANVAS_STEWARD_MODEL"), failure.getMessage());
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in =
        ProviderRunFlowTest.class.getResourceAsStream("/providers/http/" + name)) {
      return in.readAllBytes();
    }
  }
}
