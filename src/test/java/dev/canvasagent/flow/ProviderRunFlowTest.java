package dev.canvasagent.flow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ProviderStreams;
import dev.canvasagent.support.ProviderStreams.Call;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.StubProvider;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run against a real provider class, end to end: the server's providers point at a stub on
 * loopback, a run names {@code anthropic:…} or {@code openai:…}, and the stub's streamed tool calls
 * reach the room as action envelopes, then {@code done} — in our verbs, whichever dialect the model
 * wrote them in. Models whose provider is not configured, or that name no model, are refused at
 * submission.
 */
@ExtendWith(VertxExtension.class)
class ProviderRunFlowTest {
  static final List<String> OUR_VERBS = ActionCatalog.standard().names();

  private StubProvider stub;
  private TestServer server;

  @BeforeEach
  void start(Vertx vertx) {
    stub = Await.result(StubProvider.start(vertx));
    server = TestServer.start(vertx, TestServer.config(stub.anthropicAndOpenAi()));
  }

  @AfterEach
  void stop() {
    Await.result(server.stop());
    Await.result(stub.close());
  }

  @ParameterizedTest
  @CsvSource({"anthropic:claude-test, anthropic-answer.sse", "openai:gpt-test, openai-answer.sse"})
  void aRunOnAProviderStreamsItsToolCallsToTheRoomAsActions(String model, String answer) {
    String roomId = "provider-" + model.substring(0, model.indexOf(':'));
    JsonObject last = run(roomId, model, resource("/providers/http/" + answer));

    assertEquals(List.of("create_shape", "create_shape"), verbs(last));
    assertEquals(2, server.board(roomId).getJsonArray("records").size());
    assertEquals(1, stub.received().size());
    JsonObject sent = stub.received().get(0).body();
    assertEquals(model.substring(model.indexOf(':') + 1), sent.getString("model"));
    assertTrue(sent.getJsonArray("tools").size() > 0, "the catalog's tools were sent");
  }

  /**
   * A model prompted in another dialect draws the same board as one using our verbs. Per dialect
   * ({@code dialects/runs/<dialect>.json}: the kit's actions as text, seed 002's {@code wb_*} and seed
   * 003's camelCase tools as OpenAI tool calls, our names spelled otherwise as Anthropic tool uses),
   * one run in our verbs and one in the dialect, each in a room of its own: the two boards hold the same
   * records but for ids and indexes (types, positions, sizes, texts, colors, bindings); both runs
   * applied the same verbs and dropped nothing; the dialect's run counts its names in {@code aliases};
   * and the model was shown only our names.
   */
  @ParameterizedTest
  @ValueSource(strings = {"kit", "shruai", "collabboard", "spelling"})
  void aRunInAnotherDialectDrawsTheSameBoardAsOurVerbs(String dialect) {
    JsonObject script =
        new JsonObject(new String(resource("/dialects/runs/" + dialect + ".json"), UTF_8));
    String model = script.getString("model");
    JsonObject ours = run(dialect + "-ours", model, DialectScripts.answer(script, "ours"));
    JsonObject theirs = run(dialect, model, DialectScripts.answer(script, "dialect"));

    List<String> ourBoard = DialectScripts.picture(server.board(dialect + "-ours"));
    assertEquals(ourBoard, DialectScripts.picture(server.board(dialect)));
    assertEquals(script.getInteger("records", ourBoard.size()), ourBoard.size());
    JsonObject ourDetail = ours.getJsonObject("detail");
    JsonObject theirDetail = theirs.getJsonObject("detail");
    assertEquals(0, ourDetail.getInteger("dropped"), ourDetail.encode());
    assertEquals(0, theirDetail.getInteger("dropped"), theirDetail.encode());
    assertEquals(ourDetail.getInteger("applied"), theirDetail.getInteger("applied"));
    assertEquals(verbs(ours), verbs(theirs), "the envelopes carry our verbs");
    assertTrue(OUR_VERBS.containsAll(verbs(theirs)), verbs(theirs).toString());
    DialectScripts.assertNoForeignFields(envelopeActions(theirs));
    assertFalse(ourDetail.containsKey("aliases"));
    assertEquals(script.getJsonObject("aliases"), theirDetail.getJsonObject("aliases"));
    stub.received()
        .forEach(request -> DialectScripts.assertOnlyOurNames(request.body(), OUR_VERBS));
  }

  /** A name of no dialect is still dropped, and one our verbs cannot express is dropped with its reason. */
  @Test
  void aVerbOfNoDialectAndADialectsActionOurVerbsCannotExpressAreDropped() {
    JsonObject done =
        run(
            "unknown",
            "openai:gpt-test",
            ProviderStreams.openAiToolCalls(
                List.of(
                    new Call("draw_rectangle", new JsonObject().put("x", 0)),
                    new Call(
                        "wb_create",
                        new JsonObject(
                            "{\"shape\":{\"_type\":\"draw\",\"shapeId\":\"scribble\"}}")),
                    new Call(
                        "wb_create",
                        new JsonObject(
                            "{\"shape\":{\"_type\":\"geo\",\"shapeId\":\"kept\",\"x\":0,\"y\":0}}")))));

    JsonObject detail = done.getJsonObject("detail");
    assertEquals(2, detail.getInteger("dropped"), detail.encode());
    assertEquals(1, detail.getInteger("applied"), detail.encode());
    assertEquals(new JsonObject().put("wb_create", 2), detail.getJsonObject("aliases"));
    JsonArray records = server.board("unknown").getJsonArray("records");
    assertEquals(1, records.size());
    assertEquals("shape:kept", records.getJsonObject(0).getString("id"));
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

  /**
   * The run of {@code answer} in the room {@code roomId}, to its final status (which must be {@code
   * done}), with the actions of its envelopes as {@code envelopeActions}.
   */
  private JsonObject run(String roomId, String model, byte[] answer) {
    stub.then(StubProvider.Stream.whole(answer));
    List<SseEvent> events =
        PartialEnvelopesTest.runToEnd(
            server,
            new JsonObject()
                .put("roomId", roomId)
                .put("message", "draw two shapes")
                .put("model", model));
    JsonObject last = events.get(events.size() - 1).data();
    assertEquals("done", last.getString("state"), last.encode());
    JsonArray actions = new JsonArray();
    PartialEnvelopesTest.envelopes(events)
        .forEach(envelope -> actions.addAll(envelope.getJsonArray("actions")));
    return last.put("envelopeActions", actions);
  }

  private static List<JsonObject> envelopeActions(JsonObject run) {
    return run.getJsonArray("envelopeActions").stream().map(JsonObject.class::cast).toList();
  }

  private static List<String> verbs(JsonObject run) {
    return envelopeActions(run).stream().map(action -> action.getString("name")).toList();
  }

  private static byte[] resource(String path) {
    try (InputStream in = ProviderRunFlowTest.class.getResourceAsStream(path)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
