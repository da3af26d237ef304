package dev.canvasagent.model.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.http.ProviderCalls.Outcome;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.StubProvider;
import dev.canvasagent.support.StubProvider.Status;
import dev.canvasagent.support.StubProvider.Stream;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each of the five HTTP providers, through its real provider class and a real HTTP connection, against
 * a stub on loopback that replays the provider's streaming wire format: whole, cut at every byte
 * offset, byte by byte; with in-band errors, dropped and hanging connections, 429 and 401 answers,
 * and a cancel. Every event reaches the caller on the caller's own context, as {@link ModelProvider}
 * promises, whichever event loop the pooled connection belongs to.
 */
@ExtendWith(VertxExtension.class)
class ProvidersOverHttpTest {
  private static final JsonObject EXPECTED =
      new JsonObject(
          new String(ProviderCalls.resource("http/answer.expected.json"), StandardCharsets.UTF_8));

  private Vertx vertx;
  private StubProvider stub;
  private HttpClientAgent client;

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

  private ModelProvider provider(Flavour flavour, Limits limits) {
    return flavour.provider(vertx, client, stub.baseUrl(), limits, Optional.empty());
  }

  private ModelProvider provider(Flavour flavour) {
    return provider(flavour, new Limits(2, 5_000, 10_000));
  }

  private Outcome call(ModelProvider provider, Flavour flavour) {
    return Await.result(ProviderCalls.run(vertx, provider, ProviderCalls.request(flavour.model())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void aTextAndParallelToolCallAnswerStreamsEndToEnd(Flavour flavour) {
    stub.then(Stream.whole(flavour.answerBytes()));

    Outcome outcome = call(provider(flavour), flavour);

    assertEquals(EXPECTED, ProviderCalls.summary(outcome.events()));
    List<ModelEvent.ToolCallStart> starts =
        outcome.events().stream()
            .filter(ModelEvent.ToolCallStart.class::isInstance)
            .map(ModelEvent.ToolCallStart.class::cast)
            .toList();
    assertEquals(List.of(0, 1), starts.stream().map(ModelEvent.ToolCallStart::ordinal).toList());
    assertNotEquals(
        starts.get(0).callId(), starts.get(1).callId(), "parallel calls keep their own ids");
    assertInstanceOf(
        ModelEvent.Usage.class,
        outcome.events().get(outcome.events().size() - 2),
        "usage right before the stop");
    assertEquals(0, outcome.call().retries());
    assertEquals(1, stub.received().size());
    flavour.checkRequest().accept(stub.received().get(0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void theAnswerIsTheSameWhereverTheBodyIsCut(Flavour flavour) {
    byte[] body = flavour.answerBytes();
    ModelProvider provider = provider(flavour);
    // a small request: this test sends one per byte of the answer
    ModelRequest request =
        new ModelRequest(flavour.model(), "You draw.", "draw two shapes", new JsonArray());
    stub.then(Stream.whole(body));
    List<ModelEvent> whole =
        ProviderCalls.comparable(
            Await.result(ProviderCalls.run(vertx, provider, request)).events());
    assertEquals(EXPECTED, ProviderCalls.summary(whole));
    // every offset: inside "data:" and "event:" prefixes, inside multi-byte UTF-8, between CR and
    // LF, inside escapes
    for (int cut = 1; cut < body.length; cut++) {
      stub.then(Stream.cutAt(body, cut));
      assertEquals(
          whole,
          ProviderCalls.comparable(
              Await.result(ProviderCalls.run(vertx, provider, request)).events()),
          "cut at byte " + cut);
    }
    stub.then(Stream.bytewise(body));
    assertEquals(
        whole,
        ProviderCalls.comparable(
            Await.result(ProviderCalls.run(vertx, provider, request)).events()),
        "one byte per chunk");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void anInBandErrorAfterEventsEndsTheCallWithoutARetry(Flavour flavour) {
    stub.then(Stream.whole(ProviderCalls.resource(flavour.midStreamError())));

    Outcome outcome = call(provider(flavour), flavour);

    ModelEvent.Error error = assertInstanceOf(ModelEvent.Error.class, outcome.last());
    assertFalse(error.errorType().isBlank());
    assertTrue(outcome.events().size() > 1, "events came before the error");
    assertEquals(1, stub.received().size(), "once events have flowed a failure is final");
    assertEquals(0, outcome.call().retries());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void aConnectionDroppedMidStreamIsARetryableTruncationThatIsNotRetriedOnceEventsFlowed(
      Flavour flavour) {
    byte[] body = flavour.answerBytes();
    stub.then(Stream.droppedAfter(body, body.length / 2)).then(Stream.whole(body));

    Outcome outcome = call(provider(flavour), flavour);

    ModelEvent.Error error = assertInstanceOf(ModelEvent.Error.class, outcome.last());
    assertEquals("stream_truncated", error.errorType());
    assertTrue(error.retryable());
    assertTrue(outcome.events().stream().anyMatch(ModelEvent.TextDelta.class::isInstance));
    assertEquals(1, stub.received().size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void aConnectionDroppedBeforeAnyEventIsTriedAgain(Flavour flavour) {
    byte[] body = flavour.answerBytes();
    stub.then(Stream.droppedAfter(body, 0)).then(Stream.whole(body));

    Outcome outcome = call(provider(flavour), flavour);

    assertEquals(EXPECTED, ProviderCalls.summary(outcome.events()));
    assertEquals(1, outcome.call().retries());
    assertEquals(2, stub.received().size());
  }

  @Test
  void aRetryableInBandErrorBeforeAnyEventIsTriedAgain() {
    Flavour anthropic = Flavour.all().get(0);
    String overloaded =
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
            + "\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n"
            + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    stub.then(Stream.whole(overloaded.getBytes(StandardCharsets.UTF_8)))
        .then(Stream.whole(anthropic.answerBytes()));

    Outcome outcome = call(provider(anthropic, new Limits(2, 100, 10_000)), anthropic);

    assertEquals(EXPECTED, ProviderCalls.summary(outcome.events()));
    assertEquals(1, outcome.call().retries());
    assertEquals(2, stub.received().size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void a429IsTriedAgainAfterTheProvidersRetryAfter(Flavour flavour) {
    stub.then(
            new Status(
                429,
                Map.of("retry-after-ms", "300"),
                "{\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}"))
        .then(Stream.whole(flavour.answerBytes()));

    long started = System.nanoTime();
    Outcome outcome = call(provider(flavour), flavour);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;

    assertEquals(EXPECTED, ProviderCalls.summary(outcome.events()));
    assertEquals(1, outcome.call().retries());
    assertEquals(2, stub.received().size());
    assertEquals(
        stub.received().get(0).body(), stub.received().get(1).body(), "the same request again");
    assertTrue(elapsedMs >= 300, "waited " + elapsedMs + " ms");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void aRetryAfterLongerThanTheCapWaitsOnlyTheCap(Flavour flavour) {
    stub.then(new Status(503, Map.of("retry-after", "30"), "upstream overloaded"))
        .then(Stream.whole(flavour.answerBytes()));

    long started = System.nanoTime();
    Outcome outcome = call(provider(flavour, new Limits(1, 100, 10_000)), flavour);
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;

    assertEquals(EXPECTED, ProviderCalls.summary(outcome.events()));
    assertEquals(1, outcome.call().retries());
    assertTrue(elapsedMs < 5_000, "waited " + elapsedMs + " ms");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void retriesAreBoundedAndTheLastFailureIsReported(Flavour flavour) {
    for (int i = 0; i < 3; i++) {
      stub.then(
          new Status(
              500,
              Map.of("retry-after-ms", "1"),
              "{\"error\":{\"type\":\"server_error\",\"message\":\"boom\"}}"));
    }

    Outcome outcome = call(provider(flavour, new Limits(2, 100, 10_000)), flavour);

    ModelEvent.Error error = assertInstanceOf(ModelEvent.Error.class, outcome.last());
    assertEquals(1, outcome.events().size());
    assertTrue(error.retryable());
    assertTrue(error.message().contains("500"), error.message());
    assertEquals(2, outcome.call().retries());
    assertEquals(3, stub.received().size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void a401IsFinalAndNamesTheStatusAndTheProvidersError(Flavour flavour) {
    stub.then(new Status(401, Map.of(), flavour.unauthorized()));

    Outcome outcome = call(provider(flavour), flavour);

    assertEquals(1, outcome.events().size());
    ModelEvent.Error error = assertInstanceOf(ModelEvent.Error.class, outcome.last());
    assertFalse(error.retryable());
    assertTrue(error.message().contains("HTTP 401"), error.message());
    assertTrue(error.message().contains(flavour.name()), error.message());
    assertFalse(
        error.errorType().startsWith("http_"),
        "the provider's own error type: " + error.errorType());
    assertEquals(1, stub.received().size());
    assertFalse(
        error.message().contains("stub"), "keys never appear in errors: " + error.message());
    assertEquals(401, error.providerStatus());
    assertTrue(
        error.message().contains("correlation id " + error.correlationId()), error.message());
    assertFalse(
        error.message().toLowerCase(java.util.Locale.ROOT).contains("key"),
        "the provider's own text is for the operator's log, not the caller: " + error.message());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void cancelStopsTheEventsAndResetsTheConnection(Flavour flavour) {
    byte[] body = flavour.answerBytes();
    // the whole answer in one buffer, the connection then left open: everything after the first
    // event is decoded in the same pass, so only the cancel can keep it from the caller
    stub.then(Stream.hangingAfter(body, body.length));
    var closed = stub.nextHangingStreamClosed();
    List<ModelEvent> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

    vertx
        .getOrCreateContext()
        .runOnContext(
            go -> {
              var calls = new dev.canvasagent.model.ModelCall[1];
              calls[0] =
                  provider(flavour).stream(
                      ProviderCalls.request(flavour.model()),
                      event -> {
                        seen.add(event);
                        calls[0].cancel();
                      });
            });

    Await.result(closed);
    assertEquals(1, seen.size(), "nothing after the cancel: " + seen);
    assertInstanceOf(ModelEvent.TextDelta.class, seen.get(0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void aStreamThatGoesSilentEndsWithATimeoutInsteadOfHanging(Flavour flavour) {
    byte[] body = flavour.answerBytes();
    stub.then(Stream.hangingAfter(body, body.length / 2));

    Outcome outcome = call(provider(flavour, new Limits(2, 100, 300)), flavour);

    ModelEvent.Error error = assertInstanceOf(ModelEvent.Error.class, outcome.last());
    assertEquals("stream_timeout", error.errorType());
    assertTrue(error.message().contains("sent nothing for too long"), error.message());
    assertEquals(1, stub.received().size(), "events had flowed: no retry");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void everyEventArrivesOnTheCallersContextWhicheverEventLoopHoldsTheConnection(Flavour flavour) {
    byte[] body = flavour.answerBytes();
    // the first call opens a connection on its event loop; the second, from another event loop, is
    // given that connection; the third is dropped on it before any event and tried again on a timer
    stub.then(Stream.whole(body))
        .then(Stream.whole(body))
        .then(Stream.droppedAfter(body, 0))
        .then(Stream.whole(body));
    ModelProvider provider = provider(flavour, new Limits(2, 100, 10_000));
    Context first = newContext();
    Context second = newContext();

    List<Boolean> opening = Await.result(streamOn(first, provider, flavour));
    List<Boolean> reusing = Await.result(streamOn(second, provider, flavour));
    List<Boolean> retried = Await.result(streamOn(second, provider, flavour));

    assertEquals(4, stub.received().size());
    assertTrue(
        opening.stream().allMatch(Boolean::booleanValue),
        "every event on the first caller's context");
    assertTrue(
        reusing.stream().allMatch(Boolean::booleanValue),
        "on the second caller's, the connection the first's");
    assertTrue(
        retried.stream().allMatch(Boolean::booleanValue),
        "on the second caller's after a try again");
  }

  /** A context of its own, and so (round robin) an event loop other than the last one's. */
  private Context newContext() {
    Promise<Context> created = Promise.promise();
    Await.result(
        vertx.deployVerticle(
            new VerticleBase() {
              @Override
              public Future<?> start() throws Exception {
                created.complete(context);
                return super.start();
              }
            }));
    return created.future().result();
  }

  /** Streams an answer from {@code context}; for each event, whether it arrived on that context. */
  private static Future<List<Boolean>> streamOn(
      Context context, ModelProvider provider, Flavour flavour) {
    Promise<List<Boolean>> ended = Promise.promise();
    context.runOnContext(
        go -> {
          List<Boolean> onTheCaller = new ArrayList<>();
          provider.stream(
              ProviderCalls.request(flavour.model()),
              event -> {
                onTheCaller.add(Vertx.currentContext() == context);
                if (event instanceof ModelEvent.Stop) {
                  ended.complete(onTheCaller);
                } else if (event instanceof ModelEvent.Error error) {
                  ended.fail(error.message());
                }
              });
        });
    return ended.future();
  }
}
