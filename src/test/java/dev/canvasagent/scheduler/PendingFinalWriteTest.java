package dev.canvasagent.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunAccepted;
import dev.canvasagent.bus.RunSubmit;
import dev.canvasagent.bus.SessionCreate;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.model.fake.FakeModel;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.patch.PatchEngineVerticle;
import dev.canvasagent.runner.RunnerVerticle;
import dev.canvasagent.sanitizer.SanitizerVerticle;
import dev.canvasagent.screenshot.ScreenshotVerticle;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A run's final status is out, but the store fails to write it to the run's record (it fails every
 * run's final write until the test lets it through). While that write is pending, the run is known to
 * its node as ended: the resume payload shows the final status its clients got, cancel finds nothing
 * running, deleting the session is STORE_UNAVAILABLE (it writes the pending state first) and never
 * SESSION_BUSY, and the sweeper — which does sweep a stale run of a dead node meanwhile — leaves the
 * run alone. Once the store takes writes again, the record ends as the clients were told, and the run
 * has had one final status.
 */
@ExtendWith(VertxExtension.class)
class PendingFinalWriteTest {
  static final String ROOM = "pending-final";

  /** The memory store, except that every run's final write fails while {@code failing} is set. */
  static Store failingFinalWrites(Store store, AtomicBoolean failing) {
    RunStore runs = store.runs();
    RunStore failingRuns =
        proxy(
            RunStore.class,
            runs,
            (method, args) ->
                method.equals("finish") && failing.get()
                    ? Future.failedFuture(new IllegalStateException("injected: the store is away"))
                    : null);
    return proxy(Store.class, store, (method, args) -> method.equals("runs") ? failingRuns : null);
  }

  interface Answers {
    /** The answer instead of the delegate's, or null to let the delegate answer. */
    Object answer(String method, Object[] args);
  }

  static <T> T proxy(Class<T> type, T delegate, Answers override) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> {
              Object answer = override.answer(method.getName(), args);
              if (answer != null) {
                return answer;
              }
              try {
                return method.invoke(delegate, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }));
  }

  @Test
  void aRunWhoseFinalWriteIsPendingHasEndedForEveryoneAndIsNeverSwept(Vertx vertx) {
    AppConfig config =
        TestServer.config(
            Map.of(
                "CANVAS_AGENT_RUN_HEARTBEAT_MS", "100",
                "CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS", "500"));
    MemoryStore memory = new MemoryStore();
    AtomicBoolean failing = new AtomicBoolean(true);
    Store store = failingFinalWrites(memory, failing);
    ModelRegistry models =
        new ModelRegistry(
            List.of(new FakeModel(vertx, FakeScenarios.load())), List.of(FakeModel.MODEL));
    ActionCatalog catalog = ActionCatalog.standard();
    NodeBoards boards = new NodeBoards();
    for (var verticle :
        List.of(
            new PatchEngineVerticle(store, config.boardCache(), boards),
            new SanitizerVerticle(catalog, config.themeEnabled(), boards),
            new ScreenshotVerticle(config.screenshot()),
            new RunnerVerticle(store, models, catalog, config, boards),
            new SchedulerVerticle(store, models, config))) {
      Await.result(vertx.deployVerticle(verticle));
    }
    var bus = vertx.eventBus();
    List<JsonObject> finals = new CopyOnWriteArrayList<>();
    Promise<JsonObject> told = Promise.promise();
    Promise<JsonObject> canarySwept = Promise.promise();
    Await.result(
        bus.<JsonObject>consumer(
                RoomTopic.AGENT_STATUS.address(ROOM),
                message -> {
                  JsonObject status = message.body();
                  if (List.of("done", "error", "canceled").contains(status.getString("state"))) {
                    finals.add(status);
                    String runId = status.getJsonObject("detail").getString("runId");
                    (runId.equals("canary") ? canarySwept : told).tryComplete(status);
                  }
                })
            .completion());

    RunAccepted accepted =
        Await.result(
            Address.SCHEDULER_SUBMIT.ask(
                bus,
                new RunSubmit(
                    ROOM, null, "a box for the roadmap", FakeModel.MODEL, null, null, null)));
    JsonObject status = Await.result(told.future());
    assertEquals("done", status.getString("state"), status.encode());
    String sessionId = accepted.sessionId();
    assertEquals(
        RunStore.RUNNING,
        Await.result(memory.runs().find(accepted.runId())).orElseThrow().state(),
        "the store failed the final write");

    // The write is pending: the run has ended all the same.
    JsonObject run =
        Await.result(Address.SCHEDULER_SESSION_GET.ask(bus, SessionRef.of(sessionId)))
            .runs()
            .get(0);
    assertEquals("done", run.getString("state"), run.encode());
    assertEquals(status.getJsonObject("detail"), run.getJsonObject("detail"));
    assertNull(
        Await.result(Address.SCHEDULER_CANCEL.ask(bus, SessionRef.of(sessionId))).canceled(),
        "nothing runs");
    Throwable refused =
        Await.failure(Address.SCHEDULER_SESSION_DELETE.ask(bus, SessionRef.of(sessionId)));
    assertEquals(FailureCode.STORE_UNAVAILABLE, Failure.of(refused).code(), refused.getMessage());

    // A run of a dead node, which nobody heartbeats: once it is swept, the sweeper has looked.
    String canarySession =
        Await.result(
                Address.SCHEDULER_SESSION_CREATE.ask(
                    bus, new SessionCreate(ROOM, null, FakeModel.MODEL, null)))
            .session()
            .getString("id");
    Await.result(memory.runs().accept(new RunStore.NewRun("canary", canarySession, ROOM, null, 1)));
    Await.result(canarySwept.future());
    assertEquals(
        RunStore.RUNNING,
        Await.result(memory.runs().find(accepted.runId())).orElseThrow().state(),
        "still pending, and not swept");

    failing.set(false);
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                memory
                    .runs()
                    .find(accepted.runId())
                    .map(found -> found.orElseThrow().state().equals("done"))));
    assertEquals(
        status.getJsonObject("detail"),
        Await.result(memory.runs().find(accepted.runId())).orElseThrow().detail());
    Await.result(Address.SCHEDULER_SESSION_DELETE.ask(bus, SessionRef.of(sessionId)));
    assertEquals(
        1,
        finals.stream()
            .filter(
                each -> accepted.runId().equals(each.getJsonObject("detail").getString("runId")))
            .count(),
        "one final status: " + finals);
  }
}
