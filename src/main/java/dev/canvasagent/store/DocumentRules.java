package dev.canvasagent.store;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentStore.Change;
import dev.canvasagent.store.DocumentStore.Document;
import dev.canvasagent.store.DocumentStore.Edit;
import dev.canvasagent.store.DocumentStore.Guard;
import dev.canvasagent.store.DocumentStore.Lease;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decisions both document stores make the same way, on state they have locked: whether a guard
 * may write, which revision an undo, redo or revert goes back to, and the state a write leaves.
 */
public final class DocumentRules {
  /** How many revisions the undo and redo stacks keep each. */
  public static final int MAX_STACK = 100;

  /**
   * How many lease grants a document keeps, newest first. An older lease's holder, calling without
   * {@code canvas_epoch}, gets {@code LOCK_NOT_OWNED} instead of {@code STALE_EPOCH}: still refused,
   * and the grants of a document checked out every few seconds for years stay a few rows.
   */
  public static final int MAX_LEASE_GRANTS = 64;

  private DocumentRules() {}

  /** A lease row as stored, judged at {@code nowMillis} of the store's clock. */
  public static Lease lease(
      String docId,
      String leaseId,
      Actor holder,
      Long heldSinceMillis,
      Long expiresAtMillis,
      long epoch,
      long nowMillis) {
    boolean live =
        leaseId != null && holder != null && expiresAtMillis != null && expiresAtMillis > nowMillis;
    return new Lease(docId, leaseId, holder, heldSinceMillis, expiresAtMillis, epoch, live);
  }

  /** The same lease, running {@code ttlMs} from {@code nowMillis}. */
  public static Lease renewed(Lease lease, long ttlMs, long nowMillis) {
    return lease(
        lease.docId(),
        lease.leaseId(),
        lease.holder(),
        lease.heldSinceMillis(),
        nowMillis + ttlMs,
        lease.epoch(),
        nowMillis);
  }

  /** Nobody's lease, at {@code epoch}. */
  public static Lease free(String docId, long epoch, long nowMillis) {
    return lease(docId, null, null, null, null, epoch, nowMillis);
  }

  /**
   * Refuses the call unless its actor holds the live lease at the current epoch (and, if given, base
   * revision). The epoch is the caller's {@code canvas_epoch}, or, when it sent none, the one its
   * lease was granted at ({@link Guard.Agent#fence()}): a preempted lease is refused STALE_EPOCH
   * either way. The lease id alone is not enough: whoever else learns it (another editor, a log) is
   * refused LOCK_NOT_OWNED as if it had named no lease.
   */
  public static void checkAgent(
      Guard.Agent guard, Lease lease, Document document, boolean allowExpired) {
    Long fence = guard.fence();
    if (fence != null && fence != lease.epoch()) {
      String stale =
          guard.epoch() != null
              ? "canvas_epoch " + guard.epoch() + " is stale"
              : "lease " + guard.leaseId() + " was granted at epoch " + fence;
      throw new Failure(
          FailureCode.STALE_EPOCH,
          stale
              + ": the document is at epoch "
              + lease.epoch()
              + " (the lease was preempted); check out again");
    }
    // Whose lease it is first, so a caller who is not the holder learns nothing about the id it
    // sent.
    if (lease.leaseId() != null && !guard.actor().equals(lease.holder())) {
      throw new Failure(
          FailureCode.LOCK_NOT_OWNED,
          "the document's lease is held by "
              + lease.holder().name()
              + ", not by "
              + guard.actor().name()
              + "; only the one who checked it out may use it");
    }
    if (lease.leaseId() == null || !lease.leaseId().equals(guard.leaseId())) {
      throw new Failure(
          FailureCode.LOCK_NOT_OWNED,
          "lease " + guard.leaseId() + " is not the document's current lease");
    }
    if (!lease.live() && !allowExpired) {
      throw new Failure(
          FailureCode.LEASE_EXPIRED, "lease " + guard.leaseId() + " expired; check out again");
    }
    checkBase(guard.baseRevisionId(), document);
  }

  public static void checkBase(String baseRevisionId, Document document) {
    if (baseRevisionId != null && !baseRevisionId.equals(document.revisionId())) {
      throw new Failure(
          FailureCode.REVISION_CONFLICT,
          "the document is at revision " + document.revisionId() + ", not " + baseRevisionId);
    }
  }

  /** Refuses a taken lease; what a check-out judges. */
  public static void checkFree(Lease lease) {
    if (lease.live()) {
      throw new Failure(
          FailureCode.LOCK_NOT_AVAILABLE,
          "the document is checked out by "
              + lease.holder().name()
              + " until "
              + java.time.Instant.ofEpochMilli(lease.expiresAtMillis()));
    }
  }

  /** The revision whose content an undo, redo or revert needs; empty for a rewrite. */
  public static Optional<String> target(
      Document document, Edit edit, Optional<DocumentStore.Snapshot> snapshot) {
    if (edit instanceof Edit.Undo) {
      if (document.undoStack().isEmpty()) {
        throw new Failure(FailureCode.INVALID_REQUEST, "nothing to undo");
      }
      return Optional.of(document.undoStack().get(document.undoStack().size() - 1));
    }
    if (edit instanceof Edit.Redo) {
      if (document.redoStack().isEmpty()) {
        throw new Failure(FailureCode.INVALID_REQUEST, "nothing to redo");
      }
      return Optional.of(document.redoStack().get(document.redoStack().size() - 1));
    }
    if (edit instanceof Edit.Revert revert) {
      return Optional.of(
          snapshot
              .orElseThrow(
                  () ->
                      new Failure(
                          FailureCode.NOT_FOUND,
                          "no snapshot " + revert.snapshotId() + " of this document"))
              .revisionId());
    }
    return Optional.empty();
  }

  /** The state after {@code edit}: content, stacks and the change to record. */
  public static Planned plan(Document document, Edit edit, String targetContent) {
    List<String> undo = new ArrayList<>(document.undoStack());
    List<String> redo = new ArrayList<>(document.redoStack());
    Change change;
    if (edit instanceof Edit.Rewrite rewrite) {
      change = rewrite.change().apply(document);
      if (!change.content().equals(document.content())) {
        push(undo, document.revisionId());
        redo.clear();
      }
    } else if (edit instanceof Edit.Undo) {
      undo.remove(undo.size() - 1);
      push(redo, document.revisionId());
      change = whole(document, targetContent, "undo");
    } else if (edit instanceof Edit.Redo) {
      redo.remove(redo.size() - 1);
      push(undo, document.revisionId());
      change = whole(document, targetContent, "redo");
    } else {
      change = whole(document, targetContent, "revert");
      if (!targetContent.equals(document.content())) {
        push(undo, document.revisionId());
        redo.clear();
      }
    }
    return new Planned(change, DocumentText.revisionId(change.content()), undo, redo);
  }

  private static Change whole(Document document, String content, String operation) {
    return new Change(
        content,
        operation,
        1,
        Math.max(1, DocumentText.lineCount(document.content())),
        document.content(),
        content,
        null,
        new io.vertx.core.json.JsonObject());
  }

  private static void push(List<String> stack, String revisionId) {
    stack.add(revisionId);
    while (stack.size() > MAX_STACK) {
      stack.remove(0);
    }
  }

  /** A planned write: {@code changed} is false when the content stays as it was (and the stacks too). */
  public record Planned(
      Change change, String revisionId, List<String> undoStack, List<String> redoStack) {
    public boolean changed(Document document) {
      return !change.content().equals(document.content())
          || !undoStack.equals(document.undoStack())
          || !redoStack.equals(document.redoStack());
    }
  }
}
