package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.model.fake.FakeModel;
import dev.canvasagent.model.fake.FakeScenarios;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.patch.PatchEngineVerticle;
import dev.canvasagent.runner.RunnerVerticle;
import dev.canvasagent.sanitizer.SanitizerVerticle;
import dev.canvasagent.scheduler.SchedulerVerticle;
import dev.canvasagent.screenshot.ScreenshotVerticle;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store fails to hand out a session's next envelope seq after a diff was committed: the run ends
 * with error, no envelope goes out without its seq, and the error's {@code boardRevision} tells
 * clients the board moved past the last envelope they saw, so they can fetch it. Its reason says what
 * failed and gives a correlation id, never the store's own text.
 */
@ExtendWith(VertxExtension.class)
class SeqStoreFailureTest {

  /** The memory store, except that the session's second seq fails. */
  static final class SeqFailingStore implements Store {
    final MemoryStore store = new MemoryStore();
    final AtomicInteger seqs = new AtomicInteger();

    @Override
    public BoardStore boards() {
      return store.boards();
    }

    @Override
    public SessionStore sessions() {
      SessionStore sessions = store.sessions();
      return new SessionStore() {
        @Override
        public Future<Session> create(Session session, String requestFingerprint) {
          return sessions.create(session, requestFingerprint);
        }

        @Override
        public Future<Optional<Session>> find(String sessionId) {
          return sessions.find(sessionId);
        }

        @Override
        public Future<Long> nextSeq(String sessionId) {
          return seqs.incrementAndGet() == 2
              ? Future.failedFuture(
                  new IllegalStateException("injected: the sessions table is gone"))
              : sessions.nextSeq(sessionId);
        }

        @Override
        public Future<Origin> fixOrigin(String sessionId, Origin proposed) {
          return sessions.fixOrigin(sessionId, proposed);
        }

        @Override
        public Future<java.util.List<Session>> list(String roomId, int limit) {
          return sessions.list(roomId, limit);
        }

        @Override
        public Future<Optional<Session>> update(String sessionId, Changes changes) {
          return sessions.update(sessionId, changes);
        }

        @Override
        public Future<Deletion> delete(String sessionId) {
          return sessions.delete(sessionId);
        }
      };
    }

    @Override
    public dev.canvasagent.store.RunStore runs() {
      return store.runs();
    }

    @Override
    public dev.canvasagent.store.IdempotencyKeys idempotencyKeys() {
      return store.idempotencyKeys();
    }

    @Override
    public dev.canvasagent.store.DocumentStore documents() {
      return store.documents();
    }

    @Override
    public dev.canvasagent.store.DocumentAgentSessions documentAgentSessions() {
      return store.documentAgentSessions();
    }

    @Override
    public dev.canvasagent.store.AssetStore assets() {
      return store.assets();
    }

    @Override
    public dev.canvasagent.store.RateLimits rateLimits() {
      return store.rateLimits();
    }

    @Override
    public TodoStore todos() {
      return store.todos();
    }

    @Override
    public dev.canvasagent.store.TranscriptStore transcripts() {
      return store.transcripts();
    }

    @Override
    public dev.canvasagent.store.ChatStore chats() {
      return store.chats();
    }

    @Override
    public String kind() {
      return "memory";
    }

    @Override
    public Future<Void> ping() {
      return store.ping();
    }

    @Override
    public Future<Void> close() {
      return store.close();
    }
  }

  @Test
  void aSeqTheStoreCannotGiveEndsTheRunWithoutAnEnvelopeForIt(Vertx vertx) {
    AppConfig config = TestServer.config(Map.of());
    Store store = new SeqFailingStore();
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
    String room = "seq-fault";
    List<JsonObject> envelopes = new CopyOnWriteArrayList<>();
    Promise<JsonObject> last = Promise.promise();
    Await.result(
        vertx
            .eventBus()
            .<JsonObject>consumer(
                RoomTopic.AGENT_ACTION.address(room), message -> envelopes.add(message.body()))
            .completion());
    Await.result(
        vertx
            .eventBus()
            .<JsonObject>consumer(
                RoomTopic.AGENT_STATUS.address(room),
                message -> {
                  if (List.of("done", "error", "canceled")
                      .contains(message.body().getString("state"))) {
                    last.tryComplete(message.body());
                  }
                })
            .completion());

    Await.result(
        vertx
            .eventBus()
            .request(
                Address.SCHEDULER_SUBMIT.address(),
                new JsonObject()
                    .put("roomId", room)
                    .put("message", "a box for the roadmap")
                    .put("model", FakeModel.MODEL)));
    JsonObject status = Await.result(last.future());

    assertEquals("error", status.getString("state"), status.encode());
    JsonObject detail = status.getJsonObject("detail");
    assertEquals("STORE_UNAVAILABLE", detail.getString("code"), detail.encode());
    assertEquals(true, detail.getBoolean("retryable"));
    assertTrue(
        detail
            .getString("reason")
            .startsWith("could not take the session's next seq: the store failed (correlation id "),
        detail.encode());
    assertFalse(
        detail.getString("reason").contains("the sessions table is gone"),
        "the store's own text is for the log: " + detail.encode());
    assertEquals(
        1,
        envelopes.size(),
        "the first shape's envelope; the second commit has no seq, so no envelope");
    assertEquals(1L, envelopes.get(0).getLong("rev"));
    assertEquals(
        2L,
        detail.getLong("boardRevision"),
        "the second diff was committed: clients learn the board moved on");
    JsonObject board =
        Await.result(
                vertx
                    .eventBus()
                    .<JsonObject>request(
                        Address.PATCH_BOARD_GET.address(), new JsonObject().put("roomId", room)))
            .body();
    assertEquals(2L, board.getLong("revision"));
  }
}
