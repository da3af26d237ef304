package dev.canvasagent.store.pg;

import dev.canvasagent.store.RateLimits;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowIterator;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Optional;

/**
 * Rate limits in {@code canvas_rate_limits}, one row per (limit, key): every node sharing the
 * database counts against the same allowance. A take is one conditional upsert per allowance, in one
 * transaction so that two allowances are taken together or not at all; a refused one is read back,
 * locked by the upsert, for its wait, and the transaction rolled back. Rows of refilled keys are
 * deleted by {@link #forgetRefilled} (an index on the time), never scanned on a take.
 */
final class PgRateLimits implements RateLimits {
  private final Pool pool;

  PgRateLimits(Pool pool) {
    this.pool = pool;
  }

  /** Rolls the take back: an allowance had nothing left. */
  private static final class Refused extends RuntimeException {
    private final transient Wait wait;

    Refused(Wait wait) {
      super(null, null, false, false);
      this.wait = wait;
    }
  }

  @Override
  public Future<Optional<Wait>> take(List<Allowance> allowances, long nowNanos) {
    return pool.<Optional<Wait>>withTransaction(
            connection -> {
              Future<Void> taken = Future.succeededFuture();
              for (int i = 0; i < allowances.size(); i++) {
                int index = i;
                taken = taken.compose(previous -> takeOne(connection, allowances, index, nowNanos));
              }
              return taken.map(done -> Optional.<Wait>empty());
            })
        .recover(
            error ->
                error instanceof Refused refused
                    ? Future.succeededFuture(Optional.of(refused.wait))
                    : Future.failedFuture(error));
  }

  private static Future<Void> takeOne(
      SqlConnection connection, List<Allowance> allowances, int index, long nowNanos) {
    Allowance allowance = allowances.get(index);
    return connection
        .preparedQuery(Sql.TAKE_RATE_ALLOWANCE)
        .execute(
            Tuple.of(
                allowance.limit(),
                allowance.key(),
                nowNanos,
                allowance.intervalNanos(),
                allowance.burstNanos()))
        .compose(
            upserted ->
                upserted.rowCount() == 1
                    ? Future.<Void>succeededFuture()
                    : connection
                        .preparedQuery(Sql.RATE_ALLOWANCE_FULL_AGAIN_AT)
                        .execute(Tuple.of(allowance.limit(), allowance.key()))
                        .compose(
                            rows -> {
                              RowIterator<Row> found = rows.iterator();
                              long fullAgainAt =
                                  found.hasNext() ? found.next().getLong(0) : nowNanos;
                              long wait =
                                  Math.max(fullAgainAt, nowNanos)
                                      + allowance.intervalNanos()
                                      - allowance.burstNanos()
                                      - nowNanos;
                              return Future.failedFuture(new Refused(new Wait(index, wait)));
                            }));
  }

  @Override
  public Future<Void> giveBack(List<Allowance> allowances, long nowNanos) {
    Future<Void> given = Future.succeededFuture();
    for (Allowance allowance : allowances) {
      Tuple key = Tuple.of(allowance.limit(), allowance.key(), allowance.intervalNanos());
      given =
          given.compose(
              previous ->
                  // Whole again once given back: the key goes, as if never asked; else one less
                  // spent.
                  pool.preparedQuery(Sql.FORGET_WHOLE_RATE_ALLOWANCE)
                      .execute(
                          Tuple.of(
                              allowance.limit(),
                              allowance.key(),
                              allowance.intervalNanos(),
                              nowNanos))
                      .compose(
                          forgotten ->
                              forgotten.rowCount() > 0
                                  ? Future.succeededFuture()
                                  : pool.preparedQuery(Sql.GIVE_BACK_RATE_ALLOWANCE)
                                      .execute(key)
                                      .mapEmpty()));
    }
    return given;
  }

  @Override
  public Future<Integer> forgetRefilled(long nowNanos) {
    return pool.preparedQuery(Sql.FORGET_REFILLED_RATE_ALLOWANCES)
        .execute(Tuple.of(nowNanos))
        .map(deleted -> deleted.rowCount());
  }
}
