package dev.canvasagent.store.pg;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentRules;
import dev.canvasagent.store.DocumentStore.Document;
import dev.canvasagent.store.DocumentStore.Lease;
import dev.canvasagent.store.DocumentStore.Snapshot;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/** Reads a document's rows: the document and its lease locked together, and its snapshots. */
final class PgDocumentRows {
  private PgDocumentRows() {}

  /** The locked (or read) state: the document, its lease, and the database's now. */
  record State(Document document, Lease lease, long nowMillis) {}

  /** The lease columns of {@code row}, judged by the database's now in it. */
  static Lease lease(String docId, Row row) {
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

  static Future<State> lock(SqlConnection connection, String docId) {
    return connection
        .preparedQuery(Sql.LOCK_DOCUMENT)
        .execute(Tuple.of(docId))
        .compose(
            rows ->
                rows.rowCount() == 0
                    ? Failure.future(FailureCode.NOT_FOUND, "no document " + docId)
                    : Future.succeededFuture(state(rows.iterator().next())));
  }

  static State state(Row row) {
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

  static List<String> strings(Object json) {
    List<String> out = new ArrayList<>();
    if (json instanceof JsonArray array) {
      array.forEach(value -> out.add(String.valueOf(value)));
    }
    return out;
  }

  static Snapshot snapshot(Row row) {
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
