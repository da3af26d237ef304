package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.DocumentCreateRequest;
import dev.canvasagent.bus.DocumentEditRequest;
import dev.canvasagent.bus.DocumentEdited;
import dev.canvasagent.bus.DocumentHistoryRequest;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.DocumentToolCall;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A write without {@code canvas_epoch} races a person's preempting edit, 1,000 times, on the memory
 * store and on PostgreSQL, through the real lease verticle on the bus: the write either commits before
 * the person's revision or fails STALE_EPOCH, and no revision after the person's is ever the old
 * lease's. The store decides (row lock, epoch-conditional update), so the node's order of events does
 * not matter; half the races send the person's edit first, half the write.
 */
class LeaseEpochRaceTest {
  static final int RACES = 1_000;
  static final int IN_FLIGHT = 16;
  static final Actor AGENT = Actor.agent("alice", "race-session");
  static final Actor PERSON = Actor.person("alice");
  static final Actor CREATOR = Actor.person("carol");

  @Test
  void noWriteWithoutEpochCommitsAfterAPreemptionOnTheMemoryStore() {
    raceOn(Optional.empty());
  }

  @Test
  void noWriteWithoutEpochCommitsAfterAPreemptionOnPostgres() {
    DatabaseConfig database = TestDatabase.freshSchema();
    try {
      raceOn(Optional.of(database));
    } finally {
      TestDatabase.drop(database);
    }
  }

  /** The races, on a server of its own over {@code database} (empty: the memory store). */
  private static void raceOn(Optional<DatabaseConfig> database) {
    Vertx vertx = Vertx.vertx();
    TestServer server = TestServer.start(vertx, database);
    try {
      raceAll(vertx.eventBus());
    } finally {
      Await.result(server.stop().eventually(() -> vertx.close()));
    }
  }

  /** How the races went: the write committed first, or was fenced. */
  record Tally(AtomicInteger committed, AtomicInteger stale, AtomicInteger next) {
    Tally() {
      this(new AtomicInteger(), new AtomicInteger(), new AtomicInteger());
    }
  }

  private static void raceAll(EventBus bus) {
    Tally tally = new Tally();
    List<Future<Void>> workers = new ArrayList<>();
    for (int worker = 0; worker < IN_FLIGHT; worker++) {
      workers.add(nextRace(bus, tally));
    }
    Await.result(Future.all(workers), 90);
    assertEquals(RACES, tally.committed().get() + tally.stale().get());
    // Both sides of the race were run, or the test would prove nothing.
    assertTrue(tally.stale().get() > 0, "some writes lost the race: " + tally);
    assertTrue(tally.committed().get() > 0, "some writes won the race: " + tally);
  }

  /** Runs races one after the other until {@link #RACES} have started. */
  private static Future<Void> nextRace(EventBus bus, Tally tally) {
    int race = tally.next().getAndIncrement();
    if (race >= RACES) {
      return Future.succeededFuture();
    }
    return race(bus, race, tally).compose(done -> nextRace(bus, tally));
  }

  private static Future<Void> race(EventBus bus, int race, Tally tally) {
    String docId = "doc-" + UUID.randomUUID();
    return Address.DOC_CREATE
        .ask(bus, new DocumentCreateRequest(docId, docId, "Race", "one\ntwo\n", CREATOR))
        .compose(created -> tool(bus, docId, "canvas_check_out", new JsonObject()))
        .compose(
            lease -> {
              String leaseId = lease.getString("lease_id");
              String base = lease.getString("revision_id_at_checkout");
              Future<JsonObject> write;
              Future<DocumentEdited> preemption;
              if (race % 2 == 0) {
                write = agentWrite(bus, docId, leaseId, "agent " + race);
                preemption = personEdit(bus, docId, base, race);
              } else {
                preemption = personEdit(bus, docId, base, race);
                write = agentWrite(bus, docId, leaseId, "agent " + race);
              }
              return Future.join(write, preemption)
                  .otherwiseEmpty()
                  .compose(
                      settled -> {
                        if (preemption.failed()) {
                          return Future.failedFuture(preemption.cause());
                        }
                        if (write.succeeded()) {
                          tally.committed().incrementAndGet();
                        } else {
                          assertEquals(
                              FailureCode.STALE_EPOCH,
                              Failure.of(write.cause()).code(),
                              write.cause().getMessage());
                          tally.stale().incrementAndGet();
                        }
                        return agentWrite(bus, docId, leaseId, "late " + race);
                      })
                  .transform(
                      late -> {
                        if (late.cause() instanceof AssertionError raced) {
                          return Future.failedFuture(raced); // the race itself went wrong
                        }
                        assertTrue(late.failed(), "a write after the preemption committed");
                        assertEquals(
                            FailureCode.STALE_EPOCH, Failure.of(late.cause()).code(), docId);
                        return noAgentRevisionAfterThePersons(bus, docId);
                      });
            });
  }

  /** A write under the lease, sending no canvas_epoch: seed 004's contract. */
  private static Future<JsonObject> agentWrite(
      EventBus bus, String docId, String leaseId, String text) {
    return tool(
        bus,
        docId,
        "canvas_replace_lines",
        new JsonObject()
            .put("lease_id", leaseId)
            .put("start_line", 1)
            .put("end_line", 1)
            .put("new_content", text));
  }

  /**
   * The person's edit from the revision they saw; when the agent's write committed first, they edit
   * again from the current revision, as the browser does on REVISION_CONFLICT. Either edit preempts.
   */
  private static Future<DocumentEdited> personEdit(
      EventBus bus, String docId, String base, int race) {
    String content = "person " + race + "\n";
    return Address.DOC_EDIT
        .ask(bus, new DocumentEditRequest(docId, content, base, PERSON))
        .recover(
            conflict ->
                Failure.of(conflict).code() != FailureCode.REVISION_CONFLICT
                    ? Future.failedFuture(conflict)
                    : Address.DOC_GET
                        .ask(bus, new DocumentRef(docId))
                        .compose(
                            current ->
                                Address.DOC_EDIT.ask(
                                    bus,
                                    new DocumentEditRequest(
                                        docId, content, current.revisionId(), PERSON))));
  }

  /** The document's revisions, newest first: none newer than the person's is the agent's. */
  private static Future<Void> noAgentRevisionAfterThePersons(EventBus bus, String docId) {
    return Address.DOC_REVISIONS
        .ask(bus, new DocumentHistoryRequest(docId, 10))
        .map(
            history -> {
              List<String> authors =
                  history.revisions().stream()
                      .map(revision -> revision.getString("author"))
                      .toList();
              int persons = authors.indexOf(PERSON.name());
              assertTrue(persons >= 0, docId + ": " + authors);
              assertTrue(
                  !authors.subList(0, persons).contains(AGENT.name()),
                  docId + ": the old lease wrote after the preemption: " + authors);
              assertTrue(
                  authors.stream().filter(AGENT.name()::equals).count() <= 1,
                  docId + ": " + authors);
              return null;
            });
  }

  private static Future<JsonObject> tool(EventBus bus, String docId, String tool, JsonObject args) {
    return Address.DOC_TOOL
        .ask(bus, new DocumentToolCall(docId, tool, args, AGENT))
        .map(result -> result.result());
  }
}
