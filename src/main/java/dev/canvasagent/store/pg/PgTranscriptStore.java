package dev.canvasagent.store.pg;

import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.TranscriptStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** Transcripts in {@code canvas_transcripts}. */
final class PgTranscriptStore implements TranscriptStore {
  private final Pool pool;

  PgTranscriptStore(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Utterance> add(String roomId, Utterance utterance, Keyed keyed) {
    if (keyed == null) {
      return pool.preparedQuery(Sql.INSERT_UTTERANCE)
          .execute(Tuple.of(roomId, utterance.speaker(), utterance.text(), utterance.tsMillis()))
          .map(inserted -> utterance);
    }
    Tuple row =
        Tuple.of(
            roomId,
            utterance.speaker(),
            utterance.text(),
            utterance.tsMillis(),
            keyed.key(),
            keyed.id(),
            keyed.requestFingerprint());
    return pool.preparedQuery(Sql.INSERT_UTTERANCE_ONCE)
        .execute(row)
        .compose(
            inserted ->
                inserted.rowCount() == 1
                    ? Future.succeededFuture(utterance)
                    : pool.preparedQuery(Sql.FIND_UTTERANCE_BY_KEY)
                        .execute(Tuple.of(roomId, keyed.id()))
                        .compose(
                            found -> {
                              var first = found.iterator().next();
                              return Objects.equals(
                                      first.getString("request_fingerprint"),
                                      keyed.requestFingerprint())
                                  ? Future.succeededFuture(
                                      new Utterance(
                                          first.getString("speaker"),
                                          first.getString("text"),
                                          first.getLong("ts")))
                                  : Future.failedFuture(IdempotencyKeys.reused());
                            }));
  }

  @Override
  public Future<List<Utterance>> since(String roomId, long sinceMillis, int limit) {
    return pool.preparedQuery(Sql.LIST_UTTERANCES_SINCE)
        .execute(Tuple.of(roomId, sinceMillis, limit))
        .map(
            rows -> {
              List<Utterance> newestFirst = new ArrayList<>();
              rows.forEach(
                  row ->
                      newestFirst.add(
                          new Utterance(
                              row.getString("speaker"), row.getString("text"), row.getLong("ts"))));
              Collections.reverse(newestFirst);
              return newestFirst;
            });
  }
}
