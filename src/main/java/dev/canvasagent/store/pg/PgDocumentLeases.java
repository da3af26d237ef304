package dev.canvasagent.store.pg;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentRules;
import dev.canvasagent.store.DocumentStore.Guard;
import dev.canvasagent.store.DocumentStore.Lease;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;
import java.util.function.Function;

/**
 * A document's lease in PostgreSQL: check-out, renewal, check-in and preemption each lock the document
 * row and judge the lease with the database's clock, in one transaction.
 */
final class PgDocumentLeases {
  private final Pool pool;

  PgDocumentLeases(Pool pool) {
    this.pool = pool;
  }

  Future<Lease> checkOut(String docId, String leaseId, Actor holder, long ttlMs) {
    return pool.withTransaction(
        connection ->
            PgDocumentRows.lock(connection, docId)
                .compose(
                    state -> {
                      DocumentRules.checkFree(state.lease());
                      long now = state.nowMillis();
                      long epoch = state.lease().epoch();
                      return setLease(
                              connection,
                              DocumentRules.lease(
                                  docId, leaseId, holder, now, now + ttlMs, epoch, now))
                          .compose(
                              lease ->
                                  connection
                                      .preparedQuery(Sql.INSERT_DOCUMENT_LEASE_GRANT)
                                      .execute(
                                          Tuple.tuple()
                                              .addString(docId)
                                              .addString(leaseId)
                                              .addString(holder.subject())
                                              .addString(holder.agentSession())
                                              .addLong(epoch))
                                      .compose(
                                          granted ->
                                              connection
                                                  .preparedQuery(Sql.TRIM_DOCUMENT_LEASE_GRANTS)
                                                  .execute(
                                                      Tuple.of(
                                                          docId, DocumentRules.MAX_LEASE_GRANTS)))
                                      .map(trimmed -> lease));
                    }));
  }

  Future<Lease> renew(String docId, Guard.Agent guard) {
    return underLease(
        docId,
        guard,
        false,
        state -> DocumentRules.renewed(state.lease(), guard.ttlMs(), state.nowMillis()));
  }

  Future<Lease> checkIn(String docId, Guard.Agent guard) {
    return underLease(
        docId,
        guard,
        true,
        state -> DocumentRules.free(docId, state.lease().epoch(), state.nowMillis()));
  }

  /**
   * On the locked rows: the guard fenced and checked (an expired own lease too when {@code
   * allowExpired}), then the lease {@code next} makes of the state written for its holder.
   */
  private Future<Lease> underLease(
      String docId,
      Guard.Agent guard,
      boolean allowExpired,
      Function<PgDocumentRows.State, Lease> next) {
    return pool.withTransaction(
        connection ->
            PgDocumentRows.lock(connection, docId)
                .compose(
                    state ->
                        fenced(connection, docId, guard)
                            .compose(
                                fenced -> {
                                  DocumentRules.checkAgent(
                                      fenced, state.lease(), state.document(), allowExpired);
                                  return setHeldLease(connection, fenced, next.apply(state));
                                })));
  }

  Future<Lease> preempt(String docId) {
    return pool.withTransaction(
        connection ->
            PgDocumentRows.lock(connection, docId)
                .compose(
                    state ->
                        setLease(
                            connection,
                            DocumentRules.free(
                                docId, state.lease().epoch() + 1, state.nowMillis()))));
  }

  Future<Optional<Lease>> lease(String docId) {
    return pool.preparedQuery(Sql.FIND_DOCUMENT_LEASE)
        .execute(Tuple.of(docId))
        .map(
            rows -> {
              if (rows.rowCount() == 0) {
                return Optional.empty();
              }
              return Optional.of(PgDocumentRows.lease(docId, rows.iterator().next()));
            });
  }

  /**
   * {@code guard} fenced by the epoch its lease was granted at, when it sent no canvas_epoch: read in
   * the call's transaction, once the document and lease rows are locked (a grant never changes, so
   * the lock's order is what decides: a preemption that locked first has moved the epoch past it).
   */
  static Future<Guard.Agent> fenced(SqlConnection connection, String docId, Guard.Agent guard) {
    if (!guard.needsLeaseEpoch()) {
      return Future.succeededFuture(guard);
    }
    return connection
        .preparedQuery(Sql.FIND_DOCUMENT_LEASE_GRANT)
        .execute(
            Tuple.of(docId, guard.leaseId(), guard.actor().subject(), guard.actor().agentSession()))
        .map(
            rows ->
                guard.withLeaseEpoch(
                    rows.rowCount() == 0 ? null : rows.iterator().next().getLong("epoch")));
  }

  /** Writes {@code lease} whoever held the row's lease: a check-out (judged free first) or a preemption. */
  static Future<Lease> setLease(SqlConnection connection, Lease lease) {
    return connection
        .preparedQuery(Sql.SET_DOCUMENT_LEASE)
        .execute(leaseValues(lease))
        .map(written -> lease);
  }

  /**
   * Writes {@code lease} for the holder {@code guard} speaks for, on condition that the row still holds
   * its lease (id, subject, session, epoch): the database itself refuses anyone else, LOCK_NOT_OWNED.
   */
  static Future<Lease> setHeldLease(SqlConnection connection, Guard.Agent guard, Lease lease) {
    Tuple values =
        leaseValues(lease)
            .addString(guard.leaseId())
            .addString(guard.actor().subject())
            .addString(guard.actor().agentSession())
            .addLong(guard.fence());
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

  static Tuple leaseValues(Lease lease) {
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
}
