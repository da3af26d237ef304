package dev.canvasagent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentStore.Change;
import dev.canvasagent.store.DocumentStore.Document;
import dev.canvasagent.store.DocumentStore.Edit;
import dev.canvasagent.store.DocumentStore.Guard;
import dev.canvasagent.store.DocumentStore.Lease;
import dev.canvasagent.store.DocumentStore.NewDocument;
import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every {@link DocumentStore} promises: revisions are content hashes, every write is judged
 * against the lease, epoch and base revision it changes, undo/redo/revert round-trip, and a refused
 * write leaves everything as it was.
 */
@ExtendWith(VertxExtension.class)
public abstract class DocumentStoreContract {
  static final long TTL = 60_000;
  static final Actor ALICE = Actor.person("alice");
  static final Actor PERSON = Actor.person("pat");
  protected Store store;
  protected DocumentStore documents;
  protected String docId;

  protected abstract Store createStore(Vertx vertx);

  @BeforeEach
  void open(Vertx vertx) {
    store = createStore(vertx);
    documents = store.documents();
    docId = "doc-" + UUID.randomUUID();
    Await.result(
        documents.create(
            new NewDocument(docId, "room-" + docId.substring(4, 12), "T", "a\nb\nc\n", PERSON)));
  }

  @AfterEach
  void close() {
    Await.result(store.close());
  }

  private Document current() {
    return Await.result(documents.find(docId)).orElseThrow();
  }

  private Lease checkOut() {
    return checkOut(ALICE);
  }

  private Lease checkOut(Actor holder) {
    return Await.result(documents.checkOut(docId, "lease-" + UUID.randomUUID(), holder, TTL));
  }

  /** The lease's holder, using it. */
  private static Guard.Agent agent(Lease lease) {
    return as(lease.holder(), lease);
  }

  /** {@code actor} using the lease's id and epoch, whoever it is. */
  private static Guard.Agent as(Actor actor, Lease lease) {
    return new Guard.Agent(lease.leaseId(), lease.epoch(), null, TTL, actor);
  }

  /** The lease's holder, using it without canvas_epoch: the store fences it by the lease's own. */
  private static Guard.Agent withoutEpoch(Lease lease) {
    return new Guard.Agent(lease.leaseId(), null, null, TTL, lease.holder());
  }

  private static Edit set(String content) {
    return new Edit.Rewrite(
        document ->
            new Change(
                content, "replace", 1, 1, document.content(), content, "test", new JsonObject()));
  }

  static FailureCode code(Future<?> future) {
    Throwable error = Await.failure(future);
    assertTrue(error instanceof Failure, "a Failure, not " + error);
    return ((Failure) error).code();
  }

  @Test
  void aRoomsDocumentsAreListedOldestFirstUpToTheLimit() {
    String room = "room-" + docId.substring(4, 12);
    String second = "doc-" + UUID.randomUUID();
    String third = "doc-" + UUID.randomUUID();
    Await.result(documents.create(new NewDocument(second, room, "T", "x\n", PERSON)));
    Await.result(documents.create(new NewDocument(third, room, "T", "y\n", PERSON)));
    Await.result(
        documents.create(
            new NewDocument("doc-" + UUID.randomUUID(), "another-room", "T", "z\n", PERSON)));

    List<String> listed = Await.result(documents.idsInRoom(room, 10));
    assertEquals(3, listed.size(), listed.toString());
    assertEquals(java.util.Set.of(docId, second, third), java.util.Set.copyOf(listed));
    assertEquals(2, Await.result(documents.idsInRoom(room, 2)).size());
    assertEquals(List.of(), Await.result(documents.idsInRoom("no-documents-here", 10)));
  }

  @Test
  void aNewDocumentIsAtTheHashOfItsContentWithAFreeLease() {
    Document document = current();
    assertEquals(DocumentText.revisionId("a\nb\nc\n"), document.revisionId());
    assertEquals(16, document.revisionId().length());
    assertEquals("a\nb\nc\n", document.content());
    Lease lease = Await.result(documents.lease(docId)).orElseThrow();
    assertFalse(lease.live());
    assertEquals(0, lease.epoch());
    assertEquals(
        FailureCode.INVALID_REQUEST,
        code(documents.create(new NewDocument(docId, "r", "T", "x", PERSON))),
        "the same id twice");
  }

  @Test
  void anAgentWriteMakesARevisionAndADiffAndIsUndoable() {
    Lease lease = checkOut();
    String before = current().revisionId();
    DocumentStore.Committed committed =
        Await.result(documents.commit(docId, agent(lease), set("x\n")));
    assertTrue(committed.changed());
    assertEquals(DocumentText.revisionId("x\n"), committed.document().revisionId());
    assertEquals(List.of(before), committed.document().undoStack());
    assertEquals("replace", Await.result(documents.diffs(docId, 1)).get(0).operation());
    assertEquals(2, Await.result(documents.revisions(docId, 10)).size());
    assertEquals(
        "x\n",
        Await.result(documents.content(docId, committed.document().revisionId())).orElseThrow());

    Document undone =
        Await.result(documents.commit(docId, agent(lease), new Edit.Undo())).document();
    assertEquals("a\nb\nc\n", undone.content());
    assertEquals(before, undone.revisionId());
    assertEquals(1, undone.redoStack().size());
    Document redone =
        Await.result(documents.commit(docId, agent(lease), new Edit.Redo())).document();
    assertEquals("x\n", redone.content());
    assertEquals(
        FailureCode.INVALID_REQUEST,
        code(documents.commit(docId, agent(lease), new Edit.Redo())),
        "nothing to redo");
    assertEquals(
        4, Await.result(documents.revisions(docId, 10)).size(), "create, edit, undo, redo");
  }

  @Test
  void aSnapshotCanBeRevertedToAndTheRevertUndone() {
    Lease lease = checkOut();
    DocumentStore.Snapshot snapshot =
        Await.result(documents.saveSnapshot(docId, agent(lease), "snap-1" + docId, "v1", "first"));
    assertEquals(3, snapshot.lineCount());
    Await.result(documents.commit(docId, agent(lease), set("changed\n")));
    Document reverted =
        Await.result(documents.commit(docId, agent(lease), new Edit.Revert(snapshot.id())))
            .document();
    assertEquals("a\nb\nc\n", reverted.content());
    assertEquals(
        "changed\n",
        Await.result(documents.commit(docId, agent(lease), new Edit.Undo())).document().content());
    assertEquals(
        FailureCode.NOT_FOUND,
        code(documents.commit(docId, agent(lease), new Edit.Revert("nope"))));
    assertEquals(
        List.of("v1"),
        Await.result(documents.snapshots(docId)).stream()
            .map(DocumentStore.Snapshot::label)
            .toList());
  }

  @Test
  void oneLeaseAtATime() {
    Lease first = checkOut();
    assertEquals(
        FailureCode.LOCK_NOT_AVAILABLE,
        code(documents.checkOut(docId, "lease-other", Actor.person("bob"), TTL)));
    Await.result(documents.checkIn(docId, agent(first)));
    Lease second = checkOut();
    assertNotEquals(first.leaseId(), second.leaseId());
    assertEquals(
        FailureCode.LOCK_NOT_OWNED, code(documents.commit(docId, agent(first), set("stolen\n"))));
    assertEquals("a\nb\nc\n", current().content());
  }

  @Test
  void aPersonsEditPreemptsTheLeaseAndTheAgentsNextWriteIsStale() {
    Lease lease = checkOut();
    Document person =
        Await.result(
                documents.commit(
                    docId, new Guard.Person(current().revisionId(), PERSON), set("mine\n")))
            .document();
    Lease after = Await.result(documents.lease(docId)).orElseThrow();
    assertFalse(after.live());
    assertEquals(lease.epoch() + 1, after.epoch());
    assertEquals(
        FailureCode.STALE_EPOCH, code(documents.commit(docId, agent(lease), set("agent\n"))));
    assertEquals(person, current(), "nothing written");
  }

  @Test
  void withoutCanvasEpochTheLeasesOwnEpochFencesEveryCall() {
    Lease lease = checkOut();
    Await.result(documents.commit(docId, withoutEpoch(lease), set("live\n")));
    Await.result(documents.saveSnapshot(docId, withoutEpoch(lease), "snap-" + docId, "s", null));
    Await.result(documents.renew(docId, withoutEpoch(lease)));
    assertEquals("live\n", current().content(), "the live lease writes");

    Await.result(documents.preempt(docId));
    Document preempted = current();
    assertEquals(
        FailureCode.STALE_EPOCH, code(documents.commit(docId, withoutEpoch(lease), set("late\n"))));
    assertEquals(
        FailureCode.STALE_EPOCH,
        code(documents.commit(docId, withoutEpoch(lease), new Edit.Undo())));
    assertEquals(
        FailureCode.STALE_EPOCH,
        code(documents.saveSnapshot(docId, withoutEpoch(lease), "snap-late", "x", null)));
    assertEquals(FailureCode.STALE_EPOCH, code(documents.renew(docId, withoutEpoch(lease))));
    assertEquals(FailureCode.STALE_EPOCH, code(documents.checkIn(docId, withoutEpoch(lease))));

    Lease bobs = checkOut(Actor.person("bob"));
    assertEquals(
        FailureCode.STALE_EPOCH,
        code(documents.commit(docId, withoutEpoch(lease), set("later\n"))),
        "still stale once someone else holds the document");
    assertEquals(preempted, current(), "nothing written after the preemption");
    assertEquals(1, Await.result(documents.snapshots(docId)).size());
    assertEquals(bobs, Await.result(documents.lease(docId)).orElseThrow(), "bob's lease untouched");
  }

  @Test
  void aDocumentKeepsItsNewestLeaseGrantsOnlyAndAnOlderLeaseStaysRefused() {
    Lease oldest = checkOut();
    Await.result(documents.preempt(docId));
    Lease newest = null;
    for (int i = 0; i < DocumentRules.MAX_LEASE_GRANTS; i++) {
      newest = checkOut();
      Await.result(documents.checkIn(docId, agent(newest)));
    }
    Lease live = checkOut();
    Await.result(documents.preempt(docId));
    Document preempted = current();
    assertEquals(
        FailureCode.LOCK_NOT_OWNED,
        code(documents.commit(docId, withoutEpoch(oldest), set("ancient\n"))),
        "a grant past the bound is gone: the lease is no one's, and still writes nothing");
    assertEquals(
        FailureCode.STALE_EPOCH,
        code(documents.commit(docId, withoutEpoch(live), set("late\n"))),
        "the newest grants still tell a preempted lease");
    assertEquals(preempted, current());
  }

  @Test
  void withoutCanvasEpochAnotherActorOrAReleasedLeaseIsNotOwned() {
    Lease lease = checkOut();
    Await.result(documents.preempt(docId));
    Guard.Agent stranger = new Guard.Agent(lease.leaseId(), null, null, TTL, Actor.person("bob"));
    assertEquals(
        FailureCode.LOCK_NOT_OWNED,
        code(documents.commit(docId, stranger, set("stolen\n"))),
        "another actor learns nothing about a lease that was never theirs");

    Lease second = checkOut();
    Await.result(documents.checkIn(docId, withoutEpoch(second)));
    assertEquals(
        FailureCode.LOCK_NOT_OWNED,
        code(documents.commit(docId, withoutEpoch(second), set("after\n"))),
        "a released lease is not the current one");
    Guard.Agent unknown = new Guard.Agent("lease-never", null, null, TTL, ALICE);
    assertEquals(FailureCode.LOCK_NOT_OWNED, code(documents.commit(docId, unknown, set("x\n"))));
    assertEquals("a\nb\nc\n", current().content());
  }

  @Test
  void aCanvasEpochThatIsNotTheDocumentsIsStaleEvenOnTheLiveLease() {
    Lease lease = checkOut();
    Guard.Agent ahead = new Guard.Agent(lease.leaseId(), lease.epoch() + 1, null, TTL, ALICE);
    assertEquals(FailureCode.STALE_EPOCH, code(documents.commit(docId, ahead, set("x\n"))));
    assertEquals("a\nb\nc\n", current().content());
  }

  @Test
  void aStaleBaseRevisionChangesNothing() {
    Document before = current();
    assertEquals(
        FailureCode.REVISION_CONFLICT,
        code(documents.commit(docId, new Guard.Person("0000000000000000", PERSON), set("late\n"))));
    assertEquals(before, current());
    Lease lease = Await.result(documents.lease(docId)).orElseThrow();
    assertEquals(0, lease.epoch(), "a refused edit does not preempt");
  }

  @Test
  void anExpiredLeaseCannotWriteAndCanBeTakenByAnother(Vertx vertx) {
    Lease lease = Await.result(documents.checkOut(docId, "lease-short" + docId, ALICE, 1));
    Await.result(
        dev.canvasagent.support.Eventually.holds(
            vertx, () -> documents.lease(docId).map(now -> !now.orElseThrow().live())));
    assertEquals(
        FailureCode.LEASE_EXPIRED, code(documents.commit(docId, agent(lease), set("late\n"))));
    assertEquals("a\nb\nc\n", current().content());
    checkOut();
  }

  @Test
  void aFailureInsideTheEditWritesNothing() {
    Lease lease = checkOut();
    Document before = current();
    assertEquals(
        FailureCode.PATCH_REJECTED,
        code(
            documents.commit(
                docId,
                agent(lease),
                new Edit.Rewrite(
                    document -> {
                      throw new Failure(FailureCode.PATCH_REJECTED, "no");
                    }))));
    assertEquals(before, current());
    assertEquals(1, Await.result(documents.revisions(docId, 10)).size());
  }

  @Test
  void ofManyConcurrentCheckOutsExactlyOneWins() {
    List<Future<Lease>> attempts =
        java.util.stream.IntStream.range(0, 8)
            .mapToObj(i -> documents.checkOut(docId, "lease-" + i, Actor.person("agent " + i), TTL))
            .toList();
    Await.result(Future.join(attempts).otherwiseEmpty());
    assertEquals(1, attempts.stream().filter(Future::succeeded).count());
    attempts.stream()
        .filter(Future::failed)
        .forEach(
            lost -> assertEquals(FailureCode.LOCK_NOT_AVAILABLE, ((Failure) lost.cause()).code()));
  }

  @Test
  void aWriteRacingAPreemptionEitherCommitsBeforeItOrFailsStale() {
    Lease lease = checkOut();
    Future<DocumentStore.Committed> write = documents.commit(docId, agent(lease), set("raced\n"));
    Future<Lease> preempted = documents.preempt(docId);
    Await.result(Future.join(write, preempted).otherwiseEmpty());
    assertEquals(lease.epoch() + 1, Await.result(preempted).epoch());
    if (write.succeeded()) {
      assertEquals("raced\n", current().content());
    } else {
      assertEquals(FailureCode.STALE_EPOCH, ((Failure) write.cause()).code());
      assertEquals("a\nb\nc\n", current().content());
    }
    assertEquals(
        FailureCode.STALE_EPOCH, code(documents.commit(docId, agent(lease), set("after\n"))));
  }

  @Test
  void unknownDocumentsAreNotFound() {
    assertTrue(Await.result(documents.find("doc-none")).isEmpty());
    assertEquals(FailureCode.NOT_FOUND, code(documents.checkOut("doc-none", "l", ALICE, TTL)));
    assertEquals(FailureCode.NOT_FOUND, code(documents.preempt("doc-none")));
  }

  @Test
  void aLeaseIsUsableOnlyByTheActorThatCheckedItOut() {
    Lease lease = checkOut(ALICE);
    Lease stored = Await.result(documents.lease(docId)).orElseThrow();
    Document before = current();
    List<Actor> others =
        List.of(
            Actor.person("bob"),
            Actor.agent("alice", "doc-session"),
            Actor.agent("bob", "doc-session"));
    for (Actor other : others) {
      String who = other.name() + " for " + other.subject();
      assertEquals(
          FailureCode.LOCK_NOT_OWNED,
          code(documents.commit(docId, as(other, lease), set("stolen\n"))),
          who);
      assertEquals(
          FailureCode.LOCK_NOT_OWNED,
          code(documents.commit(docId, as(other, lease), new Edit.Undo())),
          who);
      assertEquals(
          FailureCode.LOCK_NOT_OWNED,
          code(
              documents.saveSnapshot(
                  docId, as(other, lease), "snap-" + UUID.randomUUID(), "x", null)),
          who);
      assertEquals(FailureCode.LOCK_NOT_OWNED, code(documents.renew(docId, as(other, lease))), who);
      assertEquals(
          FailureCode.LOCK_NOT_OWNED, code(documents.checkIn(docId, as(other, lease))), who);
    }
    assertEquals(before, current(), "nothing written");
    assertEquals(List.of(), Await.result(documents.snapshots(docId)));
    assertEquals(1, Await.result(documents.revisions(docId, 10)).size());
    assertEquals(
        stored,
        Await.result(documents.lease(docId)).orElseThrow(),
        "still alice's, neither renewed nor released");

    Await.result(documents.commit(docId, agent(lease), set("mine\n")));
    assertEquals("mine\n", current().content(), "the holder still may");
  }

  @Test
  void theLeaseNamesItsHolderAndRevisionsTheirAuthor() {
    Actor agent = Actor.agent("alice", "doc-session");
    Lease lease = checkOut(agent);
    assertEquals(agent, lease.holder());
    assertTrue(
        lease.heldSinceMillis() != null && lease.heldSinceMillis() <= lease.expiresAtMillis());
    JsonObject shown = Await.result(documents.lease(docId)).orElseThrow().toJson();
    assertEquals("agent:doc-session", shown.getString("holder"));
    assertEquals("alice", shown.getString("holder_subject"));
    assertFalse(
        shown.containsKey("lease_id"), "the lease as readers see it has no id: " + shown.encode());

    Await.result(documents.commit(docId, agent(lease), set("by the agent\n")));
    Await.result(
        documents.commit(
            docId, new Guard.Person(current().revisionId(), ALICE), set("by alice\n")));
    List<DocumentStore.Revision> revisions = Await.result(documents.revisions(docId, 10));
    assertEquals(
        List.of("alice", "agent:doc-session", "pat"),
        revisions.stream().map(DocumentStore.Revision::author).toList());
    assertEquals(
        List.of("alice", "alice", "pat"),
        revisions.stream().map(DocumentStore.Revision::subject).toList());
    List<DocumentStore.DiffRecord> diffs = Await.result(documents.diffs(docId, 10));
    assertEquals(
        List.of("alice", "agent:doc-session", "pat"),
        diffs.stream().map(DocumentStore.DiffRecord::author).toList());
    assertEquals(
        List.of("alice", "alice", "pat"),
        diffs.stream().map(DocumentStore.DiffRecord::subject).toList());
  }
}
