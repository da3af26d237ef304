package dev.canvasagent.document;

import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.DocumentStore.Committed;
import dev.canvasagent.store.DocumentStore.DiffRecord;
import dev.canvasagent.store.DocumentStore.Revision;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Seed 001's {@code undone_action} / {@code redone_action}: {@code {type, lines_affected}}, what an
 * undo took back or a redo did again. {@code type} is the operation that first made that change
 * ({@code replace}, {@code patch}, …): revision ids are content hashes, so the change is the step
 * from one revision id to the other, found in the document's recent history (null when it is older
 * than that). {@code lines_affected} are the lines the undo or redo itself touched.
 */
final class StackAction {
  /** How far back the history is searched. */
  static final int HISTORY = 1000;

  private static final Set<String> STACK_MOVES = Set.of("undo", "redo");

  private StackAction() {}

  /** The undo went from revision B to A: it took back the change A to B. */
  static Future<JsonObject> undone(DocumentStore store, String docId, Committed committed) {
    return committed.diff() == null
        ? Future.succeededFuture(nothing())
        : action(store, docId, committed, committed.document().revisionId(), before(committed));
  }

  /** The redo went from revision A to B: it did the change A to B again. */
  static Future<JsonObject> redone(DocumentStore store, String docId, Committed committed) {
    return committed.diff() == null
        ? Future.succeededFuture(nothing())
        : action(store, docId, committed, before(committed), committed.document().revisionId());
  }

  private static String before(Committed committed) {
    return DocumentText.revisionId(committed.diff().before());
  }

  private static JsonObject nothing() {
    return new JsonObject().putNull("type").put("lines_affected", new JsonArray());
  }

  private static Future<JsonObject> action(
      DocumentStore store, String docId, Committed committed, String from, String to) {
    JsonArray lines =
        DocumentDiffs.changedLines(
            DocumentDiffs.split(committed.diff().before(), committed.diff().after()));
    return store
        .revisions(docId, HISTORY)
        .compose(
            revisions ->
                store
                    .diffs(docId, HISTORY)
                    .map(
                        diffs ->
                            new JsonObject()
                                .put("type", firstMade(revisions, diffs, from, to))
                                .put("lines_affected", lines)));
  }

  /** The newest operation, not itself an undo or redo, that went from {@code from} to {@code to}. */
  private static String firstMade(
      List<Revision> revisions, List<DiffRecord> diffs, String from, String to) {
    Map<Long, String> revisionAt = new HashMap<>();
    revisions.forEach(revision -> revisionAt.put(revision.version(), revision.revisionId()));
    for (DiffRecord diff : diffs) {
      if (!STACK_MOVES.contains(diff.operation())
          && to.equals(revisionAt.get(diff.version()))
          && from.equals(revisionAt.get(diff.version() - 1))) {
        return diff.operation();
      }
    }
    return null;
  }
}
