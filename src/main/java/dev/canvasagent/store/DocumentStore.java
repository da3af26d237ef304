package dev.canvasagent.store;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.LeaseView;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Markdown documents, their revision history, snapshots, diffs, undo/redo stacks and their one lease.
 * Every write is checked and committed in one step (one transaction in PostgreSQL, under one lock in
 * memory): the guard (lease, epoch, base revision) is judged against the state the write changes, so
 * a write from a preempted agent can never commit. Refusals are {@code bus.Failure}s with the code the
 * client sees; nothing is written when one is raised.
 */
public interface DocumentStore {
  /** Creates the document at its first revision, with a free lease at epoch 0. */
  Future<Document> create(NewDocument document);

  Future<Optional<Document>> find(String docId);

  /** The content a revision of the document had; empty when the document never had it. */
  Future<Optional<String>> content(String docId, String revisionId);

  /** The document's revisions, the newest first, at most {@code limit}. */
  Future<List<Revision>> revisions(String docId, int limit);

  /** The recorded diffs, the newest first, at most {@code limit}. */
  Future<List<DiffRecord>> diffs(String docId, int limit);

  /** The snapshots, the newest first. */
  Future<List<Snapshot>> snapshots(String docId);

  /**
   * Checks {@code guard} and applies {@code edit} as one step; a change of content makes a new revision
   * (pushing the old one on the undo stack unless the edit is an undo or redo). An edit that leaves the
   * content as it is writes nothing but still counts as the lease holder's activity.
   */
  Future<Committed> commit(String docId, Guard guard, Edit edit);

  /** Saves the current revision as a snapshot, under the same guard rules as a write. */
  Future<Snapshot> saveSnapshot(
      String docId, Guard.Agent guard, String snapshotId, String label, String description);

  /**
   * Takes the free (or expired) lease for {@code holder}, who alone may use it after; LOCK_NOT_AVAILABLE
   * while another lease is live. The store keeps the epoch it granted the lease at: that epoch fences
   * the holder's calls that send no {@code canvas_epoch}.
   */
  Future<Lease> checkOut(String docId, String leaseId, Actor holder, long ttlMs);

  /** Extends the lease by {@code ttlMs} from now (the guard's checks apply). */
  Future<Lease> renew(String docId, Guard.Agent guard);

  /** Releases the lease (the guard's checks apply, except that an expired own lease may be released). */
  Future<Lease> checkIn(String docId, Guard.Agent guard);

  /**
   * Voids any lease and increments the epoch, so every later write of the old holder fails STALE_EPOCH,
   * with or without {@code canvas_epoch}.
   */
  Future<Lease> preempt(String docId);

  /** The lease as it is now; {@code live} judged by the store's clock. */
  Future<Optional<Lease>> lease(String docId);

  /** The ids of the room's documents, the oldest first (ties by id), at most {@code limit}. */
  Future<List<String>> idsInRoom(String roomId, int limit);

  record NewDocument(String id, String roomId, String title, String content, Actor author) {}

  record Document(
      String id,
      String roomId,
      String title,
      String content,
      String revisionId,
      long version,
      List<String> undoStack,
      List<String> redoStack,
      long createdAtMillis,
      long updatedAtMillis) {
    public Document {
      undoStack = List.copyOf(undoStack);
      redoStack = List.copyOf(redoStack);
    }
  }

  /**
   * One revision: {@code author} is the writer's {@link Actor#name()}, {@code subject} the token subject
   * it wrote for (null for revisions written before subjects were recorded).
   */
  record Revision(
      long version, String revisionId, String author, String subject, long createdAtMillis) {
    public JsonObject toJson() {
      return new JsonObject()
          .put("version", version)
          .put("revisionId", revisionId)
          .put("author", author)
          .put("subject", subject)
          .put("createdAt", createdAtMillis);
    }
  }

  /** What one write changed: the operation, the 1-based lines it touched, the text before and after, why, and who. */
  record DiffRecord(
      long version,
      String operation,
      Integer startLine,
      Integer endLine,
      String before,
      String after,
      String reason,
      String author,
      String subject,
      long createdAtMillis) {
    public JsonObject toJson() {
      return new JsonObject()
          .put("version", version)
          .put("operation", operation)
          .put("start_line", startLine)
          .put("end_line", endLine)
          .put("before", before)
          .put("after", after)
          .put("reason", reason)
          .put("author", author)
          .put("subject", subject)
          .put("created_at", createdAtMillis);
    }
  }

  record Snapshot(
      String id,
      String docId,
      String revisionId,
      String label,
      String description,
      int lineCount,
      long createdAtMillis) {
    public JsonObject toJson() {
      return new JsonObject()
          .put("snapshot_id", id)
          .put("revision_id", revisionId)
          .put("label", label)
          .put("description", description)
          .put("line_count", lineCount)
          .put("created_at", createdAtMillis);
    }
  }

  /**
   * A document's lease: {@code leaseId} and {@code holder} null when free; {@code live} when held and
   * not expired. Only {@code holder} may use {@code leaseId}.
   */
  record Lease(
      String docId,
      String leaseId,
      Actor holder,
      Long heldSinceMillis,
      Long expiresAtMillis,
      long epoch,
      boolean live) {
    /**
     * The lease as anyone who may read the document sees it: who holds it, since and until when, the
     * epoch. Never the lease id: it is the holder's alone, answered only to its own check-out and renewal.
     */
    public LeaseView view() {
      return new LeaseView(
          live,
          live ? holder.name() : null,
          live ? holder.subject() : null,
          live ? heldSinceMillis : null,
          live ? expiresAtMillis : null,
          epoch);
    }

    /** {@link #view()} as JSON. */
    public JsonObject toJson() {
      return view().toJson();
    }
  }

  /** Who writes, and on what condition. */
  sealed interface Guard {
    /**
     * A lease holder's tool call: {@code actor} must be the one the lease was checked out for.
     * {@code epoch} is the {@code canvas_epoch} the caller sent (null: none); {@code leaseEpoch} the
     * epoch the store granted the lease at, which the store fills in ({@link #withLeaseEpoch}) under
     * its lock when the caller sent none. The call is fenced by {@link #fence()}; {@code
     * baseRevisionId} is checked when given; a write renews the lease by {@code ttlMs}.
     */
    record Agent(
        String leaseId, Long epoch, Long leaseEpoch, String baseRevisionId, long ttlMs, Actor actor)
        implements Guard {
      /** A call as its caller made it: the store has not looked its lease up yet. */
      public Agent(String leaseId, Long epoch, String baseRevisionId, long ttlMs, Actor actor) {
        this(leaseId, epoch, null, baseRevisionId, ttlMs, actor);
      }

      /** The same call, fenced by the epoch its lease was granted at (null: no such lease). */
      public Agent withLeaseEpoch(Long granted) {
        return new Agent(leaseId, epoch, granted, baseRevisionId, ttlMs, actor);
      }

      /** Whether the store still has to look up the lease's own epoch to fence this call. */
      public boolean needsLeaseEpoch() {
        return epoch == null && leaseId != null;
      }

      /**
       * The epoch the document must still be at for this call: the caller's {@code canvas_epoch}
       * when it sent one, else its lease's own; null when neither is known (the lease checks then
       * refuse a lease that is not the current one).
       */
      public Long fence() {
        return epoch != null ? epoch : leaseEpoch;
      }
    }

    /** A person: wins over any agent lease (void, epoch + 1); {@code baseRevisionId} must be current. */
    record Person(String baseRevisionId, Actor actor) implements Guard {}

    /** Who writes: the revision is recorded as theirs. */
    Actor actor();
  }

  /** What a write does to the content. */
  sealed interface Edit {
    /** New content computed from the current document (inside the write's transaction; may throw a Failure). */
    record Rewrite(Function<Document, Change> change) implements Edit {}

    record Undo() implements Edit {}

    record Redo() implements Edit {}

    /** Back to a snapshot's content, as a new revision (undoable). */
    record Revert(String snapshotId) implements Edit {}
  }

  /** A computed change and what the tool reports about it beyond the revision. */
  record Change(
      String content,
      String operation,
      Integer startLine,
      Integer endLine,
      String before,
      String after,
      String reason,
      JsonObject details) {}

  /** The document after the write, the diff recorded (null when nothing changed), and the lease after it. */
  record Committed(
      Document document, DiffRecord diff, JsonObject details, Lease lease, boolean changed) {}
}
