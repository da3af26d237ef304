package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults injected on the event bus (an interceptor that fails or swallows one verticle's requests):
 * each ends the run with {@code error}, a code, a reason and whether a retry may help; what was
 * committed before is published, and nothing is published for what was not.
 */
@ExtendWith(VertxExtension.class)
class RunFaultsTest {
  Vertx vertx;
  TestServer server;
  Handler<DeliveryContext<Object>> interceptor;

  @AfterEach
  void stop() {
    if (interceptor != null) {
      vertx.eventBus().removeInboundInterceptor(interceptor);
    }
    if (server != null) {
      Await.result(server.stop());
    }
  }

  /** Requests to {@code address}: the {@code nth} (1-based) is answered with {@code code}; 0 swallows them all. */
  void inject(Vertx vertx, String address, int nth, FailureCode code) {
    this.vertx = vertx;
    AtomicInteger seen = new AtomicInteger();
    interceptor =
        context -> {
          if (!context.message().address().equals(address)) {
            context.next();
            return;
          }
          if (nth == 0) {
            return;
          }
          if (seen.incrementAndGet() == nth) {
            context.message().fail(code.wire(), "injected fault");
            return;
          }
          context.next();
        };
    vertx.eventBus().addInboundInterceptor(interceptor);
  }

  /** Requests to {@code address} whose body passes {@code which} are answered with {@code code}. */
  void injectWhere(
      Vertx vertx,
      String address,
      java.util.function.Predicate<JsonObject> which,
      FailureCode code) {
    this.vertx = vertx;
    interceptor =
        context -> {
          if (context.message().address().equals(address)
              && context.message().body() instanceof JsonObject body
              && which.test(body)) {
            context.message().fail(code.wire(), "injected fault");
            return;
          }
          context.next();
        };
    vertx.eventBus().addInboundInterceptor(interceptor);
  }

  List<SseEvent> runToEnd(SseClient sse, String room, String message) {
    String sessionId =
        server
            .postRun(new JsonObject().put("roomId", room).put("message", message))
            .bodyAsJsonObject()
            .getString("sessionId");
    return Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));
  }

  static List<JsonObject> envelopes(List<SseEvent> events) {
    return events.stream()
        .filter(event -> event.event().equals("agent:action"))
        .map(SseEvent::data)
        .toList();
  }

  @Test
  void aPatchEngineFailureEndsTheRunAndOnlyWhatWasCommittedIsPublished(Vertx vertx) {
    server = TestServer.start(vertx, TestServer.config(Map.of()));
    inject(vertx, Address.PATCH_BOARD_APPLY.address(), 2, FailureCode.STORE_UNAVAILABLE);
    SseClient sse = server.events("patch-fault");
    List<SseEvent> events = runToEnd(sse, "patch-fault", "a box for the roadmap");

    JsonObject error = events.get(events.size() - 1).data();
    assertEquals("error", error.getString("state"), error.encode());
    JsonObject detail = error.getJsonObject("detail");
    assertEquals("STORE_UNAVAILABLE", detail.getString("code"));
    assertTrue(detail.getString("reason").contains("injected fault"), detail.encode());
    assertEquals(true, detail.getBoolean("retryable"));
    assertEquals(2, detail.getInteger("applied"), "the think and the first shape");
    assertEquals(1L, detail.getLong("boardRevision"));
    List<JsonObject> published = envelopes(events);
    assertEquals(1, published.size(), "one envelope: the one commit");
    assertEquals(1L, published.get(0).getLong("rev"));
    assertEquals(1L, server.board("patch-fault").getLong("revision"));
    assertEquals(1, server.board("patch-fault").getJsonArray("records").size());
    Await.result(sse.close());
  }

  @Test
  void aSanitizerFailureEndsTheRunBeforeAnythingIsCommitted(Vertx vertx) {
    server = TestServer.start(vertx, TestServer.config(Map.of()));
    inject(vertx, Address.SANITIZER_SANITIZE.address(), 1, FailureCode.INTERNAL);
    SseClient sse = server.events("sanitizer-fault");
    List<SseEvent> events = runToEnd(sse, "sanitizer-fault", "a box for the roadmap");

    JsonObject detail = events.get(events.size() - 1).data().getJsonObject("detail");
    assertEquals("error", events.get(events.size() - 1).data().getString("state"));
    assertEquals("INTERNAL", detail.getString("code"), detail.encode());
    assertEquals(false, detail.getBoolean("retryable"));
    assertEquals(0, detail.getInteger("applied"));
    assertTrue(envelopes(events).isEmpty());
    assertEquals(0L, server.board("sanitizer-fault").getLong("revision"));
    Await.result(sse.close());
  }

  @Test
  void aPatchEngineThatNeverAnswersEndsTheRunAtItsDeadlineWithNothingPublished(Vertx vertx) {
    server =
        TestServer.start(vertx, TestServer.config(Map.of("CANVAS_AGENT_RUN_DEADLINE_MS", "1000")));
    inject(vertx, Address.PATCH_BOARD_APPLY.address(), 0, null);
    SseClient sse = server.events("patch-silent");
    List<SseEvent> events = runToEnd(sse, "patch-silent", "a box for the roadmap");

    JsonObject detail = events.get(events.size() - 1).data().getJsonObject("detail");
    assertEquals("error", events.get(events.size() - 1).data().getString("state"));
    assertEquals("DEADLINE", detail.getString("code"), detail.encode());
    assertTrue(detail.getString("reason").contains("1000 ms"), detail.encode());
    assertEquals(1, detail.getInteger("applied"), "only the think");
    assertEquals(0L, detail.getLong("boardRevision"));
    assertTrue(envelopes(events).isEmpty(), "no envelope for a diff that was never committed");
    assertEquals(0L, server.board("patch-silent").getLong("revision"));
    Await.result(sse.close());
  }

  @Test
  void aRunThatFailsAfterAskingForFollowUpsEndsInErrorAndTheyNeverRun(Vertx vertx) {
    server = TestServer.start(vertx, TestServer.config(Map.of()));
    // The tour's last action (its closing message) fails, after its add_detail and review were
    // accepted.
    injectWhere(
        vertx,
        Address.SANITIZER_SANITIZE.address(),
        body -> "message".equals(body.getJsonObject("action").getString("name")),
        FailureCode.INTERNAL);
    SseClient sse = server.events("discard-room");
    var accepted =
        server.postRun(
            new JsonObject().put("roomId", "discard-room").put("message", "/tour then fail"));
    String sessionId = accepted.bodyAsJsonObject().getString("sessionId");
    List<SseEvent> events = Await.result(sse.awaitEvent(RunFlowContract.finalStatusOf(sessionId)));
    JsonObject error = events.get(events.size() - 1).data();
    assertEquals("error", error.getString("state"), error.encode());
    assertEquals(
        2,
        error.getJsonObject("detail").getJsonArray("followupsQueued").size(),
        "both were accepted before the failure");

    // The next request of the session runs next: the failed run's follow-ups were dropped. (The
    // tour leaves todos open, so that request ends `scheduled` with an open_todos follow-up of its
    // own.)
    String nextRunId =
        server
            .postRun(
                new JsonObject()
                    .put("roomId", "discard-room")
                    .put("message", "a box for the roadmap")
                    .put("sessionId", sessionId))
            .bodyAsJsonObject()
            .getString("runId");
    List<SseEvent> all = Await.result(sse.awaitEvent(RunFlowContract.endOf(nextRunId)));
    List<String> started =
        all.stream()
            .filter(event -> event.event().equals("agent:status"))
            .filter(event -> event.data().getString("state").equals("waiting_context"))
            .map(event -> event.data().getJsonObject("detail").getString("runId"))
            .toList();
    assertEquals(List.of(accepted.bodyAsJsonObject().getString("runId"), nextRunId), started);
    Await.result(sse.close());
  }

  @Test
  void aSchedulerThatFailsAMetaActionEndsTheRunWithError(Vertx vertx) {
    server = TestServer.start(vertx, TestServer.config(Map.of()));
    inject(vertx, Address.SCHEDULER_TODO.address(), 1, FailureCode.STORE_UNAVAILABLE);
    SseClient sse = server.events("todo-fault");
    List<SseEvent> events = runToEnd(sse, "todo-fault", "/todos now");
    JsonObject detail = events.get(events.size() - 1).data().getJsonObject("detail");
    assertEquals("STORE_UNAVAILABLE", detail.getString("code"), detail.encode());
    assertEquals(true, detail.getBoolean("retryable"));
    assertTrue(
        envelopes(events).isEmpty(), "the failed todo is not published, and nothing after it runs");
    Await.result(sse.close());
  }

  @Test
  void aModelErrorSaysWhetherARetryMayHelpAndWhatWasApplied(Vertx vertx) {
    this.vertx = vertx;
    server = TestServer.start(vertx, TestServer.config(Map.of()));
    SseClient sse = server.events("model-fault");
    List<SseEvent> events = runToEnd(sse, "model-fault", "/fail now");
    JsonObject detail = events.get(events.size() - 1).data().getJsonObject("detail");
    assertEquals("MODEL_ERROR", detail.getString("code"));
    assertEquals(true, detail.getBoolean("retryable"), "the scripted overload is retryable");
    assertEquals(0, detail.getInteger("applied"));
    Await.result(sse.close());
  }

  @Test
  void everyStateCarriesItsDetail(Vertx vertx) {
    this.vertx = vertx;
    server = TestServer.start(vertx, TestServer.config(Map.of()));
    SseClient sse = server.events("details");
    List<SseEvent> events = runToEnd(sse, "details", "a box for the roadmap");
    List<JsonObject> statuses =
        events.stream()
            .filter(event -> event.event().equals("agent:status"))
            .map(SseEvent::data)
            .toList();
    String runId = statuses.get(0).getJsonObject("detail").getString("runId");
    assertTrue(
        statuses.stream()
            .allMatch(status -> runId.equals(status.getJsonObject("detail").getString("runId"))));
    assertEquals(
        "debug/fake",
        statuses.get(1).getJsonObject("detail").getString("model"),
        "calling_model names the model");
    JsonObject streaming = statuses.get(2).getJsonObject("detail");
    assertEquals("text", streaming.getString("firstEvent"), streaming.encode());
    assertTrue(streaming.getLong("afterMs") >= 0);
    JsonObject done = statuses.get(3).getJsonObject("detail");
    assertEquals("done", statuses.get(3).getString("state"));
    for (String field : List.of("applied", "dropped", "deduped", "stopReason", "followups")) {
      assertTrue(done.containsKey(field), field + " in " + done.encode());
    }
    Await.result(sse.close());
  }

  @Test
  void aRunUnderWayWhenTheServerStopsEndsCanceledWithItsReason(Vertx vertx) {
    this.vertx = vertx;
    TestServer stopping = TestServer.start(vertx, TestServer.config(Map.of()));
    Promise<JsonObject> canceled = Promise.promise();
    Promise<Void> streaming = Promise.promise();
    MessageConsumer<JsonObject> statuses =
        vertx
            .eventBus()
            .consumer(
                RoomTopic.AGENT_STATUS.address("stopping"),
                message -> {
                  String state = message.body().getString("state");
                  if (state.equals("streaming")) {
                    streaming.tryComplete();
                  } else if (state.equals("canceled")
                      || state.equals("done")
                      || state.equals("error")) {
                    canceled.tryComplete(message.body());
                  }
                });
    Await.result(statuses.completion());
    stopping.postRun(new JsonObject().put("roomId", "stopping").put("message", "/tour a long one"));
    Await.result(streaming.future());
    Await.result(stopping.stop());

    JsonObject last = Await.result(canceled.future());
    assertEquals("canceled", last.getString("state"), last.encode());
    assertEquals("CANCELED", last.getJsonObject("detail").getString("code"));
    assertEquals("the server is shutting down", last.getJsonObject("detail").getString("reason"));
    Await.result(statuses.unregister());
  }
}
