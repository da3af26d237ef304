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
  private final PgDocumentLeases leases;

  PgDocumentStore(Pool pool) {
    this.pool = pool;
    this.leases = new PgDocumentLeases(pool);
  }

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
                    : Optional.of(PgDocumentRows.state(rows.iterator().next()).document()));
  }

  @Override
  public Future<List<String>> idsInRoom(String roomId, int limit) {
    return pool.preparedQuery(Sql.DOCUMENT_IDS_IN_ROOM)
        .execute(Tuple.of(roomId, limit))
        .map(
            rows -> {
              List<String> ids = new ArrayList<>();
              rows.forEach(row -> ids.add(row.getString("id")));
              return ids;
            });
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
              rows.forEach(row -> out.add(PgDocumentRows.snapshot(row)));
              return out;
            });
  }

  @Override
  public Future<Committed> commit(String docId, Guard guard, Edit edit) {
    return pool.withTransaction(
        connection ->
            PgDocumentRows.lock(connection, docId)
                .compose(
                    state ->
                        guard instanceof Guard.Agent agent
                            ? PgDocumentLeases.fenced(connection, docId, agent)
                                .compose(fenced -> commit(connection, state, fenced, edit))
                            : commit(connection, state, guard, edit)));
  }

  /** The write, on the locked state, for a guard already fenced. */
  private Future<Committed> commit(
      SqlConnection connection, PgDocumentRows.State state, Guard guard, Edit edit) {
    String docId = state.document().id();
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
                            : Optional.of(PgDocumentRows.snapshot(rows.iterator().next())))
            : Future.succeededFuture(Optional.empty());
    return snapshot
        .compose(
            found ->
                DocumentRules.target(document, edit, found)
                    .map(
                        revisionId ->
                            content(connection, docId, revisionId).map(Optional::orElseThrow))
                    .orElse(Future.succeededFuture(null)))
        .compose(
            target -> write(connection, state, guard, DocumentRules.plan(document, edit, target)));
  }

  private Future<Committed> write(
      SqlConnection connection,
      PgDocumentRows.State state,
      Guard guard,
      DocumentRules.Planned planned) {
    Document document = state.document();
    long now = state.nowMillis();
    Lease lease = state.lease();
    Future<Lease> leaseWritten =
        guard instanceof Guard.Agent agent
            ? PgDocumentLeases.setHeldLease(
                connection, agent, DocumentRules.renewed(lease, agent.ttlMs(), now))
            : PgDocumentLeases.setLease(
                connection, DocumentRules.free(document.id(), lease.epoch() + 1, now));
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
            PgDocumentRows.lock(connection, docId)
                .compose(
                    state ->
                        PgDocumentLeases.fenced(connection, docId, guard)
                            .compose(
                                fenced ->
                                    snapshot(
                                        connection,
                                        state,
                                        fenced,
                                        snapshotId,
                                        label,
                                        description))));
  }

  /** The snapshot, on the locked state, for a guard already fenced. */
  private Future<Snapshot> snapshot(
      SqlConnection connection,
      PgDocumentRows.State state,
      Guard.Agent guard,
      String snapshotId,
      String label,
      String description) {
    String docId = state.document().id();
    DocumentRules.checkAgent(guard, state.lease(), state.document(), false);
    return PgDocumentLeases.setHeldLease(
            connection,
            guard,
            DocumentRules.renewed(state.lease(), guard.ttlMs(), state.nowMillis()))
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
        .map(rows -> PgDocumentRows.snapshot(rows.iterator().next()));
  }

  @Override
  public Future<Lease> checkOut(String docId, String leaseId, Actor holder, long ttlMs) {
    return leases.checkOut(docId, leaseId, holder, ttlMs);
  }

  @Override
  public Future<Lease> renew(String docId, Guard.Agent guard) {
    return leases.renew(docId, guard);
  }

  @Override
  public Future<Lease> checkIn(String docId, Guard.Agent guard) {
    return leases.checkIn(docId, guard);
  }

  @Override
  public Future<Lease> preempt(String docId) {
    return leases.preempt(docId);
  }

  @Override
  public Future<Optional<Lease>> lease(String docId) {
    return leases.lease(docId);
  }
}
