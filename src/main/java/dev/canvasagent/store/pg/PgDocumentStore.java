package dev.canvasagent.store.pg;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentRules;
import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Documents in PostgreSQL. A write locks the document row and its lease row ({@code FOR UPDATE}),
 * judges the guard against them with the database's clock, and writes the revision, diff, stacks and
 * lease in the same transaction: two nodes sharing the database agree on every lease and epoch.
 */
final class PgDocumentStore implements DocumentStore {
  private static final String UNIQUE_VIOLATION = "23505";

  private final Pool pool;

  PgDocumentStore(Pool pool) {
    this.pool = pool;
  }

  /** The locked (or read) state: the document, its lease, and the database's now. */
  private record State(Document document, Lease lease, long nowMillis) {}

  @Override
  public Future<Document> create(NewDocument document) {
    String revisionId = DocumentText.revisionId(document.content());
    return pool.withTransaction(
            connection ->
                connection
                    .preparedQuery(Sql.INSERT_DOCUMENT)
                    .execute(
                        Tuple.of(
                            document.id(),
                            document.roomId(),
                            document.title(),
                            document.content(),
                            revisionId))
                    .compose(
                        inserted ->
                            connection
                                .preparedQuery(Sql.INSERT_DOCUMENT_LEASE)
                                .execute(Tuple.of(document.id())))
                    .compose(
                        leased ->
                            connection
                                .preparedQuery(Sql.INSERT_DOCUMENT_REVISION)
                                .execute(
                                    Tuple.of(
                                        document.id(),
                                        1L,
                                        revisionId,
                                        document.content(),
                                        document.author().name(),
                                        document.author().subject())))
                    .compose(
                        revised ->
                            connection
                                .preparedQuery(Sql.INSERT_DOCUMENT_DIFF)
                                .execute(
                                    Tuple.tuple()
                                        .addString(document.id())
                                        .addLong(1L)
                                        .addString("create")
                                        .addInteger(1)
                                        .addInteger(DocumentText.lineCount(document.content()))
                                        .addString(null)
                                        .addString(document.content())
                                        .addString(null)
                                        .addString(document.author().name())
                                        .addString(document.author().subject()))))
        .recover(
            error ->
                error instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState())
                    ? Failure.future(
                        FailureCode.INVALID_REQUEST,
                        "document " + document.id() + " already exists")
                    : Future.failedFuture(error))
        .compose(created -> find(document.id()))
        .map(Optional::orElseThrow);
  }

  @Override
  public Future<Optional<Document>> find(String docId) {
    return pool.preparedQuery(Sql.FIND_DOCUMENT)
        .execute(Tuple.of(docId))
        .map(
            rows ->
                rows.rowCount() == 0
                    ? Optional.empty()
                    : Optional.of(state(rows.iterator().next()).document()));
  }

  @Override
  public Future<Optional<String>> content(String docId, String revisionId) {
    return content(pool, docId, revisionId);
  }

  private static Future<Optional<String>> content(
      io.vertx.sqlclient.SqlClient client, String docId, String revisionId) {
    return client
        .preparedQuery(Sql.DOCUMENT_REVISION_CONTENT)
        .execute(Tuple.of(docId, revisionId))
        .map(
            rows ->
                rows.rowCount() == 0
                    ? Optional.empty()
                    : Optional.of(rows.iterator().next().getString("content")));
  }

  @Override
  public Future<List<Revision>> revisions(String docId, int limit) {
    return pool.preparedQuery(Sql.LIST_DOCUMENT_REVISIONS)
        .execute(Tuple.of(docId, limit))
        .map(
            rows -> {
              List<Revision> out = new ArrayList<>();
              rows.forEach(
                  row ->
                      out.add(
                          new Revision(
                              row.getLong("version"),
                              row.getString("revision_id"),
                              row.getString("author"),
                              row.getString("subject"),
                              row.getLong("created_ms"))));
              return out;
            });
  }

  @Override
  public Future<List<DiffRecord>> diffs(String docId, int limit) {
    return pool.preparedQuery(Sql.LIST_DOCUMENT_DIFFS)
        .execute(Tuple.of(docId, limit))
        .map(
            rows -> {
              List<DiffRecord> out = new ArrayList<>();
              rows.forEach(
                  row ->
                      out.add(
                          new DiffRecord(
                              row.getLong("version"),
                              row.getString("operation"),
                              row.getInteger("start_line"),
                              row.getInteger("end_line"),
                              row.getString("before_content"),
                              row.getString("after_content"),
                              row.getString("reason"),
                              row.getString("author"),
                              row.getString("subject"),
                              row.getLong("created_ms"))));
              return out;
            });
  }

  @Override
  public Future<List<Snapshot>> snapshots(String docId) {
    return pool.preparedQuery(Sql.LIST_DOCUMENT_SNAPSHOTS)
        .execute(Tuple.of(docId))
        .map(
            rows -> {
              List<Snapshot> out = new ArrayList<>();
              rows.forEach(row -> out.add(snapshot(row)));
              return out;
            });
  }

  @Override
  public Future<Committed> commit(String docId, Guard guard, Edit edit) {
    return pool.withTransaction(
        connection ->
            lock(connection, docId)
                .compose(
                    state -> {
                      Document document = state.document();
                      if (guard instanceof Guard.Agent agent) {
                        DocumentRules.checkAgent(agent, state.lease(), document, false);
                      } else {
                        DocumentRules.checkBase(((Guard.Person) guard).baseRevisionId(), document);
                      }
                      Future<Optional<Snapshot>> snapshot =
                          edit instanceof Edit.Revert revert
                              ? connection
                                  .preparedQuery(Sql.FIND_DOCUMENT_SNAPSHOT)
                                  .execute(Tuple.of(docId, revert.snapshotId()))
                                  .map(
                                      rows ->
                                          rows.rowCount() == 0
                                              ? Optional.<Snapshot>empty()
                                              : Optional.of(snapshot(rows.iterator().next())))
                              : Future.succeededFuture(Optional.empty());
                      return snapshot
                          .compose(
                              found ->
                                  DocumentRules.target(document, edit, found)
                                      .map(
                                          revisionId ->
                                              content(connection, docId, revisionId)
                                                  .map(Optional::orElseThrow))
                                      .orElse(Future.succeededFuture(null)))
                          .compose(
                              target ->
                                  write(
                                      connection,
                                      state,
                                      guard,
                                      DocumentRules.plan(document, edit, target)));
                    }));
  }

  private Future<Committed> write(
      SqlConnection connection, State state, Guard guard, DocumentRules.Planned planned) {
    Document document = state.document();
    long now = state.nowMillis();
    Lease lease = state.lease();
    Future<Lease> leaseWritten =
        guard instanceof Guard.Agent agent
            ? setHeldLease(connection, agent, DocumentRules.renewed(lease, agent.ttlMs(), now))
            : setLease(connection, DocumentRules.free(document.id(), lease.epoch() + 1, now));
    if (!planned.changed(document)) {
      return leaseWritten.map(
          after -> new Committed(document, null, planned.change().details(), after, false));
    }
    Change change = planned.change();
    long version = document.version() + 1;
    Document written =
        new Document(
            document.id(),
            document.roomId(),
            document.title(),
            change.content(),
            planned.revisionId(),
            version,
            planned.undoStack(),
            planned.redoStack(),
            document.createdAtMillis(),
            now);
    Actor author = guard.actor();
    DiffRecord diff =
        new DiffRecord(
            version,
            change.operation(),
            change.startLine(),
            change.endLine(),
            change.before(),
            change.after(),
            change.reason(),
            author.name(),
            author.subject(),
            now);
    return leaseWritten.compose(
        after ->
            connection
                .preparedQuery(Sql.UPDATE_DOCUMENT)
                .execute(
                    Tuple.of(
                        document.id(),
                        change.content(),
                        planned.revisionId(),
                        new JsonArray(planned.undoStack()),
                        new JsonArray(planned.redoStack()),
                        document.version(),
                        now))
                .compose(
                    updated ->
                        updated.rowCount() == 1
                            ? Future.succeededFuture()
                            : Failure.future(
                                FailureCode.REVISION_CONFLICT,
                                "the document changed during the write"))
                .compose(
                    updated ->
                        connection
                            .preparedQuery(Sql.INSERT_DOCUMENT_REVISION)
                            .execute(
                                Tuple.of(
                                    document.id(),
                                    version,
                                    planned.revisionId(),
                                    change.content(),
                                    author.name(),
                                    author.subject())))
                .compose(
                    revised ->
                        connection
                            .preparedQuery(Sql.INSERT_DOCUMENT_DIFF)
                            .execute(
                                Tuple.tuple()
                                    .addString(document.id())
                                    .addLong(version)
                                    .addString(change.operation())
                                    .addInteger(change.startLine())
                                    .addInteger(change.endLine())
                                    .addString(change.before())
                                    .addString(change.after())
                                    .addString(change.reason())
                                    .addString(author.name())
                                    .addString(author.subject())))
                .map(recorded -> new Committed(written, diff, change.details(), after, true)));
  }

  @Override
  public Future<Snapshot> saveSnapshot(
      String docId, Guard.Agent guard, String snapshotId, String label, String description) {
    return pool.withTransaction(
        connection ->
            lock(connection, docId)
                .compose(
                    state -> {
                      DocumentRules.checkAgent(guard, state.lease(), state.document(), false);
                      return setHeldLease(
                              connection,
                              guard,
                              DocumentRules.renewed(
                                  state.lease(), guard.ttlMs(), state.nowMillis()))
                          .compose(
                              renewed ->
                                  connection
                                      .preparedQuery(Sql.INSERT_DOCUMENT_SNAPSHOT)
                                      .execute(
                                          Tuple.of(
                                              snapshotId,
                                              docId,
                                              state.document().revisionId(),
                                              label,
                                              description,
                                              DocumentText.lineCount(state.document().content()))))
                          .map(rows -> snapshot(rows.iterator().next()));
                    }));
  }

  @Override
  public Future<Lease> checkOut(String docId, String leaseId, Actor holder, long ttlMs) {
    return pool.withTransaction(
        connection ->
            lock(connection, docId)
                .compose(
                    state -> {
                      DocumentRules.checkFree(state.lease());
                      long now = state.nowMillis();
                      return setLease(
                          connection,
                          DocumentRules.lease(
                              docId,
                              leaseId,
                              holder,
                              now,
                              now + ttlMs,
                              state.lease().epoch(),
                              now));
                    }));
  }

  @Override
  public Future<Lease> renew(String docId, Guard.Agent guard) {
    return pool.withTransaction(
        connection ->
            lock(connection, docId)
                .compose(
                    state -> {
                      DocumentRules.checkAgent(guard, state.lease(), state.document(), false);
                      return setHeldLease(
                          connection,
                          guard,
                          DocumentRules.renewed(state.lease(), guard.ttlMs(), state.nowMillis()));
                    }));
  }

  @Override
  public Future<Lease> checkIn(String docId, Guard.Agent guard) {
    return pool.withTransaction(
        connection ->
            lock(connection, docId)
                .compose(
                    state -> {
                      DocumentRules.checkAgent(guard, state.lease(), state.document(), true);
                      return setHeldLease(
                          connection,
                          guard,
                          DocumentRules.free(docId, state.lease().epoch(), state.nowMillis()));
                    }));
  }

  @Override
  public Future<Lease> preempt(String docId) {
    return pool.withTransaction(
        connection ->
            lock(connection, docId)
                .compose(
                    state ->
                        setLease(
                            connection,
                            DocumentRules.free(
                                docId, state.lease().epoch() + 1, state.nowMillis()))));
  }

  @Override
  public Future<Optional<Lease>> lease(String docId) {
    return pool.preparedQuery(Sql.FIND_DOCUMENT_LEASE)
        .execute(Tuple.of(docId))
        .map(
            rows -> {
              if (rows.rowCount() == 0) {
                return Optional.empty();
              }
              Row row = rows.iterator().next();
              return Optional.of(lease(docId, rows.iterator().next()));
            });
  }

  /** Writes {@code lease} whoever held the row's lease: a check-out (judged free first) or a preemption. */
  private static Future<Lease> setLease(SqlConnection connection, Lease lease) {
    return connection
        .preparedQuery(Sql.SET_DOCUMENT_LEASE)
        .execute(leaseValues(lease))
        .map(written -> lease);
  }

  /**
   * Writes {@code lease} for the holder {@code guard} speaks for, on condition that the row still holds
   * its lease (id, subject, session, epoch): the database itself refuses anyone else, LOCK_NOT_OWNED.
   */
  private static Future<Lease> setHeldLease(
      SqlConnection connection, Guard.Agent guard, Lease lease) {
    Tuple values =
        leaseValues(lease)
            .addString(guard.leaseId())
            .addString(guard.actor().subject())
            .addString(guard.actor().agentSession())
            .addLong(guard.epoch());
    return connection
        .preparedQuery(Sql.UPDATE_HELD_DOCUMENT_LEASE)
        .execute(values)
        .compose(
            updated ->
                updated.rowCount() == 1
                    ? Future.succeededFuture(lease)
                    : Failure.future(
                        FailureCode.LOCK_NOT_OWNED,
                        "the document's lease is not held by " + guard.actor().name()));
  }

  private static Tuple leaseValues(Lease lease) {
    Actor holder = lease.holder();
    return Tuple.tuple()
        .addString(lease.docId())
        .addString(lease.leaseId())
        .addString(holder == null ? null : holder.subject())
        .addString(holder == null ? null : holder.agentSession())
        .addLong(lease.heldSinceMillis())
        .addLong(lease.expiresAtMillis())
        .addLong(lease.epoch());
  }

  /** The lease columns of {@code row}, judged by the database's now in it. */
  private static Lease lease(String docId, Row row) {
    String subject = row.getString("holder_subject");
    Actor holder = subject == null ? null : new Actor(subject, row.getString("holder_session"));
    return DocumentRules.lease(
        docId,
        row.getString("lease_id"),
        holder,
        row.getLong("held_since_ms"),
        row.getLong("expires_ms"),
        row.getLong("epoch"),
        row.getLong("now_ms"));
  }

  private static Future<State> lock(SqlConnection connection, String docId) {
    return connection
        .preparedQuery(Sql.LOCK_DOCUMENT)
        .execute(Tuple.of(docId))
        .compose(
            rows ->
                rows.rowCount() == 0
                    ? Failure.future(FailureCode.NOT_FOUND, "no document " + docId)
                    : Future.succeededFuture(state(rows.iterator().next())));
  }

  private static State state(Row row) {
    long now = row.getLong("now_ms");
    String docId = row.getString("id");
    Document document =
        new Document(
            docId,
            row.getString("room_id"),
            row.getString("title"),
            row.getString("content"),
            row.getString("revision_id"),
            row.getLong("version"),
            strings(row.getJson("undo_stack")),
            strings(row.getJson("redo_stack")),
            row.getLong("created_ms"),
            row.getLong("updated_ms"));
    return new State(document, lease(docId, row), now);
  }

  private static List<String> strings(Object json) {
    List<String> out = new ArrayList<>();
    if (json instanceof JsonArray array) {
      array.forEach(value -> out.add(String.valueOf(value)));
    }
    return out;
  }

  private static Snapshot snapshot(Row row) {
    return new Snapshot(
        row.getString("id"),
        row.getString("doc_id"),
        row.getString("revision_id"),
        row.getString("label"),
        row.getString("description"),
        row.getInteger("line_count"),
        row.getLong("created_ms"));
  }
}
