package dev.canvasagent.document;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.document.patch.MissingFinalNewline;
import dev.canvasagent.document.patch.StrictPatch;
import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.DocumentStore.Change;
import dev.canvasagent.store.DocumentStore.Committed;
import dev.canvasagent.store.DocumentStore.DiffRecord;
import dev.canvasagent.store.DocumentStore.Document;
import dev.canvasagent.store.DocumentStore.Edit;
import dev.canvasagent.store.DocumentStore.Guard;
import dev.canvasagent.store.DocumentStore.Lease;
import dev.canvasagent.store.DocumentStore.Snapshot;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs one document tool call for its caller (the {@link Actor} the server named: the token's subject,
 * or the document agent acting for one): arguments checked against the tool's schema, the lease checked
 * (it must be the caller's own) and renewed (every call that carries the lease is activity, and a refused
 * call renews nothing), the work done in the store's one step. Every answer carries {@code revision_id};
 * only the caller's own check-out and renewal answer the lease id.
 */
public final class DocumentTools {
  /** How long one grep or regex search-and-replace may run. */
  public static final long REGEX_BUDGET_MS = 250;

  static final int DEFAULT_GREP_RESULTS = 200;

  private final DocumentStore store;
  private final DocumentToolCatalog catalog;
  private final long leaseTtlMs;
  private final int maxContentBytes;
  private final Consumer<LeaseEvent> leaseEvents;
  private final Consumer<RevisionEvent> revisionEvents;
  private final StrictPatch patches = new StrictPatch(MissingFinalNewline.TOLERATED);

  /** A lease change for the lock indicator: {@code state} held, renewed, released or preempted. */
  public record LeaseEvent(String roomId, String docId, String state, Lease lease) {}

  /** A new revision of a document in {@code roomId}, written by {@code author} ({@code Actor#name()}). */
  public record RevisionEvent(String roomId, String docId, String revisionId, String author) {
    /** The event of a write, when it made a revision (a write that changed nothing made none). */
    public static Optional<RevisionEvent> of(Committed committed, Actor writer) {
      if (!committed.changed()) {
        return Optional.empty();
      }
      Document document = committed.document();
      return Optional.of(
          new RevisionEvent(
              document.roomId(), document.id(), document.revisionId(), writer.name()));
    }
  }

  public DocumentTools(
      DocumentStore store,
      DocumentToolCatalog catalog,
      long leaseTtlMs,
      int maxContentBytes,
      Consumer<LeaseEvent> leaseEvents,
      Consumer<RevisionEvent> revisionEvents) {
    this.store = store;
    this.catalog = catalog;
    this.leaseTtlMs = leaseTtlMs;
    this.maxContentBytes = maxContentBytes;
    this.leaseEvents = leaseEvents;
    this.revisionEvents = revisionEvents;
  }

  public Future<JsonObject> call(String docId, String tool, JsonObject args, Actor caller) {
    var schema = catalog.schema(tool);
    if (schema.isEmpty()) {
      return Failure.future(
          FailureCode.NOT_FOUND, "no document tool " + tool + "; GET /api/docs/tools lists them");
    }
    var violations = schema.get().violations(args);
    if (violations.isPresent()) {
      return Failure.future(FailureCode.INVALID_REQUEST, tool + ": " + violations.get());
    }
    try {
      // Seed 001 names the flag success, seed 004 ok: every answer carries both.
      return dispatch(docId, tool, args, caller).map(answer -> answer.put("success", true));
    } catch (Failure refused) {
      return Future.failedFuture(refused);
    }
  }

  private Future<JsonObject> dispatch(String docId, String tool, JsonObject args, Actor caller) {
    Guard.Agent guard = guard(args, null, caller);
    switch (tool) {
      case "canvas_check_out":
        return checkOut(docId, caller);
      case "canvas_renew_lease":
        return store
            .renew(docId, guard)
            .compose(
                lease ->
                    withRevision(docId, lease, "renewed")
                        .map(answer -> answer.put("lease_id", lease.leaseId())));
      case "canvas_check_in":
        return store
            .checkIn(docId, guard)
            .compose(
                lease ->
                    withRevision(docId, lease, "released")
                        .map(answer -> answer.put("released", true)));
      case "canvas_grep":
        return read(docId, guard, document -> DocumentReads.grep(document, args));
      case "canvas_read_lines":
        return read(
            docId,
            guard,
            document ->
                DocumentReads.lines(
                    document, args.getInteger("start_line"), args.getInteger("end_line")));
      case "canvas_read_all":
        return read(
            docId,
            guard,
            document ->
                new JsonObject()
                    .put("content", document.content())
                    .put("line_count", DocumentText.lineCount(document.content())));
      case "canvas_get_content":
        return read(docId, guard, document -> DocumentReads.content(document, args));
      case "canvas_get_selection_context":
        return read(docId, guard, document -> SelectionContext.of(document.content(), args));
      case "canvas_get_diff":
        return renewedAfter(
            docId,
            guard,
            store
                .find(docId)
                .compose(
                    found ->
                        found.isEmpty()
                            ? Failure.future(FailureCode.NOT_FOUND, "no document " + docId)
                            : diff(docId, args)));
      case "canvas_apply_patch":
        return write(
            docId, args, caller, document -> DocumentRewrites.patch(patches, document, args));
      case "canvas_replace_lines":
        return write(
            docId,
            args,
            caller,
            document ->
                LineEdits.replace(
                    document.content(),
                    args.getInteger("start_line"),
                    args.getInteger("end_line"),
                    args.getString("new_content"),
                    args.getString("reason")));
      case "canvas_insert_lines":
        return write(
            docId,
            args,
            caller,
            document ->
                LineEdits.insert(
                    document.content(),
                    args.getInteger("insert_after_line"),
                    args.getString("content"),
                    args.getString("reason")));
      case "canvas_delete_lines":
        return write(
            docId,
            args,
            caller,
            document ->
                LineEdits.delete(
                    document.content(),
                    args.getInteger("start_line"),
                    args.getInteger("end_line"),
                    args.getString("reason")));
      case "canvas_search_replace":
        return write(
            docId, args, caller, document -> DocumentRewrites.searchReplace(document, args));
      case "canvas_save_snapshot":
        return store
            .saveSnapshot(
                docId,
                guard,
                "snap-" + UUID.randomUUID(),
                args.getString("label"),
                args.getString("description"))
            .map(
                snapshot ->
                    snapshot
                        .toJson()
                        .put("ok", true)
                        .put("timestamp", timestamp(snapshot.createdAtMillis())));
      case "canvas_revert_to_snapshot":
        return revert(docId, guard, args.getString("snapshot_id"));
      case "canvas_undo":
        return stackMove(docId, guard, new Edit.Undo());
      case "canvas_redo":
        return stackMove(docId, guard, new Edit.Redo());
      default:
        return Failure.future(FailureCode.NOT_FOUND, "no document tool " + tool);
    }
  }

  /** The lease for {@code caller}, who alone is answered its id. */
  private Future<JsonObject> checkOut(String docId, Actor caller) {
    String leaseId = "lease-" + UUID.randomUUID();
    return store
        .checkOut(docId, leaseId, caller, leaseTtlMs)
        .compose(
            lease ->
                store
                    .find(docId)
                    .map(
                        found -> {
                          Document document = found.orElseThrow();
                          leaseEvents.accept(
                              new LeaseEvent(document.roomId(), docId, "held", lease));
                          return lease
                              .toJson()
                              .put("lease_id", lease.leaseId())
                              .put("revision_id_at_checkout", document.revisionId())
                              .put("revision_id", document.revisionId());
                        }));
  }

  private Future<JsonObject> withRevision(String docId, Lease lease, String state) {
    return store
        .find(docId)
        .map(
            found -> {
              Document document = found.orElseThrow();
              leaseEvents.accept(new LeaseEvent(document.roomId(), docId, state, lease));
              return lease.toJson().put("revision_id", document.revisionId());
            });
  }

  /**
   * The call's guard. {@code canvas_epoch} is optional: without it the store fences the call by the
   * epoch its lease was granted at. Read as a long, whole: an epoch past 2^31 is not cut to another.
   */
  private Guard.Agent guard(JsonObject args, String baseRevisionId, Actor caller) {
    return new Guard.Agent(
        args.getString("lease_id"),
        args.getLong("canvas_epoch"),
        baseRevisionId,
        leaseTtlMs,
        caller);
  }

  /**
   * A read: the work on the document as it is, then, when the call carries the lease, the lease checked
   * and renewed. A read that is refused (lines outside the document, an unknown revision) renews
   * nothing: a refusal leaves the state as it was. Reads need no lease, so doing the work first
   * shows a caller with a bad lease nothing it could not read without one.
   */
  private Future<JsonObject> read(
      String docId, Guard.Agent guard, Function<Document, Object> work) {
    return renewedAfter(
        docId,
        guard,
        store
            .find(docId)
            .compose(
                found -> {
                  if (found.isEmpty()) {
                    return Failure.future(FailureCode.NOT_FOUND, "no document " + docId);
                  }
                  Object answer = work.apply(found.get());
                  JsonObject json = answer instanceof JsonObject object ? object : new JsonObject();
                  return Future.succeededFuture(json.put("revision_id", found.get().revisionId()));
                }));
  }

  /** {@code answer}, once the lease the call carries (if any) is renewed. */
  private Future<JsonObject> renewedAfter(
      String docId, Guard.Agent guard, Future<JsonObject> answer) {
    return answer.compose(
        json ->
            guard.leaseId() == null
                ? Future.succeededFuture(json)
                : store.renew(docId, guard).map(renewed -> json));
  }

  private Future<JsonObject> write(
      String docId, JsonObject args, Actor caller, Function<Document, Change> change) {
    return commit(
        docId,
        guard(args, args.getString("base_revision_id"), caller),
        new Edit.Rewrite(
            document -> {
              Change computed = change.apply(document);
              DocumentText.refusal(computed.content(), maxContentBytes)
                  .ifPresent(
                      refusal -> {
                        throw refusal;
                      });
              return computed;
            }));
  }

  private Future<JsonObject> commit(String docId, Guard.Agent guard, Edit edit) {
    return committed(docId, guard, edit).map(DocumentTools::answer);
  }

  /** Every tool write goes through here, so each new revision is told, whichever tool made it. */
  private Future<Committed> committed(String docId, Guard.Agent guard, Edit edit) {
    return store
        .commit(docId, guard, edit)
        .onSuccess(
            committed -> RevisionEvent.of(committed, guard.actor()).ifPresent(revisionEvents));
  }

  /** An undo or redo, answered with what it took back ({@code undone_action}) or did again. */
  private Future<JsonObject> stackMove(String docId, Guard.Agent guard, Edit edit) {
    boolean undo = edit instanceof Edit.Undo;
    return committed(docId, guard, edit)
        .compose(
            committed ->
                (undo
                        ? StackAction.undone(store, docId, committed)
                        : StackAction.redone(store, docId, committed))
                    .map(
                        action ->
                            answer(committed)
                                .put(undo ? "undone_action" : "redone_action", action)));
  }

  /** A revert, answered as seed 001 has it: which snapshot, from when, and the unified diff it made. */
  private Future<JsonObject> revert(String docId, Guard.Agent guard, String snapshotId) {
    return committed(docId, guard, new Edit.Revert(snapshotId))
        .compose(
            committed ->
                store
                    .snapshots(docId)
                    .map(
                        snapshots -> {
                          Snapshot snapshot =
                              snapshots.stream()
                                  .filter(candidate -> candidate.id().equals(snapshotId))
                                  .findFirst()
                                  .orElseThrow();
                          DiffRecord diff = committed.diff();
                          return answer(committed)
                              .put(
                                  "reverted_to",
                                  new JsonObject()
                                      .put("snapshot_id", snapshotId)
                                      .put("timestamp", timestamp(snapshot.createdAtMillis()))
                                      .put("label", snapshot.label()))
                              .put(
                                  "diff",
                                  diff == null
                                      ? ""
                                      : DocumentDiffs.unified(diff.before(), diff.after(), 3));
                        }));
  }

  /** An ISO-8601 instant, as seed 001's {@code timestamp} fields are. */
  static String timestamp(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString();
  }

  static JsonObject answer(Committed committed) {
    JsonObject answer =
        committed
            .details()
            .copy()
            .put("ok", true)
            .put("changed", committed.changed())
            .put("revision_id", committed.document().revisionId())
            .put("new_revision_id", committed.document().revisionId())
            .put("line_count", DocumentText.lineCount(committed.document().content()))
            .put("undo_depth", committed.document().undoStack().size())
            .put("redo_depth", committed.document().redoStack().size())
            .put("can_undo", !committed.document().undoStack().isEmpty())
            .put("can_redo", !committed.document().redoStack().isEmpty());
    if (committed.lease().live()) {
      answer.put("expires_at", committed.lease().expiresAtMillis());
    }
    return answer;
  }

  private Future<JsonObject> diff(String docId, JsonObject args) {
    Future<String> from;
    String snapshotId = args.getString("snapshot_id");
    if (args.getString("from_revision_id") != null) {
      from = revision(docId, args.getString("from_revision_id"));
    } else {
      from =
          store
              .snapshots(docId)
              .compose(
                  snapshots -> {
                    var chosen =
                        snapshotId == null
                            ? snapshots.stream().findFirst()
                            : snapshots.stream()
                                .filter(snapshot -> snapshot.id().equals(snapshotId))
                                .findFirst();
                    if (snapshotId != null && chosen.isEmpty()) {
                      return Failure.future(
                          FailureCode.NOT_FOUND, "no snapshot " + snapshotId + " of this document");
                    }
                    if (chosen.isPresent()) {
                      return revision(docId, chosen.get().revisionId());
                    }
                    return store
                        .revisions(docId, Integer.MAX_VALUE)
                        .compose(all -> revision(docId, all.get(all.size() - 1).revisionId()));
                  });
    }
    return from.compose(
        before ->
            store
                .find(docId)
                .compose(
                    current -> {
                      String toId = args.getString("to_revision_id");
                      Future<String> to =
                          toId == null
                              ? Future.succeededFuture(current.orElseThrow().content())
                              : revision(docId, toId);
                      return to.map(
                          after -> {
                            JsonObject answer =
                                new JsonObject()
                                    .put("has_changes", !before.equals(after))
                                    .put("revision_id", current.orElseThrow().revisionId())
                                    .put("from_revision_id", DocumentText.revisionId(before))
                                    .put("to_revision_id", DocumentText.revisionId(after));
                            if ("split".equals(args.getString("format", "unified"))) {
                              return answer
                                  .put("format", "split")
                                  .put("changes", DocumentDiffs.split(before, after));
                            }
                            return answer
                                .put("format", "unified")
                                .put(
                                    "diff",
                                    DocumentDiffs.unified(
                                        before, after, args.getInteger("context_lines", 3)));
                          });
                    }));
  }

  private Future<String> revision(String docId, String revisionId) {
    return store
        .content(docId, revisionId)
        .compose(
            content ->
                content.isPresent()
                    ? Future.succeededFuture(content.get())
                    : Failure.future(
                        FailureCode.NOT_FOUND, "the document never had revision " + revisionId));
  }
}
