package dev.canvasagent.model.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.loop.ToolLoop;
import dev.canvasagent.model.loop.ToolLoopListener;
import dev.canvasagent.model.loop.ToolLoopResult;
import dev.canvasagent.model.loop.ToolLoopRun;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.StubProvider;
import dev.canvasagent.support.StubProvider.Stream;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tool loop over each HTTP provider and a stub on loopback: the first answer asks for two
 * parallel calls, the loop runs them (the second fails), and the second request must carry the
 * answer and both results in the provider's own format; a text-only answer ends the loop. Then the
 * ways a loop stops early: the step cap, an interrupt during a tool and during a model call, a
 * provider error.
 *
 * <p>An interrupt comes from the test thread, through the run {@code start} returned, while the loop
 * is held where it must land: a tool whose result the test has not given yet, an answer that stops
 * streaming part way. Not from inside a tool or listener through a variable the test thread fills in
 * after {@code start} returns: the loop is already under way on its event loop, and with the test
 * thread descheduled the tool finds that variable empty.
 */
@ExtendWith(VertxExtension.class)
class ToolLoopOverHttpTest {
  private static final String FIRST_TEXT = "Drawing two shapes → café ✓";
  private static final JsonObject RECTANGLE =
      new JsonObject()
          .put("type", "rectangle")
          .put("x", 100)
          .put("y", 200)
          .put("text", "Café — plan");
  private static final JsonObject NOTE =
      new JsonObject().put("type", "note").put("x", 320).put("y", 200).put("text", "Notes ✎");
  private static final JsonObject CREATED =
      new JsonObject().put("id", "shape:1").put("revision_id", "r2");
  private static final String FAILURE = "line 99 is out of range (the document has 12 lines)";

  private Vertx vertx;
  private StubProvider stub;
  private HttpClientAgent client;
  private final List<Turn.ToolCall> ran = new CopyOnWriteArrayList<>();

  static List<Flavour> flavours() {
    return Flavour.all();
  }

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    stub = Await.result(StubProvider.start(vertx));
    client = vertx.createHttpClient();
  }

  @AfterEach
  void stop() {
    Await.result(client.close());
    Await.result(stub.close());
  }

  private ModelProvider provider(Flavour flavour) {
    return flavour.provider(
        vertx, client, stub.baseUrl(), new Limits(0, 1_000, 10_000), Optional.empty());
  }

  /** The rectangle is created; the note fails. */
  private Future<JsonObject> execute(Turn.ToolCall call) {
    ran.add(call);
    return "note".equals(call.arguments().getString("type"))
        ? Future.failedFuture(FAILURE)
        : Future.succeededFuture(CREATED);
  }

  private ToolLoopResult loop(
      Flavour flavour,
      int maxSteps,
      Function<Turn.ToolCall, Future<JsonObject>> executor,
      ToolLoopListener listener) {
    ToolLoop loop = new ToolLoop(provider(flavour), executor, maxSteps, listener);
    return Await.result(loop.start(vertx, ProviderCalls.request(flavour.model())).result());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void aTwoStepLoopSendsTheAnswerAndItsResultsBackInTheProvidersShape(Flavour flavour) {
    SecondAnswer second = SecondAnswer.of(flavour);
    stub.then(Stream.whole(flavour.answerBytes()))
        .then(Stream.whole(ProviderCalls.resource(second.resource())));
    List<String> seen = new CopyOnWriteArrayList<>();
    ToolLoopListener listener =
        new ToolLoopListener() {
          @Override
          public void stepStarted(int step) {
            seen.add("step " + step);
          }

          @Override
          public void toolCalled(int step, Turn.ToolCall call) {
            seen.add("call " + call.arguments().getString("type"));
          }

          @Override
          public void toolReturned(int step, Turn.ToolResult result) {
            seen.add(result.isError() ? "error" : "result");
          }
        };

    ToolLoopResult result = loop(flavour, 5, this::execute, listener);

    assertEquals(ToolLoopResult.Stop.DONE, result.stop());
    assertEquals(second.text(), result.finalText());
    assertEquals(2, result.steps());
    assertEquals(
        List.of("step 1", "call rectangle", "result", "call note", "error", "step 2"), seen);
    assertEquals(List.of(RECTANGLE, NOTE), ran.stream().map(Turn.ToolCall::arguments).toList());
    assertEquals(2, result.executed().size());
    assertEquals(CREATED, result.executed().get(0).result().result());
    assertEquals(FAILURE, result.executed().get(1).result().error());
    assertTrue(result.notExecuted().isEmpty());
    assertEquals(
        812 + second.inputTokens(), result.usage().inputTokens(), "usage summed over the steps");
    assertEquals(96 + second.outputTokens(), result.usage().outputTokens());
    assertEquals(3, result.turns().size(), "answer, results, final answer");

    assertEquals(2, stub.received().size());
    JsonObject first = stub.received().get(0).body();
    JsonObject again = stub.received().get(1).body();
    flavour
        .checkRequest()
        .accept(stub.received().get(1)); // everything but the conversation is as before
    List<String> ids = ran.stream().map(Turn.ToolCall::callId).toList();
    switch (flavour.name()) {
      case "anthropic" -> checkAnthropic(first, again, ids);
      case "openai", "openai-compatible" -> checkChat(first, again, ids);
      case "openai-responses" -> checkResponses(first, again, ids);
      case "google" -> checkGemini(first, again);
      default -> throw new IllegalStateException(flavour.name());
    }
  }

  private static void checkAnthropic(JsonObject first, JsonObject again, List<String> ids) {
    assertEquals(List.of("toolu_01A", "toolu_01B"), ids);
    assertEquals(
        first.getJsonArray("system"),
        again.getJsonArray("system"),
        "the cached prefix is unchanged");
    assertEquals(first.getJsonArray("tools"), again.getJsonArray("tools"));
    JsonArray messages = again.getJsonArray("messages");
    assertEquals(3, messages.size());
    assertEquals(first.getJsonArray("messages").getJsonObject(0), messages.getJsonObject(0));
    assertEquals(
        new JsonObject()
            .put("role", "assistant")
            .put(
                "content",
                new JsonArray()
                    .add(new JsonObject().put("type", "text").put("text", FIRST_TEXT))
                    .add(
                        new JsonObject()
                            .put("type", "tool_use")
                            .put("id", "toolu_01A")
                            .put("name", "create_shape")
                            .put("input", RECTANGLE))
                    .add(
                        new JsonObject()
                            .put("type", "tool_use")
                            .put("id", "toolu_01B")
                            .put("name", "create_shape")
                            .put("input", NOTE))),
        messages.getJsonObject(1));
    assertEquals(
        new JsonObject()
            .put("role", "user")
            .put(
                "content",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("type", "tool_result")
                            .put("tool_use_id", "toolu_01A")
                            .put("content", CREATED.encode()))
                    .add(
                        new JsonObject()
                            .put("type", "tool_result")
                            .put("tool_use_id", "toolu_01B")
                            .put("content", FAILURE)
                            .put("is_error", true)
                            .put(
                                "cache_control",
                                new JsonObject().put("type", "ephemeral").put("ttl", "1h")))),
        messages.getJsonObject(2),
        "the conversation's last block extends the cached prefix");
  }

  private static void checkChat(JsonObject first, JsonObject again, List<String> ids) {
    assertEquals(first.getJsonArray("tools"), again.getJsonArray("tools"));
    JsonArray messages = again.getJsonArray("messages");
    assertEquals(5, messages.size());
    assertEquals(first.getJsonArray("messages").getJsonObject(1), messages.getJsonObject(1));
    JsonObject assistant = messages.getJsonObject(2);
    assertEquals("assistant", assistant.getString("role"));
    assertEquals(FIRST_TEXT, assistant.getString("content"));
    JsonArray calls = assistant.getJsonArray("tool_calls");
    assertEquals(2, calls.size());
    for (int i = 0; i < 2; i++) {
      JsonObject call = calls.getJsonObject(i);
      assertEquals(ids.get(i), call.getString("id"));
      assertEquals("function", call.getString("type"));
      assertEquals("create_shape", call.getJsonObject("function").getString("name"));
      Object arguments = call.getJsonObject("function").getValue("arguments");
      assertInstanceOf(
          String.class, arguments, "Chat Completions takes arguments as a JSON string");
      assertEquals(i == 0 ? RECTANGLE : NOTE, new JsonObject((String) arguments));
    }
    assertEquals(
        new JsonObject()
            .put("role", "tool")
            .put("tool_call_id", ids.get(0))
            .put("content", CREATED.encode()),
        messages.getJsonObject(3));
    assertEquals(
        new JsonObject()
            .put("role", "tool")
            .put("tool_call_id", ids.get(1))
            .put("content", "Error: " + FAILURE),
        messages.getJsonObject(4));
  }

  private static void checkResponses(JsonObject first, JsonObject again, List<String> ids) {
    assertEquals(List.of("call_A", "call_B"), ids, "the call_id, not the item id fc_…");
    assertEquals(false, again.getBoolean("store"));
    assertFalse(
        again.containsKey("previous_response_id"),
        "nothing stored: the whole conversation is sent");
    JsonArray input = again.getJsonArray("input");
    assertEquals(6, input.size());
    assertEquals(first.getJsonArray("input").getJsonObject(0), input.getJsonObject(0));
    assertEquals(
        new JsonObject()
            .put("type", "message")
            .put("role", "assistant")
            .put(
                "content",
                new JsonArray()
                    .add(new JsonObject().put("type", "output_text").put("text", FIRST_TEXT))),
        input.getJsonObject(1));
    for (int i = 0; i < 2; i++) {
      JsonObject call = input.getJsonObject(2 + i);
      assertEquals("function_call", call.getString("type"));
      assertEquals(ids.get(i), call.getString("call_id"));
      assertEquals("create_shape", call.getString("name"));
      assertInstanceOf(
          String.class, call.getValue("arguments"), "Responses takes arguments as a JSON string");
      assertEquals(i == 0 ? RECTANGLE : NOTE, new JsonObject(call.getString("arguments")));
    }
    assertEquals(
        new JsonObject()
            .put("type", "function_call_output")
            .put("call_id", "call_A")
            .put("output", CREATED.encode()),
        input.getJsonObject(4));
    assertEquals(
        new JsonObject()
            .put("type", "function_call_output")
            .put("call_id", "call_B")
            .put("output", "Error: " + FAILURE),
        input.getJsonObject(5));
  }

  private static void checkGemini(JsonObject first, JsonObject again) {
    assertEquals(first.getJsonArray("tools"), again.getJsonArray("tools"));
    JsonArray contents = again.getJsonArray("contents");
    assertEquals(3, contents.size());
    assertEquals(first.getJsonArray("contents").getJsonObject(0), contents.getJsonObject(0));
    assertEquals(
        new JsonObject()
            .put("role", "model")
            .put(
                "parts",
                new JsonArray()
                    .add(new JsonObject().put("text", FIRST_TEXT))
                    .add(
                        new JsonObject()
                            .put(
                                "functionCall",
                                new JsonObject().put("name", "create_shape").put("args", RECTANGLE))
                            .put("thoughtSignature", "c2lnLXN0dWI="))
                    .add(
                        new JsonObject()
                            .put(
                                "functionCall",
                                new JsonObject().put("name", "create_shape").put("args", NOTE)))),
        contents.getJsonObject(1),
        "args as an object; the signature back on its part; no made-up ids sent back");
    assertEquals(
        new JsonObject()
            .put("role", "user")
            .put(
                "parts",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put(
                                "functionResponse",
                                new JsonObject()
                                    .put("name", "create_shape")
                                    .put("response", CREATED)))
                    .add(
                        new JsonObject()
                            .put(
                                "functionResponse",
                                new JsonObject()
                                    .put("name", "create_shape")
                                    .put("response", new JsonObject().put("error", FAILURE))))),
        contents.getJsonObject(2));
  }

  @Test
  void theStepCapStopsTheLoopWithoutRunningTheLastAnswersCalls() {
    Flavour anthropic = Flavour.all().get(0);
    stub.then(Stream.whole(anthropic.answerBytes())).then(Stream.whole(anthropic.answerBytes()));

    ToolLoopResult result = loop(anthropic, 2, this::execute, ToolLoopListener.NONE);

    assertEquals(ToolLoopResult.Stop.STEP_CAP, result.stop());
    assertEquals("step_cap", result.stop().wireName());
    assertEquals(2, result.steps());
    assertEquals(2, ran.size(), "only the first answer's calls ran");
    assertEquals(
        List.of("toolu_01A", "toolu_01B"),
        result.notExecuted().stream().map(Turn.ToolCall::callId).toList());
    assertEquals(2, stub.received().size());
    assertEquals(FIRST_TEXT, result.finalText());
  }

  @Test
  void anInterruptDuringAToolRunsNoFurtherToolAndAsksTheModelNoMore() {
    Flavour chat = Flavour.all().get(1);
    stub.then(Stream.whole(chat.answerBytes()));
    Promise<Void> toolRunning = Promise.promise();
    Promise<JsonObject> toolResult = Promise.promise();
    ToolLoop loop =
        new ToolLoop(
            provider(chat),
            call -> {
              ran.add(call);
              toolRunning.tryComplete();
              return toolResult.future();
            },
            5,
            ToolLoopListener.NONE);
    ToolLoopRun run = loop.start(vertx, ProviderCalls.request(chat.model()));

    Await.result(toolRunning.future());
    run.interrupt(); // the person typed while the first tool ran
    toolResult.complete(CREATED);
    ToolLoopResult result = Await.result(run.result());

    assertEquals(ToolLoopResult.Stop.INTERRUPTED, result.stop());
    assertEquals(1, ran.size(), "the tool under way finished; the next did not start");
    assertEquals(1, result.executed().size());
    assertEquals(
        CREATED,
        result.executed().get(0).result().result(),
        "the result of the tool under way is kept");
    assertEquals(
        List.of("call_B"), result.notExecuted().stream().map(Turn.ToolCall::callId).toList());
    assertEquals(1, stub.received().size());
  }

  @Test
  void anInterruptDuringAModelCallCancelsIt() {
    Flavour responses = Flavour.all().get(2);
    byte[] text = ProviderCalls.resource("loop/openai-responses-text.sse");
    // the second answer streams its first words, then hangs
    int hangAt = new String(text, StandardCharsets.UTF_8).indexOf("the note failed.");
    stub.then(Stream.whole(responses.answerBytes())).then(Stream.hangingAfter(text, hangAt));
    Future<Void> closed = stub.nextHangingStreamClosed();
    Promise<Void> streaming = Promise.promise();
    ToolLoop loop =
        new ToolLoop(
            provider(responses),
            this::execute,
            5,
            new ToolLoopListener() {
              @Override
              public void modelEvent(int step, ModelEvent event) {
                if (step == 2 && event instanceof ModelEvent.TextDelta) {
                  streaming.tryComplete();
                }
              }
            });
    ToolLoopRun run = loop.start(vertx, ProviderCalls.request(responses.model()));

    Await.result(streaming.future());
    run.interrupt(); // the person typed while the second answer streamed
    ToolLoopResult result = Await.result(run.result());

    assertEquals(ToolLoopResult.Stop.INTERRUPTED, result.stop());
    assertEquals(2, result.steps());
    assertEquals(2, ran.size());
    assertEquals(
        2, result.turns().size(), "the interrupted answer is not part of the conversation");
    Await.result(closed);
  }

  @Test
  void aProviderErrorMidLoopEndsItWithTheErrorAndWhatRan() {
    Flavour gemini = Flavour.all().get(3);
    stub.then(Stream.whole(gemini.answerBytes()))
        .then(Stream.whole(ProviderCalls.resource(gemini.midStreamError())));

    ToolLoopResult result = loop(gemini, 5, this::execute, ToolLoopListener.NONE);

    assertEquals(ToolLoopResult.Stop.ERROR, result.stop());
    assertEquals("UNAVAILABLE", result.error().errorType());
    assertTrue(result.error().retryable());
    assertEquals(2, result.steps());
    assertEquals(2, result.executed().size(), "what ran before the error is reported");
    assertEquals(2, result.turns().size(), "the failed answer is not part of the conversation");
  }

  @Test
  void aProviderThatCannotBeCalledIsAnError() {
    Flavour anthropic = Flavour.all().get(0);
    ModelProvider unset =
        anthropic.provider(
            vertx,
            client,
            stub.baseUrl(),
            new Limits(0, 1_000, 10_000),
            Optional.of("ANTHROPIC_API_KEY"));

    ToolLoopResult result =
        Await.result(
            new ToolLoop(unset, this::execute, 5, ToolLoopListener.NONE)
                .start(vertx, ProviderCalls.request(anthropic.model()))
                .result());

    assertEquals(ToolLoopResult.Stop.ERROR, result.stop());
    assertTrue(result.error().message().contains("ANTHROPIC_API_KEY"));
    assertTrue(stub.received().isEmpty());
  }

  @Test
  void aToolThatThrowsOrReturnsNullBecomesAnErrorResult() {
    Flavour anthropic = Flavour.all().get(0);
    stub.then(Stream.whole(anthropic.answerBytes()))
        .then(Stream.whole(ProviderCalls.resource("loop/anthropic-text.sse")));

    ToolLoopResult result =
        loop(
            anthropic,
            5,
            call -> {
              if ("rectangle".equals(call.arguments().getString("type"))) {
                throw new IllegalArgumentException("no such shape type");
              }
              return null;
            },
            ToolLoopListener.NONE);

    assertEquals(ToolLoopResult.Stop.DONE, result.stop());
    assertEquals("no such shape type", result.executed().get(0).result().error());
    assertNull(result.executed().get(0).result().result());
    assertTrue(result.executed().get(1).result().isError());
  }

  /** The text-only answer each flavour gets second, and what it reports. */
  private record SecondAnswer(String resource, String text, long inputTokens, long outputTokens) {
    static SecondAnswer of(Flavour flavour) {
      return switch (flavour.name()) {
        case "anthropic" ->
            new SecondAnswer(
                "loop/anthropic-text.sse", "Added the rectangle; the note failed.", 1000, 12);
        case "openai-responses" ->
            new SecondAnswer(
                "loop/openai-responses-text.sse",
                "Added the rectangle; the note failed.",
                1000,
                12);
        case "google" ->
            new SecondAnswer("gemini-text-only.sse", fixtureText("gemini-text-only"), 1102, 29);
        default ->
            new SecondAnswer(
                "openai-chat-text-only.sse", fixtureText("openai-chat-text-only"), 1210, 24);
      };
    }

    private static String fixtureText(String fixture) {
      return new JsonObject(
              new String(
                  ProviderCalls.resource(fixture + ".expected.json"), StandardCharsets.UTF_8))
          .getJsonObject("final")
          .getString("text");
    }
  }
}
