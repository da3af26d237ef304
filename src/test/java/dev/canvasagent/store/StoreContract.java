package dev.canvasagent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.IdempotencyKey;
import dev.canvasagent.store.BoardStore.BoardRevision;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.RunStore.Accepted;
import dev.canvasagent.store.RunStore.NewRun;
import dev.canvasagent.store.RunStore.RunRecord;
import dev.canvasagent.store.SessionStore.Changes;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.store.SessionStore.Session;
import dev.canvasagent.store.TodoStore.Todo;
import dev.canvasagent.store.TranscriptStore.Utterance;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.Eventually;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every {@link Store} promises, whatever keeps the data: boards commit only from their current
 * revision and keep their revisions (the memory store its newest, {@code RevisionRetentionTest}), sessions are created once and hand out strictly increasing seqs.
 * Each test works in rooms and sessions of its own, so implementations may share state across tests.
 */
@ExtendWith(VertxExtension.class)
public abstract class StoreContract {
  protected Store store;
  protected String roomId;

  /** A store ready to serve requests (its future already awaited). */
  protected abstract Store createStore(Vertx vertx);

  /** Releases what {@link #createStore} took; closing the store is the default. */
  protected void releaseStore(Store store) {
    Await.result(store.close());
  }

  @BeforeEach
  void openStore(Vertx vertx) {
    store = createStore(vertx);
    roomId = unique("room");
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      releaseStore(store);
    }
  }

  protected static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  protected static JsonObject shape(String id, String label) {
    return new JsonObject()
        .put("id", id)
        .put("typeName", "shape")
        .put("type", "geo")
        .put("x", 10)
        .put("y", 20)
        .put("parentId", "page:page")
        .put("props", new JsonObject().put("label", label).put("w", 100));
  }

  private Board load() {
    return Await.result(store.boards().load(roomId));
  }

  private long commit(long base, RecordDiff diff) {
    return Await.result(store.boards().commit(roomId, base, diff, "agent"));
  }

  private List<BoardRevision> allRevisions() {
    return Await.result(store.boards().revisions(roomId, 0, 1_000));
  }

  private Session newSession() {
    Session session =
        new Session(unique("session"), roomId, "debug/fake", System.currentTimeMillis());
    return Await.result(store.sessions().create(session));
  }

  // Boards

  @Test
  void aRoomNeverWrittenLoadsAsRevisionZeroWithNoRecords() {
    Board board = load();
    assertEquals(roomId, board.roomId());
    assertEquals(0, board.revision());
    assertTrue(board.records().isEmpty());
    assertTrue(allRevisions().isEmpty());
  }

  @Test
  void aCommitFromRevisionZeroMakesRevisionOneAndLoadReturnsItsRecords() {
    JsonObject a = shape("shape:a", "first");
    JsonObject b = shape("shape:b", "second");

    assertEquals(1L, commit(0, RecordDiff.putting(a, b)));

    Board board = load();
    assertEquals(1, board.revision());
    assertEquals(Set.of("shape:a", "shape:b"), board.records().keySet());
    assertEquals(a, board.records().get("shape:a"));
    assertEquals(b, board.records().get("shape:b"));
  }

  @Test
  void aDiffRemovesAndPutsInOneRevision() {
    commit(0, RecordDiff.putting(shape("shape:a", "a"), shape("shape:b", "b")));
    JsonObject replacedB = shape("shape:b", "b, edited");
    JsonObject c = shape("shape:c", "c");

    long revision = commit(1, new RecordDiff(List.of(replacedB, c), List.of("shape:a")));

    assertEquals(2, revision);
    Board board = load();
    assertEquals(2, board.revision());
    assertEquals(Set.of("shape:b", "shape:c"), board.records().keySet());
    assertEquals(replacedB, board.records().get("shape:b"), "a put replaces the whole record");
    assertEquals(c, board.records().get("shape:c"));
  }

  @Test
  void aCommitFromAStaleRevisionFailsWithTheCurrentRevisionAndChangesNothing() {
    commit(0, RecordDiff.putting(shape("shape:a", "a")));
    commit(1, RecordDiff.putting(shape("shape:b", "b")));
    Board before = load();
    List<BoardRevision> revisionsBefore = allRevisions();

    Throwable failure =
        Await.failure(
            store
                .boards()
                .commit(
                    roomId,
                    1,
                    new RecordDiff(List.of(shape("shape:c", "c")), List.of("shape:a")),
                    "late-writer"));

    RevisionConflict conflict = assertInstanceOf(RevisionConflict.class, failure);
    assertEquals(2, conflict.currentRevision());
    Board after = load();
    assertEquals(before.revision(), after.revision());
    assertEquals(before.records(), after.records());
    assertEquals(revisionsBefore, allRevisions());
  }

  @Test
  void twoCommitsRacingFromTheSameBaseOnANewRoomLetExactlyOneThrough() {
    assertExactlyOneOfTwoRacingCommitsWins(0);
  }

  @Test
  void twoCommitsRacingFromTheSameBaseOnAnExistingRoomLetExactlyOneThrough() {
    commit(0, RecordDiff.putting(shape("shape:seed", "seed")));
    assertExactlyOneOfTwoRacingCommitsWins(1);
  }

  private void assertExactlyOneOfTwoRacingCommitsWins(long base) {
    Future<Long> left =
        store.boards().commit(roomId, base, RecordDiff.putting(shape("shape:left", "l")), "left");
    Future<Long> right =
        store.boards().commit(roomId, base, RecordDiff.putting(shape("shape:right", "r")), "right");
    Await.result(Future.join(left, right).otherwiseEmpty());

    List<Future<Long>> both = List.of(left, right);
    assertEquals(1, both.stream().filter(Future::succeeded).count(), "exactly one commit wins");
    Future<Long> winner = both.stream().filter(Future::succeeded).findFirst().orElseThrow();
    Future<Long> loser = both.stream().filter(Future::failed).findFirst().orElseThrow();
    assertEquals(base + 1, winner.result());
    RevisionConflict conflict = assertInstanceOf(RevisionConflict.class, loser.cause());
    assertEquals(base + 1, conflict.currentRevision());

    Board board = load();
    assertEquals(base + 1, board.revision());
    String winnerRecord = winner == left ? "shape:left" : "shape:right";
    String loserRecord = winner == left ? "shape:right" : "shape:left";
    assertTrue(board.records().containsKey(winnerRecord));
    assertTrue(board.records().get(loserRecord) == null, "the losing diff left no record");
    assertEquals(base + 1, allRevisions().size());
  }

  @Test
  void revisionsPageOldestFirstWithTheirDiffAndAuthor() {
    RecordDiff first = RecordDiff.putting(shape("shape:a", "a"));
    RecordDiff second = new RecordDiff(List.of(shape("shape:b", "b")), List.of("shape:a"));
    RecordDiff third = RecordDiff.putting(shape("shape:b", "b2"));
    Await.result(store.boards().commit(roomId, 0, first, "alice"));
    Await.result(store.boards().commit(roomId, 1, second, "agent"));
    Await.result(store.boards().commit(roomId, 2, third, "bob"));

    List<BoardRevision> firstPage = Await.result(store.boards().revisions(roomId, 0, 2));
    assertEquals(List.of(1L, 2L), firstPage.stream().map(BoardRevision::revision).toList());
    assertEquals(first, firstPage.get(0).diff());
    assertEquals("alice", firstPage.get(0).author());
    assertEquals(second, firstPage.get(1).diff());
    assertEquals("agent", firstPage.get(1).author());

    List<BoardRevision> nextPage = Await.result(store.boards().revisions(roomId, 2, 2));
    assertEquals(1, nextPage.size());
    assertEquals(3, nextPage.get(0).revision());
    assertEquals(third, nextPage.get(0).diff());
    assertEquals("bob", nextPage.get(0).author());
    assertTrue(nextPage.get(0).createdAtMillis() > 0);

    assertTrue(
        Await.result(store.boards().revisions(roomId, 3, 2)).isEmpty(), "nothing after the last");
  }

  @Test
  void revisionsOfOneRoomAreNotAnothersRoom() {
    commit(0, RecordDiff.putting(shape("shape:a", "a")));
    String otherRoom = unique("other");

    assertTrue(Await.result(store.boards().revisions(otherRoom, 0, 10)).isEmpty());
    assertEquals(0, Await.result(store.boards().load(otherRoom)).revision());
  }

  // Sessions

  @Test
  void aCreatedSessionIsFoundAgain() {
    Session created = newSession();

    Optional<Session> found = Await.result(store.sessions().find(created.id()));

    assertTrue(found.isPresent());
    assertEquals(created.id(), found.get().id());
    assertEquals(roomId, found.get().roomId());
    assertEquals("debug/fake", found.get().model());
    assertEquals(created.createdAtMillis(), found.get().createdAtMillis());
  }

  @Test
  void creatingTheSameSessionTwiceIsANoOpThatReturnsTheFirst() {
    Session first = newSession();

    Session again =
        Await.result(
            store
                .sessions()
                .create(
                    new Session(
                        first.id(), roomId, "another/model", first.createdAtMillis() + 60_000)));

    assertEquals(first, again);
    assertEquals(Optional.of(first), Await.result(store.sessions().find(first.id())));
  }

  @Test
  void findingAnUnknownSessionIsEmpty() {
    assertEquals(Optional.empty(), Await.result(store.sessions().find(unique("nobody"))));
  }

  @Test
  void nextSeqStrictlyIncreasesFromOne() {
    Session session = newSession();

    List<Long> seqs =
        IntStream.range(0, 3)
            .mapToObj(i -> Await.result(store.sessions().nextSeq(session.id())))
            .toList();

    assertEquals(List.of(1L, 2L, 3L), seqs);
  }

  @Test
  void nextSeqOfAnUnknownSessionFailsWithUnknownSession() {
    assertInstanceOf(
        UnknownSession.class, Await.failure(store.sessions().nextSeq(unique("nobody"))));
  }

  @Test
  void fiftyConcurrentNextSeqCallsGetExactlyTheSeqsOneToFifty() {
    Session session = newSession();

    List<Future<Long>> calls =
        IntStream.range(0, 50).mapToObj(i -> store.sessions().nextSeq(session.id())).toList();
    Await.result(Future.all(calls));

    Set<Long> seqs =
        calls.stream().map(Future::result).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(
        LongStream.rangeClosed(1, 50).boxed().collect(Collectors.toCollection(TreeSet::new)),
        seqs,
        "fifty distinct seqs, none skipped, none reused");
  }

  @Test
  void sessionsKeepSeparateSeqs() {
    Session one = newSession();
    Session two = newSession();

    Await.result(store.sessions().nextSeq(one.id()));
    Await.result(store.sessions().nextSeq(one.id()));

    assertEquals(1L, Await.result(store.sessions().nextSeq(two.id())));
    assertEquals(3L, Await.result(store.sessions().nextSeq(one.id())));
  }

  // Todos

  @Test
  void todosAreListedByPositionThenCreation() {
    Session session = newSession();
    TodoStore todos = store.todos();

    Todo second = Await.result(todos.add(session.id(), "second", 1));
    Todo first = Await.result(todos.add(session.id(), "first", 0));
    Todo third = Await.result(todos.add(session.id(), "third", 1));

    assertEquals(
        List.of(first.id(), second.id(), third.id()),
        Await.result(todos.list(session.id())).stream().map(Todo::id).toList());
    assertEquals(TodoStore.Status.OPEN, first.status());
    assertEquals(null, first.resolvedAtMillis());
  }

  @Test
  void resolvingATodoStampsItAndReopeningClearsTheStamp() {
    Session session = newSession();
    Todo todo = Await.result(store.todos().add(session.id(), "draw the legend", 0));

    Todo done =
        Await.result(
                store.todos().update(session.id(), todo.id(), null, TodoStore.Status.DONE, null))
            .orElseThrow();
    Todo renamed =
        Await.result(store.todos().update(session.id(), todo.id(), "draw the key", null, 3))
            .orElseThrow();
    Todo reopened =
        Await.result(
                store.todos().update(session.id(), todo.id(), null, TodoStore.Status.OPEN, null))
            .orElseThrow();

    assertEquals(TodoStore.Status.DONE, done.status());
    assertTrue(done.resolvedAtMillis() != null);
    assertEquals("draw the key", renamed.text());
    assertEquals(3, renamed.position());
    assertEquals(TodoStore.Status.DONE, renamed.status(), "fields not given stay as they were");
    assertEquals(
        done.resolvedAtMillis(),
        renamed.resolvedAtMillis(),
        "still resolved: the first stamp is kept");
    assertEquals(null, reopened.resolvedAtMillis());
  }

  @Test
  void aTodoOfAnotherSessionIsNeitherListedNorChanged() {
    Session owner = newSession();
    Session other = newSession();
    Todo todo = Await.result(store.todos().add(owner.id(), "mine", 0));

    assertEquals(
        Optional.empty(),
        Await.result(
            store.todos().update(other.id(), todo.id(), "stolen", TodoStore.Status.SKIPPED, null)));
    assertEquals(
        Optional.empty(),
        Await.result(
            store.todos().update(owner.id(), UUID.randomUUID().toString(), "x", null, null)));
    assertEquals(
        Optional.empty(),
        Await.result(store.todos().update(owner.id(), "not-a-uuid", "x", null, null)));
    assertTrue(Await.result(store.todos().list(other.id())).isEmpty());
    assertEquals("mine", Await.result(store.todos().list(owner.id())).get(0).text());
  }

  // Session origins

  @Test
  void theFirstOriginOfASessionIsKeptAndLaterProposalsGetItBack() {
    Session session = newSession();

    assertEquals(
        new Origin(120.5, -40),
        Await.result(store.sessions().fixOrigin(session.id(), new Origin(120.5, -40))));
    assertEquals(
        new Origin(120.5, -40),
        Await.result(store.sessions().fixOrigin(session.id(), new Origin(0, 0))));
  }

  @Test
  void originsRacingOnOneSessionAllGetTheSameOne() {
    Session session = newSession();
    List<Future<Origin>> racing =
        IntStream.range(0, 20)
            .mapToObj(i -> store.sessions().fixOrigin(session.id(), new Origin(i, i)))
            .toList();
    Set<Origin> answers = racing.stream().map(Await::result).collect(Collectors.toSet());

    assertEquals(1, answers.size(), "every racer gets the one origin that won: " + answers);
    assertEquals(
        answers.iterator().next(),
        Await.result(store.sessions().fixOrigin(session.id(), new Origin(999, 999))));
  }

  @Test
  void sessionsKeepSeparateOrigins() {
    Session one = newSession();
    Session two = newSession();
    Await.result(store.sessions().fixOrigin(one.id(), new Origin(1, 2)));

    assertEquals(
        new Origin(3, 4), Await.result(store.sessions().fixOrigin(two.id(), new Origin(3, 4))));
  }

  @Test
  void theOriginOfAnUnknownSessionFailsWithUnknownSession() {
    assertInstanceOf(
        UnknownSession.class,
        Await.failure(store.sessions().fixOrigin(unique("nobody"), Origin.ZERO)));
  }

  // Transcripts

  @Test
  void aTranscriptWindowHasTheUtterancesSinceItsStartOldestFirst() {
    TranscriptStore transcripts = store.transcripts();
    Await.result(transcripts.add(roomId, new Utterance("ana", "too old", 1_000)));
    Await.result(transcripts.add(roomId, new Utterance("ben", "third", 5_000)));
    Await.result(transcripts.add(roomId, new Utterance("ana", "first", 2_000)));
    Await.result(transcripts.add(roomId, new Utterance("ana", "second", 2_000)));

    assertEquals(
        List.of(
            new Utterance("ana", "first", 2_000),
            new Utterance("ana", "second", 2_000),
            new Utterance("ben", "third", 5_000)),
        Await.result(transcripts.since(roomId, 2_000, 100)));
  }

  @Test
  void aTranscriptWindowOverItsLimitKeepsTheNewest() {
    for (int i = 0; i < 5; i++) {
      Await.result(store.transcripts().add(roomId, new Utterance("ana", "line " + i, 10_000 + i)));
    }

    assertEquals(
        List.of("line 3", "line 4"),
        Await.result(store.transcripts().since(roomId, 0, 2)).stream()
            .map(Utterance::text)
            .toList());
  }

  @Test
  void transcriptsOfOneRoomAreNotAnothersRoom() {
    Await.result(store.transcripts().add(roomId, new Utterance("ana", "here", 3_000)));

    assertTrue(Await.result(store.transcripts().since(unique("room"), 0, 100)).isEmpty());
    assertEquals(1, Await.result(store.transcripts().since(roomId, 0, 100)).size());
  }

  // Chat

  @Test
  void chatHistoryIsTheLastMessagesOldestFirst() {
    Session session = newSession();
    ChatStore chats = store.chats();
    Await.result(chats.append(session.id(), null, ChatMessage.USER, "draw a box"));
    Await.result(chats.append(session.id(), null, ChatMessage.ASSISTANT, "drawing it"));
    Await.result(chats.append(session.id(), null, ChatMessage.USER, "move it"));

    List<ChatMessage> all = Await.result(chats.recent(session.id(), 10));
    assertEquals(
        List.of("user:draw a box", "assistant:drawing it", "user:move it"),
        all.stream().map(message -> message.role() + ":" + message.text()).toList());
    assertEquals(
        List.of("drawing it", "move it"),
        Await.result(chats.recent(session.id(), 2)).stream().map(ChatMessage::text).toList());
    assertTrue(all.get(0).atMillis() > 0);
  }

  @Test
  void aChatMessageKeepsTheRunThatRecordedIt() {
    Session session = newSession();
    ChatStore chats = store.chats();
    ChatMessage appended =
        Await.result(chats.append(session.id(), "run-1", ChatMessage.ASSISTANT, "drew it"));
    Await.result(chats.append(session.id(), null, ChatMessage.USER, "thanks"));

    assertEquals("run-1", appended.runId());
    List<ChatMessage> all = Await.result(chats.recent(session.id(), 10));
    assertEquals("run-1", all.get(0).runId());
    assertEquals(null, all.get(1).runId());
  }

  @Test
  void chatHistoriesOfSessionsAreSeparate() {
    Session one = newSession();
    Session two = newSession();
    Await.result(store.chats().append(one.id(), null, ChatMessage.USER, "mine"));

    assertTrue(Await.result(store.chats().recent(two.id(), 10)).isEmpty());
  }

  @Test
  void theStoreIsReady() {
    Await.result(store.ping());
  }

  // Session atoms

  @Test
  void aNewSessionHasTheDefaultTitleNoOriginNoContextItemsAndWasActiveWhenCreated() {
    Session session = newSession();

    assertTrue(session.title().startsWith("Session 20"), session.title());
    assertEquals(null, session.origin());
    assertEquals(new JsonArray(), session.contextItems());
    assertEquals(session.createdAtMillis(), session.lastActiveAtMillis());
    assertEquals(
        new Origin(3, 4), Await.result(store.sessions().fixOrigin(session.id(), new Origin(3, 4))));
    assertEquals(
        new Origin(3, 4),
        Await.result(store.sessions().find(session.id())).orElseThrow().origin(),
        "the chat origin is an atom");
  }

  @Test
  void aRoomListsItsSessionsMostRecentlyActiveFirst() {
    Session older = newSession();
    Session newer = newSession();
    Session elsewhere =
        Await.result(
            store
                .sessions()
                .create(
                    new Session(
                        unique("session"),
                        unique("room"),
                        "debug/fake",
                        System.currentTimeMillis())));
    Await.result(store.runs().accept(new NewRun(unique("run"), older.id(), roomId, null, 5)));

    List<String> listed =
        Await.result(store.sessions().list(roomId, 10)).stream().map(Session::id).toList();

    assertEquals(
        List.of(older.id(), newer.id()),
        listed,
        "a run made the older session the most recently active");
    assertEquals(
        List.of(older.id()),
        Await.result(store.sessions().list(roomId, 1)).stream().map(Session::id).toList());
    assertFalse(listed.contains(elsewhere.id()));
  }

  @Test
  void anUpdateChangesOnlyWhatItGives() {
    Session session = newSession();
    JsonArray items =
        new JsonArray()
            .add(
                new JsonObject()
                    .put("type", "point")
                    .put("point", new JsonObject().put("x", 1).put("y", 2)));

    Session titled =
        Await.result(store.sessions().update(session.id(), new Changes("Roadmap", null, null)))
            .orElseThrow();
    Session pinned =
        Await.result(store.sessions().update(session.id(), new Changes(null, "other/model", items)))
            .orElseThrow();

    assertEquals("Roadmap", titled.title());
    assertEquals("debug/fake", titled.model());
    assertEquals("Roadmap", pinned.title());
    assertEquals("other/model", pinned.model());
    assertEquals(items, pinned.contextItems());
    assertEquals(Optional.of(pinned), Await.result(store.sessions().find(session.id())));
    assertEquals(
        Optional.empty(),
        Await.result(store.sessions().update(unique("nobody"), new Changes("x", null, null))));
  }

  @Test
  void deletingASessionRemovesItsAtomsButNotTheRoomsBoardOrTranscript() {
    Session session = newSession();
    Session kept = newSession();
    Await.result(store.chats().append(session.id(), null, ChatMessage.USER, "hello"));
    Await.result(store.chats().append(kept.id(), null, ChatMessage.USER, "still here"));
    Await.result(store.todos().add(session.id(), "a todo", 0));
    String runId = unique("run");
    Await.result(store.runs().accept(new NewRun(runId, session.id(), roomId, null, 5)));
    Await.result(store.runs().finish(runId, "done", new JsonObject()));
    commit(0, RecordDiff.putting(shape("shape:a", "a")));
    Await.result(store.transcripts().add(roomId, new Utterance("ana", "kept", 1_700_000_000_000L)));

    assertEquals(
        SessionStore.Deletion.DELETED, Await.result(store.sessions().delete(session.id())));

    assertEquals(Optional.empty(), Await.result(store.sessions().find(session.id())));
    assertTrue(Await.result(store.chats().recent(session.id(), 10)).isEmpty());
    assertTrue(Await.result(store.todos().list(session.id())).isEmpty());
    assertTrue(Await.result(store.runs().recent(session.id(), 10)).isEmpty());
    assertEquals(Optional.empty(), Await.result(store.runs().find(runId)));
    assertEquals(1, load().revision(), "the board is the room's");
    assertEquals(
        1,
        Await.result(store.transcripts().since(roomId, 0, 10)).size(),
        "the transcript is the room's");
    assertEquals(
        1,
        Await.result(store.chats().recent(kept.id(), 10)).size(),
        "other sessions are untouched");
    assertEquals(
        SessionStore.Deletion.NOT_FOUND, Await.result(store.sessions().delete(session.id())));
  }

  @Test
  void aSessionWithALiveRunIsNotDeleted() {
    Session session = newSession();
    String runId = unique("run");
    Await.result(store.runs().accept(new NewRun(runId, session.id(), roomId, null, 5)));

    assertEquals(SessionStore.Deletion.BUSY, Await.result(store.sessions().delete(session.id())));
    assertTrue(Await.result(store.sessions().find(session.id())).isPresent());
    assertEquals(1, Await.result(store.runs().recent(session.id(), 10)).size());

    Await.result(store.runs().finish(runId, "done", new JsonObject()));
    assertEquals(
        SessionStore.Deletion.DELETED, Await.result(store.sessions().delete(session.id())));
  }

  // Runs

  @Test
  void aRunIsRecordedQueuedThenRunningThenItsFinalStateOnce() {
    Session session = newSession();
    NewRun run = new NewRun(unique("run"), session.id(), roomId, null, 12);

    Accepted accepted = Await.result(store.runs().accept(run));
    assertTrue(accepted.created());
    assertEquals(RunStore.QUEUED, accepted.run().state());
    assertEquals(12, accepted.run().messageChars());

    assertTrue(Await.result(store.runs().start(run)), "this call started it");
    assertEquals(
        RunStore.RUNNING, Await.result(store.runs().find(run.runId())).orElseThrow().state());
    assertFalse(Await.result(store.runs().start(run)), "a run starts once");

    JsonObject detail = new JsonObject().put("runId", run.runId()).put("applied", 3);
    assertTrue(Await.result(store.runs().finish(run.runId(), "done", detail)));
    assertFalse(
        Await.result(store.runs().finish(run.runId(), "error", new JsonObject())),
        "an ended run stays ended");
    assertFalse(Await.result(store.runs().start(run)), "an ended run never starts");

    RunRecord ended = Await.result(store.runs().find(run.runId())).orElseThrow();
    assertEquals("done", ended.state());
    assertEquals(detail, ended.detail());
  }

  @Test
  void acceptingTheSameRunAgainWritesNothingNewAndAnswersTheFirst() {
    Session session = newSession();
    NewRun run = new NewRun(unique("run"), session.id(), roomId, "key-1", 5);
    RunRecord first = Await.result(store.runs().accept(run)).run();

    Accepted again =
        Await.result(
            store.runs().accept(new NewRun(run.runId(), session.id(), roomId, "key-1", 99)));

    assertFalse(again.created());
    assertEquals(first, again.run());
    assertEquals(1, Await.result(store.runs().recent(session.id(), 10)).size());
  }

  @Test
  void aRunOfAnUnknownSessionIsRefused() {
    Throwable failure =
        Await.failure(
            store.runs().accept(new NewRun(unique("run"), unique("nobody"), roomId, null, 1)));
    assertInstanceOf(UnknownSession.class, failure);
  }

  @Test
  void aFollowUpNeverAcceptedIsRecordedRunningWhenItStarts() {
    Session session = newSession();
    NewRun followUp = new NewRun(unique("run"), session.id(), roomId, null, 7);

    assertTrue(Await.result(store.runs().start(followUp)));

    assertEquals(
        RunStore.RUNNING, Await.result(store.runs().find(followUp.runId())).orElseThrow().state());
  }

  @Test
  void aFollowUpIsRecordedQueuedWhenAcceptedAndNamesItsRequestHoweverItEnds(Vertx vertx) {
    Session session = newSession();
    JsonObject marks =
        new JsonObject()
            .put("requestRunId", "request-1")
            .put("askedByRunId", "request-1")
            .put("number", 2)
            .put("reason", "add_detail");
    NewRun followUp = NewRun.followUp(unique("run"), session.id(), roomId, 14, marks);

    RunRecord queued = Await.result(store.runs().accept(followUp)).run();
    assertEquals(RunStore.QUEUED, queued.state());
    assertEquals(marks, queued.followUp());
    assertEquals(
        new JsonObject().put("followUp", marks),
        queued.toJson().getJsonObject("detail"),
        "a queued follow-up already says whose it is");

    // Its node dies: the sweeper ends it, and what it tells still names the request.
    JsonObject interrupted = new JsonObject().put("code", "INTERRUPTED");
    List<RunRecord> swept = new java.util.ArrayList<>();
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                store
                    .runs()
                    .sweepInterrupted(1, interrupted, java.util.Set.of())
                    .map(
                        found -> {
                          swept.addAll(
                              found.stream()
                                  .filter(run -> run.runId().equals(followUp.runId()))
                                  .toList());
                          return !swept.isEmpty();
                        })));
    assertEquals(marks, swept.get(0).followUp());
    assertEquals(
        interrupted.copy().put("runId", followUp.runId()).put("followUp", marks),
        swept.get(0).statusDetail());
    RunRecord stored = Await.result(store.runs().find(followUp.runId())).orElseThrow();
    assertEquals("error", stored.state());
    assertEquals(marks, stored.followUp());
    assertEquals(marks, stored.toJson().getJsonObject("detail").getJsonObject("followUp"));
    assertFalse(Await.result(store.runs().start(followUp)), "an interrupted run never starts");

    Session person = newSession();
    RunRecord persons =
        Await.result(store.runs().accept(new NewRun(unique("run"), person.id(), roomId, null, 3)))
            .run();
    assertEquals(null, persons.followUp(), "a person's run is no follow-up");
    assertFalse(persons.toJson().getJsonObject("detail").containsKey("followUp"));
  }

  @Test
  void aQueuedRunIsTakenInOnlyWhileItIsQueuedAndStartsOnce() {
    Session session = newSession();
    NewRun run = new NewRun(unique("run"), session.id(), roomId, "key-adopt", 9);
    RunRecord first = Await.result(store.runs().accept(run)).run();

    RunRecord adopted = Await.result(store.runs().adopt(run.runId())).orElseThrow();
    assertEquals(first.runId(), adopted.runId());
    assertEquals(RunStore.QUEUED, adopted.state());
    assertEquals(
        RunStore.QUEUED,
        Await.result(store.runs().find(run.runId())).orElseThrow().state(),
        "taking it in changes no state");

    // Two nodes hold it now: the first to start it runs it, the other must not.
    assertTrue(Await.result(store.runs().start(run)));
    assertFalse(Await.result(store.runs().start(run)));
    assertEquals(
        Optional.empty(), Await.result(store.runs().adopt(run.runId())), "a started run stays");

    NewRun canceled = new NewRun(unique("run"), session.id(), roomId, null, 1);
    Await.result(store.runs().accept(canceled));
    Await.result(store.runs().finish(canceled.runId(), "canceled", new JsonObject()));
    assertEquals(Optional.empty(), Await.result(store.runs().adopt(canceled.runId())));
    assertFalse(Await.result(store.runs().start(canceled)), "a canceled run never starts");
    assertEquals(Optional.empty(), Await.result(store.runs().adopt(unique("nobody"))));
  }

  @Test
  void ofTwoNodesClaimingASessionsRunsExactlyOneStartsAndTheOtherWaits() {
    Session session = newSession();
    NewRun first = new NewRun(unique("run"), session.id(), roomId, null, 1);
    NewRun second = new NewRun(unique("run"), session.id(), roomId, null, 1);
    Await.result(store.runs().accept(first));
    Await.result(store.runs().accept(second));

    // Both nodes believe they own the session and claim its first run at once.
    var a = store.runs().claim(first, "node-a");
    var b = store.runs().claim(first, "node-b");
    Await.result(Future.join(a, b));
    assertEquals(
        Set.of(RunStore.Claim.STARTED, RunStore.Claim.GONE),
        Set.of(a.result(), b.result()),
        "one starts it, the other finds it gone");
    String runner = a.result() == RunStore.Claim.STARTED ? "node-a" : "node-b";
    assertEquals(
        Optional.of(new RunStore.Running(first.runId(), runner)),
        Await.result(store.runs().running(session.id())));

    // The other claims the next run while the first still runs: the session is busy.
    assertEquals(RunStore.Claim.BUSY, Await.result(store.runs().claim(second, "node-b")));
    assertEquals(
        RunStore.QUEUED, Await.result(store.runs().find(second.runId())).orElseThrow().state());
    Await.result(store.runs().finish(first.runId(), "done", new JsonObject()));
    assertEquals(RunStore.Claim.STARTED, Await.result(store.runs().claim(second, "node-b")));
  }

  @Test
  void twoRunsOfOneSessionClaimedAtOnceNeverBothRun() {
    Session session = newSession();
    List<NewRun> runs =
        IntStream.range(0, 4)
            .mapToObj(i -> new NewRun(unique("run"), session.id(), roomId, null, 1))
            .toList();
    runs.forEach(run -> Await.result(store.runs().accept(run)));

    List<Future<RunStore.Claim>> claims =
        runs.stream().map(run -> store.runs().claim(run, "node-" + run.runId())).toList();
    Await.result(Future.join(claims));

    assertEquals(
        1,
        claims.stream().filter(claim -> claim.result() == RunStore.Claim.STARTED).count(),
        claims.stream().map(Future::result).toList().toString());
    assertEquals(3, claims.stream().filter(claim -> claim.result() == RunStore.Claim.BUSY).count());
  }

  /**
   * What a session's owner asks before it starts a run: which queued runs of the session come before
   * it in the session's order (each request in the order it was accepted, its follow-ups after it by
   * number), wherever they are held.
   */
  @Test
  void theQueuedRunsBeforeARunAreTheSessionsEarlierRequestsAndTheirFollowUps() {
    Session session = newSession();
    Session other = newSession();
    JsonObject request = new JsonObject().put("message", "draw");
    NewRun first = new NewRun(unique("run"), session.id(), roomId, null, 4).withRequest(request);
    NewRun second = new NewRun(unique("run"), session.id(), roomId, null, 4).withRequest(request);
    JsonObject marks =
        new JsonObject()
            .put("requestRunId", first.runId())
            .put("askedByRunId", first.runId())
            .put("number", 1)
            .put("reason", "add_detail");
    // Granted after the second message was accepted, it still comes before it: it is the first's.
    NewRun followUp =
        NewRun.followUp(unique("run"), session.id(), roomId, 4, marks).withRequest(request);
    NewRun elsewhere = new NewRun(unique("run"), other.id(), roomId, null, 4).withRequest(request);
    for (NewRun run : List.of(elsewhere, first, second, followUp)) {
      Await.result(store.runs().accept(run));
    }

    assertEquals(
        List.of(first.runId(), followUp.runId()),
        Await.result(store.runs().queuedBefore(session.id(), second.runId())));
    assertEquals(
        List.of(first.runId()),
        Await.result(store.runs().queuedBefore(session.id(), followUp.runId())));
    assertEquals(List.of(), Await.result(store.runs().queuedBefore(session.id(), first.runId())));
    assertEquals(
        List.of(first.runId(), followUp.runId(), second.runId()),
        Await.result(store.runs().queuedBefore(session.id(), unique("never-recorded"))),
        "a run never recorded comes after every queued one");

    // Started or ended, a run is no longer before anything.
    assertEquals(RunStore.Claim.STARTED, Await.result(store.runs().claim(first, "node-a")));
    assertEquals(
        List.of(followUp.runId()),
        Await.result(store.runs().queuedBefore(session.id(), second.runId())));
    Await.result(store.runs().finish(followUp.runId(), "canceled", new JsonObject()));
    assertEquals(List.of(), Await.result(store.runs().queuedBefore(session.id(), second.runId())));
  }

  @Test
  void queuedRunsWithTheirRequestAreTakenOverInTheirSessionsOrderAndNeverSwept(Vertx vertx) {
    Session session = newSession();
    JsonObject request = new JsonObject().put("message", "draw");
    NewRun person = new NewRun(unique("run"), session.id(), roomId, null, 4).withRequest(request);
    NewRun later = new NewRun(unique("run"), session.id(), roomId, null, 4).withRequest(request);
    JsonObject marks =
        new JsonObject()
            .put("requestRunId", person.runId())
            .put("askedByRunId", person.runId())
            .put("number", 1)
            .put("reason", "add_detail");
    // Granted after the later message was accepted, it still runs before it: it is its request's.
    NewRun followUp =
        NewRun.followUp(unique("run"), session.id(), roomId, 4, marks).withRequest(request);
    NewRun legacy = new NewRun(unique("run"), session.id(), roomId, null, 1);
    for (NewRun run : List.of(person, later, followUp, legacy)) {
      Await.result(store.runs().accept(run));
    }
    Await.result(store.runs().finish(person.runId(), "scheduled", new JsonObject()));

    assertTrue(
        ofSession(Await.result(store.runs().orphans(60_000, List.of())), session).isEmpty(),
        "a fresh heartbeat: held by its node");

    // Its node died: its heartbeats stop. Only the run without a stored request is swept.
    JsonObject detail = new JsonObject().put("code", "INTERRUPTED");
    List<RunRecord> swept = new java.util.ArrayList<>();
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                store
                    .runs()
                    .sweepInterrupted(1, detail, List.of())
                    .map(
                        found -> {
                          found.stream()
                              .filter(run -> run.sessionId().equals(session.id()))
                              .forEach(swept::add);
                          return !swept.isEmpty();
                        })));
    assertEquals(List.of(legacy.runId()), swept.stream().map(RunRecord::runId).toList());

    List<RunStore.Orphan> orphans =
        ofSession(Await.result(store.runs().orphans(1, List.of())), session);
    assertEquals(
        List.of(followUp.runId(), later.runId()),
        orphans.stream().map(orphan -> orphan.run().runId()).toList());
    assertEquals(request, orphans.get(0).request());
    assertEquals("scheduled", orphans.get(0).askedByState());
    assertEquals(null, orphans.get(1).askedByState());
    assertTrue(
        ofSession(Await.result(store.runs().orphans(1, List.of(later.runId()))), session).stream()
            .noneMatch(orphan -> orphan.run().runId().equals(later.runId())),
        "a run this node holds is no orphan");

    List<String> ids = List.of(followUp.runId(), later.runId());
    assertEquals(ids, sorted(Await.result(store.runs().takeOver(ids, 1, "node-b")), ids));
    assertEquals(
        List.of(),
        Await.result(store.runs().takeOver(ids, 60_000, "node-c")),
        "taken over once: its heartbeat is fresh again");

    // The new owner lets them go (it stops): taken over at once by the next.
    Await.result(store.runs().release(ids));
    assertEquals(
        2, ofSession(Await.result(store.runs().orphans(60_000, List.of())), session).size());
    assertEquals(
        RunStore.Claim.STARTED,
        Await.result(store.runs().claim(followUp, "node-c")),
        "a run taken over starts as any queued run");
    assertTrue(
        ofSession(Await.result(store.runs().orphans(60_000, List.of())), session).stream()
            .noneMatch(orphan -> orphan.run().runId().equals(followUp.runId())),
        "a started run is no orphan");
  }

  private static List<RunStore.Orphan> ofSession(List<RunStore.Orphan> orphans, Session session) {
    return orphans.stream()
        .filter(orphan -> orphan.run().sessionId().equals(session.id()))
        .toList();
  }

  private static List<String> sorted(List<String> ids, List<String> order) {
    return ids.stream().sorted(java.util.Comparator.comparingInt(order::indexOf)).toList();
  }

  @Test
  void recentRunsAreTheNewestFirst() {
    Session session = newSession();
    List<String> ids = IntStream.range(0, 4).mapToObj(i -> unique("run")).toList();
    ids.forEach(
        id -> Await.result(store.runs().accept(new NewRun(id, session.id(), roomId, null, 1))));

    List<String> recent =
        Await.result(store.runs().recent(session.id(), 3)).stream().map(RunRecord::runId).toList();

    assertEquals(List.of(ids.get(3), ids.get(2), ids.get(1)), recent);
  }

  @Test
  void onlyLiveRunsWhoseHeartbeatStoppedAreSweptAsInterrupted(Vertx vertx) {
    Session session = newSession();
    NewRun live = new NewRun(unique("run"), session.id(), roomId, null, 1);
    NewRun ended = new NewRun(unique("run"), session.id(), roomId, null, 1);
    NewRun held = new NewRun(unique("run"), session.id(), roomId, null, 1);
    Await.result(store.runs().accept(live));
    Await.result(store.runs().accept(ended));
    Await.result(store.runs().accept(held));
    Await.result(store.runs().finish(ended.runId(), "done", new JsonObject()));
    JsonObject detail = new JsonObject().put("code", "INTERRUPTED");
    List<String> heldHere = List.of(held.runId());

    assertTrue(
        Await.result(store.runs().sweepInterrupted(60_000, detail, heldHere)).stream()
            .noneMatch(run -> run.sessionId().equals(session.id())),
        "a fresh heartbeat is not swept");
    Await.result(store.runs().heartbeat(List.of(live.runId(), ended.runId(), held.runId())));

    List<RunRecord> swept = new java.util.ArrayList<>();
    Await.result(
        Eventually.holds(
            vertx,
            () ->
                store
                    .runs()
                    .sweepInterrupted(1, detail, heldHere)
                    .map(
                        found -> {
                          swept.addAll(
                              found.stream()
                                  .filter(run -> run.sessionId().equals(session.id()))
                                  .toList());
                          return !swept.isEmpty();
                        })));

    assertEquals(List.of(live.runId()), swept.stream().map(RunRecord::runId).toList());
    RunRecord interrupted = Await.result(store.runs().find(live.runId())).orElseThrow();
    assertEquals("error", interrupted.state());
    assertEquals(detail.copy().put("runId", live.runId()), interrupted.detail());
    assertEquals(
        "done",
        Await.result(store.runs().find(ended.runId())).orElseThrow().state(),
        "a final state is never swept");
    assertEquals(
        "queued",
        Await.result(store.runs().find(held.runId())).orElseThrow().state(),
        "a run the sweeping node holds is not swept, however old its heartbeat");
    assertFalse(
        Await.result(store.runs().finish(live.runId(), "done", new JsonObject())),
        "an interrupted run stays interrupted");
    assertTrue(
        Await.result(store.runs().finish(held.runId(), "error", new JsonObject())),
        "the held run's final write, however late, is its record's");
  }

  // Idempotent utterances

  @Test
  void anUtteranceWithAKeyTheRoomUsedIsStoredOnce() {
    Utterance first = new Utterance("ana", "make it blue", 1_700_000_000_000L);
    TranscriptStore.Keyed keyed =
        new TranscriptStore.Keyed("say-1", unique("utterance"), "a".repeat(64));

    assertEquals(first, Await.result(store.transcripts().add(roomId, first, keyed)));
    assertEquals(
        first,
        Await.result(
            store
                .transcripts()
                .add(roomId, new Utterance("ana", "make it blue", 1_700_000_000_500L), keyed)));
    Await.result(store.transcripts().add(unique("room"), first, keyed));

    assertEquals(List.of(first), Await.result(store.transcripts().since(roomId, 0, 10)));
  }

  // Idempotency keys bound to their request

  @Test
  void anUtteranceWhoseKeyCameWithAnotherRequestIsRefusedAndNothingIsStored() {
    Utterance first = new Utterance("ana", "make it blue", 1_700_000_000_000L);
    String id = unique("utterance");
    Await.result(
        store
            .transcripts()
            .add(roomId, first, new TranscriptStore.Keyed("say-1", id, "a".repeat(64))));

    Throwable refused =
        Await.failure(
            store
                .transcripts()
                .add(
                    roomId,
                    new Utterance("ana", "make it red", 1_700_000_000_500L),
                    new TranscriptStore.Keyed("say-1", id, "b".repeat(64))));

    assertEquals(
        FailureCode.IDEMPOTENCY_KEY_REUSED, assertInstanceOf(Failure.class, refused).code());
    assertEquals(List.of(first), Await.result(store.transcripts().since(roomId, 0, 10)));
  }

  @Test
  void aRunWhoseKeyCameWithAnotherRequestIsRefusedAndTheFirstStays() {
    Session session = newSession();
    NewRun run = new NewRun(unique("run"), session.id(), roomId, "key-1", 5, "a".repeat(64));
    RunRecord first = Await.result(store.runs().accept(run)).run();
    assertEquals("a".repeat(64), first.requestFingerprint());

    Throwable refused =
        Await.failure(
            store
                .runs()
                .accept(new NewRun(run.runId(), session.id(), roomId, "key-1", 9, "b".repeat(64))));

    assertEquals(
        FailureCode.IDEMPOTENCY_KEY_REUSED, assertInstanceOf(Failure.class, refused).code());
    assertEquals(List.of(first), Await.result(store.runs().recent(session.id(), 10)));
    assertEquals(
        first,
        Await.result(store.runs().accept(run)).run(),
        "the same request again answers the first");
  }

  @Test
  void twoCallersMayUseOneKeyInOneRoom() {
    Session session = newSession();
    Await.result(
        store
            .runs()
            .accept(new NewRun(unique("run"), session.id(), roomId, "shared", 5, "a".repeat(64))));

    Accepted other =
        Await.result(
            store
                .runs()
                .accept(
                    new NewRun(unique("run"), session.id(), roomId, "shared", 5, "a".repeat(64))));

    assertTrue(
        other.created(),
        "another caller's run with the same key: its id differs, so it is its own");
    assertEquals(2, Await.result(store.runs().recent(session.id(), 10)).size());
  }

  @Test
  void aSessionWhoseKeyCameWithAnotherRequestIsRefusedAndTheFirstStays() {
    Session first =
        Await.result(
            store
                .sessions()
                .create(
                    new Session(unique("session"), roomId, "debug/fake", 1_000), "a".repeat(64)));

    Throwable refused =
        Await.failure(
            store
                .sessions()
                .create(
                    new Session(first.id(), roomId, "another/model", 2_000).withTitle("Other"),
                    "b".repeat(64)));

    assertEquals(
        FailureCode.IDEMPOTENCY_KEY_REUSED, assertInstanceOf(Failure.class, refused).code());
    assertEquals(Optional.of(first), Await.result(store.sessions().find(first.id())));
    assertEquals(
        first,
        Await.result(
            store
                .sessions()
                .create(new Session(first.id(), roomId, "debug/fake", 3_000), "a".repeat(64))));
  }

  @Test
  void idempotencyKeysDeriveIdsFromTheCallerRoomAndKey() {
    IdempotencyKeys keys = store.idempotencyKeys();
    IdempotencyKey alice = new IdempotencyKey("alice", "k-1", "a".repeat(64));

    assertEquals(
        keys.runId(alice, roomId),
        keys.runId(new IdempotencyKey("alice", "k-1", "b".repeat(64)), roomId),
        "the request does not change the id: a retry with another body finds the first and is refused");
    assertNotEquals(
        keys.runId(alice, roomId),
        keys.runId(new IdempotencyKey("bob", "k-1", "a".repeat(64)), roomId));
    assertNotEquals(keys.runId(alice, roomId), keys.runId(alice, unique("room")));
    assertNotEquals(keys.runId(alice, roomId), keys.session(alice, roomId));
    assertNotEquals(
        keys.runId(alice, roomId),
        keys.runId(new IdempotencyKey("alice", "k-2", "a".repeat(64)), roomId));
    assertEquals(8, UUID.fromString(keys.runId(alice, roomId)).version());
  }
}
