package dev.canvasagent.store.memory;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.store.DocumentRules;
import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/** Documents in this process's memory; every operation runs under one lock, judged by {@code clock}. */
final class MemoryDocumentStore implements DocumentStore {
  private record LeaseRow(
      String leaseId, Actor holder, Long heldSinceMillis, Long expiresAtMillis, long epoch) {
    static LeaseRow free(long epoch) {
      return new LeaseRow(null, null, null, null, epoch);
    }

    LeaseRow until(long expiresAtMillis) {
      return new LeaseRow(leaseId, holder, heldSinceMillis, expiresAtMillis, epoch);
    }
  }

  private record StoredRevision(Revision revision, String content) {}

  /** A lease as it was checked out: for whom, at which epoch (what fences a call without one). */
  private record LeaseGrant(Actor holder, long epoch) {}

  /** A document's grants in the order they were made, the oldest dropped past the bound. */
  private static Map<String, LeaseGrant> newestGrants() {
    return new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, LeaseGrant> eldest) {
        return size() > DocumentRules.MAX_LEASE_GRANTS;
      }
    };
  }

  private final Object lock = new Object();
  private final LongSupplier clock;
  private final Map<String, Document> documents = new HashMap<>();
  private final Map<String, List<StoredRevision>> revisions = new HashMap<>();
  private final Map<String, List<DiffRecord>> diffs = new HashMap<>();
  private final Map<String, List<Snapshot>> snapshots = new HashMap<>();
  private final Map<String, LeaseRow> leases = new HashMap<>();
  private final Map<String, Map<String, LeaseGrant>> grants = new HashMap<>();

  MemoryDocumentStore(LongSupplier clock) {
    this.clock = clock;
  }

  @Override
  public Future<Document> create(NewDocument document) {
    return guarded(
        () -> {
          Document existing = documents.get(document.id());
          if (existing != null) {
            throw new Failure(
                FailureCode.INVALID_REQUEST, "document " + document.id() + " already exists");
          }
          long now = clock.getAsLong();
          Document created =
              new Document(
                  document.id(),
                  document.roomId(),
                  document.title(),
                  document.content(),
                  DocumentText.revisionId(document.content()),
                  1,
                  List.of(),
                  List.of(),
                  now,
                  now);
          documents.put(created.id(), created);
          revisions.put(
              created.id(),
              new ArrayList<>(
                  List.of(
                      new StoredRevision(
                          new Revision(
                              1,
                              created.revisionId(),
                              document.author().name(),
                              document.author().subject(),
                              now),
                          document.content()))));
          diffs.put(
              created.id(),
              new ArrayList<>(
                  List.of(
                      new DiffRecord(
                          1,
                          "create",
                          1,
                          DocumentText.lineCount(document.content()),
                          null,
                          document.content(),
                          null,
                          document.author().name(),
                          document.author().subject(),
                          now))));
          snapshots.put(created.id(), new ArrayList<>());
          leases.put(created.id(), LeaseRow.free(0));
          grants.put(created.id(), newestGrants());
          return created;
        });
  }

  @Override
  public Future<Optional<Document>> find(String docId) {
    return guarded(() -> Optional.ofNullable(documents.get(docId)));
  }

  @Override
  public Future<List<String>> idsInRoom(String roomId, int limit) {
    return guarded(
        () ->
            documents.values().stream()
                .filter(document -> document.roomId().equals(roomId))
                .sorted(
                    Comparator.comparingLong(Document::createdAtMillis).thenComparing(Document::id))
                .limit(limit)
                .map(Document::id)
                .toList());
  }

  @Override
  public Future<Optional<String>> content(String docId, String revisionId) {
    return guarded(
        () ->
            revisions.getOrDefault(docId, List.of()).stream()
                .filter(stored -> stored.revision().revisionId().equals(revisionId))
                .map(StoredRevision::content)
                .findFirst());
  }

  @Override
  public Future<List<Revision>> revisions(String docId, int limit) {
    return guarded(
        () ->
            revisions.getOrDefault(docId, List.of()).stream()
                .map(StoredRevision::revision)
                .sorted(Comparator.comparingLong(Revision::version).reversed())
                .limit(limit)
                .toList());
  }

  @Override
  public Future<List<DiffRecord>> diffs(String docId, int limit) {
    return guarded(
        () ->
            diffs.getOrDefault(docId, List.of()).stream()
                .sorted(Comparator.comparingLong(DiffRecord::version).reversed())
                .limit(limit)
                .toList());
  }

  @Override
  public Future<List<Snapshot>> snapshots(String docId) {
    return guarded(
        () -> {
          List<Snapshot> newestFirst = new ArrayList<>(snapshots.getOrDefault(docId, List.of()));
          java.util.Collections.reverse(newestFirst);
          return newestFirst;
        });
  }

  @Override
  public Future<Committed> commit(String docId, Guard guard, Edit edit) {
    return guarded(
        () -> {
          Document document = existing(docId);
          long now = clock.getAsLong();
          Lease lease = lease(docId, now);
          if (guard instanceof Guard.Agent agent) {
            DocumentRules.checkAgent(fenced(docId, agent), lease, document, false);
          } else {
            DocumentRules.checkBase(((Guard.Person) guard).baseRevisionId(), document);
          }
          Optional<Snapshot> snapshot =
              edit instanceof Edit.Revert revert
                  ? snapshots.get(docId).stream()
                      .filter(candidate -> candidate.id().equals(revert.snapshotId()))
                      .findFirst()
                  : Optional.empty();
          String target =
              DocumentRules.target(document, edit, snapshot)
                  .map(
                      revisionId ->
                          revisions.get(docId).stream()
                              .filter(stored -> stored.revision().revisionId().equals(revisionId))
                              .map(StoredRevision::content)
                              .reduce((first, later) -> later)
                              .orElseThrow())
                  .orElse(null);
          DocumentRules.Planned planned = DocumentRules.plan(document, edit, target);
          Document after = document;
          DiffRecord diff = null;
          if (planned.changed(document)) {
            long version = document.version() + 1;
            Change change = planned.change();
            after =
                new Document(
                    docId,
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
            diff =
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
            documents.put(docId, after);
            revisions
                .get(docId)
                .add(
                    new StoredRevision(
                        new Revision(
                            version, after.revisionId(), author.name(), author.subject(), now),
                        after.content()));
            diffs.get(docId).add(diff);
          }
          LeaseRow row = leases.get(docId);
          if (guard instanceof Guard.Agent agent) {
            leases.put(docId, row.until(now + agent.ttlMs()));
          } else {
            leases.put(docId, LeaseRow.free(row.epoch() + 1));
          }
          return new Committed(
              after, diff, planned.change().details(), lease(docId, now), diff != null);
        });
  }

  @Override
  public Future<Snapshot> saveSnapshot(
      String docId, Guard.Agent guard, String snapshotId, String label, String description) {
    return guarded(
        () -> {
          Document document = existing(docId);
          long now = clock.getAsLong();
          DocumentRules.checkAgent(fenced(docId, guard), lease(docId, now), document, false);
          Snapshot snapshot =
              new Snapshot(
                  snapshotId,
                  docId,
                  document.revisionId(),
                  label,
                  description,
                  DocumentText.lineCount(document.content()),
                  now);
          snapshots.get(docId).add(snapshot);
          renew(docId, now, guard.ttlMs());
          return snapshot;
        });
  }

  @Override
  public Future<Lease> checkOut(String docId, String leaseId, Actor holder, long ttlMs) {
    return guarded(
        () -> {
          existing(docId);
          long now = clock.getAsLong();
          DocumentRules.checkFree(lease(docId, now));
          long epoch = leases.get(docId).epoch();
          leases.put(docId, new LeaseRow(leaseId, holder, now, now + ttlMs, epoch));
          grants.get(docId).put(leaseId, new LeaseGrant(holder, epoch));
          return lease(docId, now);
        });
  }

  @Override
  public Future<Lease> renew(String docId, Guard.Agent guard) {
    return guarded(
        () -> {
          Document document = existing(docId);
          long now = clock.getAsLong();
          DocumentRules.checkAgent(fenced(docId, guard), lease(docId, now), document, false);
          renew(docId, now, guard.ttlMs());
          return lease(docId, now);
        });
  }

  @Override
  public Future<Lease> checkIn(String docId, Guard.Agent guard) {
    return guarded(
        () -> {
          Document document = existing(docId);
          long now = clock.getAsLong();
          DocumentRules.checkAgent(fenced(docId, guard), lease(docId, now), document, true);
          leases.put(docId, LeaseRow.free(leases.get(docId).epoch()));
          return lease(docId, now);
        });
  }

  @Override
  public Future<Lease> preempt(String docId) {
    return guarded(
        () -> {
          existing(docId);
          leases.put(docId, LeaseRow.free(leases.get(docId).epoch() + 1));
          return lease(docId, clock.getAsLong());
        });
  }

  @Override
  public Future<Optional<Lease>> lease(String docId) {
    return guarded(
        () ->
            documents.containsKey(docId)
                ? Optional.of(lease(docId, clock.getAsLong()))
                : Optional.empty());
  }

  /** {@code guard} fenced by its lease's own epoch when it sent none, as the PostgreSQL store does. */
  private Guard.Agent fenced(String docId, Guard.Agent guard) {
    if (!guard.needsLeaseEpoch()) {
      return guard;
    }
    LeaseGrant grant = grants.get(docId).get(guard.leaseId());
    return guard.withLeaseEpoch(
        grant != null && grant.holder().equals(guard.actor()) ? grant.epoch() : null);
  }

  private void renew(String docId, long now, long ttlMs) {
    leases.put(docId, leases.get(docId).until(now + ttlMs));
  }

  private Lease lease(String docId, long now) {
    LeaseRow row = leases.get(docId);
    return DocumentRules.lease(
        docId,
        row.leaseId(),
        row.holder(),
        row.heldSinceMillis(),
        row.expiresAtMillis(),
        row.epoch(),
        now);
  }

  private Document existing(String docId) {
    Document document = documents.get(docId);
    if (document == null) {
      throw new Failure(FailureCode.NOT_FOUND, "no document " + docId);
    }
    return document;
  }

  private <T> Future<T> guarded(java.util.function.Supplier<T> work) {
    synchronized (lock) {
      try {
        return Future.succeededFuture(work.get());
      } catch (RuntimeException refused) {
        return Future.failedFuture(refused);
      }
    }
  }
}
