package dev.canvasagent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.store.DocumentAgentSessions.Conversation;
import dev.canvasagent.store.DocumentStore.NewDocument;
import dev.canvasagent.store.RateLimits.Allowance;
import dev.canvasagent.store.RateLimits.Wait;
import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the nodes of a cluster share through the store beyond boards and documents, whatever keeps
 * it: the document agent's sessions (bound to one document, turns appended in order, the revision
 * last seen) and the rate limits' counts (token buckets: a whole allowance, then one per interval;
 * two allowances taken together or not at all; given back; refilled keys forgotten).
 */
@ExtendWith(VertxExtension.class)
public abstract class SharedAcrossNodesContract {
  static final long SECOND = 1_000_000_000L;
  protected Store store;
  String docId;
  String otherDocId;

  protected abstract Store createStore(Vertx vertx);

  @BeforeEach
  void open(Vertx vertx) {
    store = createStore(vertx);
    docId = "doc-" + UUID.randomUUID();
    otherDocId = "doc-" + UUID.randomUUID();
    for (String id : List.of(docId, otherDocId)) {
      Await.result(
          store.documents().create(new NewDocument(id, "room", "T", "x\n", Actor.person("alice"))));
    }
  }

  @AfterEach
  void close() {
    Await.result(store.close());
  }

  static JsonObject turn(String text) {
    return new JsonObject().put("kind", "user").put("text", text);
  }

  @Test
  void aSessionIsBoundToItsDocumentAndItsTurnsAppendInOrder() {
    String sessionId = "s-" + UUID.randomUUID();
    DocumentAgentSessions sessions = store.documentAgentSessions();
    assertEquals(Optional.empty(), Await.result(sessions.find(sessionId)));

    Await.result(sessions.append(sessionId, docId, List.of(turn("one"), turn("two")), null));
    Conversation first = Await.result(sessions.find(sessionId)).orElseThrow();
    assertEquals(docId, first.docId());
    assertEquals(null, first.lastSeenRevisionId());
    assertEquals(List.of(turn("one"), turn("two")), first.turns());

    Await.result(sessions.append(sessionId, docId, List.of(turn("three")), "rev-1"));
    Await.result(sessions.append(sessionId, docId, List.of(), null));
    Conversation later = Await.result(sessions.find(sessionId)).orElseThrow();
    assertEquals("rev-1", later.lastSeenRevisionId(), "kept when an append names none");
    assertEquals(List.of(turn("one"), turn("two"), turn("three")), later.turns());

    Throwable refused =
        Await.failure(sessions.append(sessionId, otherDocId, List.of(turn("four")), "rev-9"));
    assertInstanceOf(DocumentAgentSessions.BoundToAnotherDocument.class, refused);
    assertEquals(later, Await.result(sessions.find(sessionId)).orElseThrow(), "nothing changed");
  }

  @Test
  void aTurnKeepsWhatJsonCarriesAndAppendsAtOnceLoseNothing() {
    String sessionId = "s-" + UUID.randomUUID();
    DocumentAgentSessions sessions = store.documentAgentSessions();
    JsonObject odd =
        new JsonObject()
            .put("kind", "assistant")
            .put("text", "a NUL \u0000, a quote \" and ```fences```")
            .put("calls", new io.vertx.core.json.JsonArray().add(new JsonObject().put("n", 1)));
    List<Future<Void>> appends = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      appends.add(sessions.append(sessionId, docId, List.of(turn("t" + i), odd), null));
    }
    appends.forEach(Await::result);
    List<JsonObject> turns = Await.result(sessions.find(sessionId)).orElseThrow().turns();
    assertEquals(20, turns.size());
    for (int i = 0; i < 20; i += 2) {
      assertTrue(turns.get(i).getString("text").startsWith("t"), turns.toString());
      assertEquals(odd, turns.get(i + 1), "each append's turns stay together, in order");
    }
  }

  @Test
  void anAllowanceGivesItsWholeCapacityThenOneAnIntervalWithTheWaitToTheNext() {
    RateLimits limits = store.rateLimits();
    Allowance three = new Allowance("test", "k-" + UUID.randomUUID(), 3, Duration.ofSeconds(3));
    long now = 1_000 * SECOND;
    for (int i = 0; i < 3; i++) {
      assertEquals(Optional.empty(), Await.result(limits.take(List.of(three), now)));
    }
    assertEquals(Optional.of(new Wait(0, SECOND)), Await.result(limits.take(List.of(three), now)));
    assertEquals(
        Optional.of(new Wait(0, SECOND / 2)),
        Await.result(limits.take(List.of(three), now + SECOND / 2)));
    assertEquals(Optional.empty(), Await.result(limits.take(List.of(three), now + SECOND)));
    assertTrue(Await.result(limits.take(List.of(three), now + SECOND)).isPresent());
  }

  @Test
  void twoAllowancesAreTakenTogetherOrNotAtAllAndGivenBack() {
    RateLimits limits = store.rateLimits();
    Allowance client = new Allowance("client", "c-" + UUID.randomUUID(), 5, Duration.ofMinutes(1));
    Allowance room = new Allowance("room", "r-" + UUID.randomUUID(), 1, Duration.ofMinutes(1));
    long now = 5_000 * SECOND;
    assertEquals(Optional.empty(), Await.result(limits.take(List.of(client, room), now)));
    Optional<Wait> refused = Await.result(limits.take(List.of(client, room), now));
    assertEquals(1, refused.orElseThrow().index(), "the room's allowance is the one spent");
    assertEquals(60 * SECOND, refused.orElseThrow().nanos());
    // The client's allowance lost nothing to the refused take: four more fit.
    Allowance elsewhere =
        new Allowance("room", "r-" + UUID.randomUUID(), 100, Duration.ofMinutes(1));
    for (int i = 0; i < 4; i++) {
      assertEquals(Optional.empty(), Await.result(limits.take(List.of(client, elsewhere), now)));
    }
    assertEquals(
        0, Await.result(limits.take(List.of(client, elsewhere), now)).orElseThrow().index());

    Await.result(limits.giveBack(List.of(client, room), now));
    assertEquals(Optional.empty(), Await.result(limits.take(List.of(client, room), now)));
  }

  /**
   * A run taken and given back (refused further in) leaves the allowance as if it had never been
   * asked: whole again, with no key kept for it.
   */
  @Test
  void aTakeGivenBackLeavesNoKeyBehind() {
    RateLimits limits = store.rateLimits();
    Allowance fresh =
        new Allowance("given-back", "k-" + UUID.randomUUID(), 3, Duration.ofMinutes(1));
    long now = 12_000 * SECOND;
    Await.result(limits.take(List.of(fresh), now));
    Await.result(limits.giveBack(List.of(fresh), now));
    assertEquals(0, keysKept(fresh), "a whole allowance needs no key");
    // Whole: three more fit, the fourth waits.
    for (int i = 0; i < 3; i++) {
      assertEquals(Optional.empty(), Await.result(limits.take(List.of(fresh), now)));
    }
    assertTrue(Await.result(limits.take(List.of(fresh), now)).isPresent());
    // Given back while others are still spent: the key stays, one less spent.
    Await.result(limits.giveBack(List.of(fresh), now));
    assertEquals(1, keysKept(fresh));
    assertEquals(Optional.empty(), Await.result(limits.take(List.of(fresh), now)));
    assertTrue(Await.result(limits.take(List.of(fresh), now)).isPresent());
  }

  /** How many keys of {@code allowance}'s limit the store keeps (0 or 1). */
  protected abstract int keysKept(Allowance allowance);

  @Test
  void keysWhoseAllowanceRefilledAreForgottenAndComeBackWhole() {
    RateLimits limits = store.rateLimits();
    Allowance one = new Allowance("sweep", "k-" + UUID.randomUUID(), 2, Duration.ofSeconds(2));
    long now = 9_000 * SECOND;
    Await.result(limits.take(List.of(one), now));
    Await.result(limits.take(List.of(one), now));
    assertTrue(Await.result(limits.forgetRefilled(now + SECOND)) >= 0);
    assertTrue(
        Await.result(limits.take(List.of(one), now + SECOND / 2)).isPresent(), "not refilled yet");
    assertTrue(Await.result(limits.forgetRefilled(now + 3 * SECOND)) >= 1);
    assertEquals(Optional.empty(), Await.result(limits.take(List.of(one), now + 3 * SECOND)));
    assertEquals(Optional.empty(), Await.result(limits.take(List.of(one), now + 3 * SECOND)));
  }
}
