package dev.canvasagent.document;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.DocumentCreateRequest;
import dev.canvasagent.bus.DocumentCreated;
import dev.canvasagent.bus.DocumentEditRequest;
import dev.canvasagent.bus.DocumentEdited;
import dev.canvasagent.bus.DocumentHistory;
import dev.canvasagent.bus.DocumentHistoryRequest;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.DocumentRevision;
import dev.canvasagent.bus.DocumentRoom;
import dev.canvasagent.bus.DocumentToolResult;
import dev.canvasagent.bus.DocumentView;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.LeaseChange;
import dev.canvasagent.bus.LeasePreempted;
import dev.canvasagent.bus.RoomDocuments;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.DocumentStore.Document;
import dev.canvasagent.store.DocumentStore.Edit;
import dev.canvasagent.store.DocumentStore.Guard;
import dev.canvasagent.store.DocumentStore.Lease;
import dev.canvasagent.store.DocumentStore.NewDocument;
import dev.canvasagent.store.DocumentStore.Snapshot;
import dev.canvasagent.store.DocumentText;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease manager, and the owner of documents: it creates and reads them, takes a person's edits
 * (which preempt any agent lease), and runs the document tools under exclusive, expiring leases whose
 * epoch every agent write carries. Lease and epoch live in the store, so any node may serve any call.
 * Lease changes go out on the document's room as {@code doc:lease}, and every new revision, whoever
 * wrote it, as {@code doc:revision}. Every write names its {@link Actor}
 * in the request ({@code subject}, and {@code agentSession} for the document agent), as the bridge read it
 * from the token: a lease is bound to the actor that checked it out, and a revision records who wrote it.
 */
public final class LeaseVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseVerticle.class);

  private final DocumentStore documents;
  private final AppConfig.Documents config;
  private final DocumentToolCatalog catalog;
  private DocumentTools tools;
  private LeaseWatch watch;

  public LeaseVerticle(Store store, AppConfig.Documents config, DocumentToolCatalog catalog) {
    this.documents = store.documents();
    this.config = config;
    this.catalog = catalog;
  }

  @Override
  public String name() {
    return "lease";
  }

  @Override
  protected Future<?> startVerticle() {
    watch = new LeaseWatch(vertx, documents, this::announce);
    tools =
        new DocumentTools(
            documents,
            catalog,
            config.leaseTtlMs(),
            config.maxContentBytes(),
            this::publish,
            this::announceRevision);
    return Future.all(
        List.of(
            answer(Address.DOC_CREATE, this::create),
            answer(Address.DOC_GET, this::get),
            answer(Address.DOC_ROOM, this::room),
            answer(Address.DOC_ROOM_LEASES, this::roomLeases),
            answer(Address.DOC_REVISIONS, this::revisions),
            answer(Address.DOC_EDIT, this::edit),
            answer(Address.DOC_PREEMPT, this::preempt),
            answer(
                Address.DOC_TOOL,
                call ->
                    tools
                        .call(call.docId(), call.tool(), call.args(), call.caller())
                        .onFailure(
                            error -> {
                              if (Failure.of(error).code() == FailureCode.STALE_EPOCH) {
                                CanvasMetrics.of(vertx).staleEpochRefused();
                              }
                            })
                        .map(DocumentToolResult::new))));
  }

  private Future<DocumentCreated> create(DocumentCreateRequest ask) {
    var refusal = DocumentText.refusal(ask.content(), config.maxContentBytes());
    if (refusal.isPresent()) {
      return Future.failedFuture(refusal.get());
    }
    return documents
        .create(new NewDocument(ask.id(), ask.roomId(), ask.title(), ask.content(), ask.author()))
        .map(
            document -> {
              LOG.atInfo()
                  .addKeyValue("docId", document.id())
                  .addKeyValue("roomId", document.roomId())
                  .log("document.created");
              return new DocumentCreated(document.id(), document.roomId(), document.revisionId());
            });
  }

  private Future<DocumentRoom> room(DocumentRef ask) {
    return existing(ask.docId()).map(document -> new DocumentRoom(ask.docId(), document.roomId()));
  }

  /** {@code doc.room.leases}: each of the room's documents with its lease, for the admin view. */
  private Future<RoomDocuments> roomLeases(RoomRef ask) {
    return documents
        .idsInRoom(ask.roomId(), RoomDocuments.LIMIT)
        .compose(
            ids -> {
              List<Future<Optional<Lease>>> leases = ids.stream().map(documents::lease).toList();
              return Future.all(leases)
                  .map(
                      all -> {
                        List<RoomDocuments.DocumentLease> listed = new ArrayList<>();
                        for (int i = 0; i < ids.size(); i++) {
                          Optional<Lease> lease = leases.get(i).result();
                          if (lease.isEmpty()) {
                            continue; // deleted meanwhile
                          }
                          listed.add(
                              new RoomDocuments.DocumentLease(
                                  ids.get(i),
                                  lease.get().view(),
                                  lease.get().live() && lease.get().holder() != null
                                      ? lease.get().holder().agentSession()
                                      : null));
                        }
                        return new RoomDocuments(ask.roomId(), listed);
                      });
            })
        .recover(
            error ->
                error instanceof Failure
                    ? Future.failedFuture(error)
                    : Failure.storeFailed("read the room's documents", error));
  }

  private Future<DocumentView> get(DocumentRef ask) {
    String docId = ask.docId();
    return existing(docId)
        .compose(
            document ->
                documents
                    .lease(docId)
                    .compose(
                        lease ->
                            documents
                                .snapshots(docId)
                                .map(snapshots -> view(document, lease.orElseThrow(), snapshots))));
  }

  /** The document as {@code doc.get} answers it. */
  private static DocumentView view(Document document, Lease lease, List<Snapshot> snapshots) {
    return new DocumentView(
        document.id(),
        document.roomId(),
        document.title(),
        document.content(),
        document.revisionId(),
        document.version(),
        document.undoStack().size(),
        document.redoStack().size(),
        document.createdAtMillis(),
        document.updatedAtMillis(),
        lease.view(),
        snapshots.stream().map(Snapshot::toJson).toList());
  }

  private Future<DocumentHistory> revisions(DocumentHistoryRequest ask) {
    String docId = ask.docId();
    int limit = ask.limit();
    return existing(docId)
        .compose(
            document ->
                documents
                    .revisions(docId, limit)
                    .compose(
                        revisions ->
                            documents
                                .diffs(docId, limit)
                                .map(
                                    diffs ->
                                        new DocumentHistory(
                                            docId,
                                            revisions.stream()
                                                .map(DocumentStore.Revision::toJson)
                                                .toList(),
                                            diffs.stream()
                                                .map(DocumentStore.DiffRecord::toJson)
                                                .toList()))));
  }

  /** The document, or NOT_FOUND. */
  private Future<Document> existing(String docId) {
    return documents
        .find(docId)
        .compose(
            found ->
                found.isEmpty()
                    ? Failure.future(FailureCode.NOT_FOUND, "no document " + docId)
                    : Future.succeededFuture(found.get()));
  }

  /** A person's edit: committed only on the current base revision, and it voids any agent lease (epoch + 1). */
  private Future<DocumentEdited> edit(DocumentEditRequest ask) {
    String docId = ask.docId();
    String content = ask.content();
    var refusal = DocumentText.refusal(content, config.maxContentBytes());
    if (refusal.isPresent()) {
      return Future.failedFuture(refusal.get());
    }
    Edit edit =
        new Edit.Rewrite(
            document ->
                new DocumentStore.Change(
                    content, "edit", null, null, null, null, null, new JsonObject()));
    return documents
        .commit(docId, new Guard.Person(ask.baseRevision(), ask.author()), edit)
        .map(
            committed -> {
              publish(
                  new DocumentTools.LeaseEvent(
                      committed.document().roomId(), docId, "preempted", committed.lease()));
              DocumentTools.RevisionEvent.of(committed, ask.author())
                  .ifPresent(this::announceRevision);
              return new DocumentEdited(
                  docId,
                  committed.document().revisionId(),
                  committed.changed(),
                  committed.lease().view());
            });
  }

  private Future<LeasePreempted> preempt(DocumentRef ask) {
    String docId = ask.docId();
    return documents
        .preempt(docId)
        .compose(
            lease ->
                documents
                    .find(docId)
                    .map(
                        found -> {
                          // Counted here, not for every "preempted" announcement: a person's edit
                          // announces one too, whether or not an agent held the lease.
                          CanvasMetrics.of(vertx).leasePreempted();
                          publish(
                              new DocumentTools.LeaseEvent(
                                  found.orElseThrow().roomId(), docId, "preempted", lease));
                          return new LeasePreempted(docId, lease.view());
                        }));
  }

  /** Publishes a lease change and keeps the expiry watch in step with it. */
  private void publish(DocumentTools.LeaseEvent event) {
    if (event.lease().live()) {
      watch.watch(event.roomId(), event.lease());
    } else {
      watch.cancel(event.docId());
    }
    announce(event);
  }

  /** After the commit, so a reader told of the revision finds it (or a later one) in the store. */
  private void announceRevision(DocumentTools.RevisionEvent event) {
    new DocumentRevision(event.docId(), event.revisionId(), event.author())
        .publish(vertx.eventBus(), event.roomId());
  }

  private void announce(DocumentTools.LeaseEvent event) {
    LOG.atInfo()
        .addKeyValue("docId", event.docId())
        .addKeyValue("state", event.state())
        .addKeyValue("epoch", event.lease().epoch())
        .log("document.lease");
    if ("held".equals(event.state())) {
      CanvasMetrics.of(vertx).leaseGranted();
    }
    new LeaseChange(event.docId(), event.state(), event.lease().view())
        .publish(vertx.eventBus(), event.roomId());
  }
}
