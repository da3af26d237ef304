package dev.canvasagent.document;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.DocumentStore.Actor;
import dev.canvasagent.store.DocumentStore.Edit;
import dev.canvasagent.store.DocumentStore.Guard;
import dev.canvasagent.store.DocumentStore.NewDocument;
import dev.canvasagent.store.Store;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease manager, and the owner of documents: it creates and reads them, takes a person's edits
 * (which preempt any agent lease), and runs the document tools under exclusive, expiring leases whose
 * epoch every agent write carries. Lease and epoch live in the store, so any node may serve any call.
 * Lease changes go out on the document's room as {@code doc:lease}. Every write names its {@link Actor}
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
            documents, catalog, config.leaseTtlMs(), config.maxContentBytes(), this::publish);
    return Future.all(
        java.util.List.of(
            answer(Address.DOC_CREATE, this::create),
            answer(Address.DOC_GET, this::get),
            answer(Address.DOC_ROOM, this::room),
            answer(Address.DOC_REVISIONS, this::revisions),
            answer(Address.DOC_EDIT, this::edit),
            answer(Address.DOC_PREEMPT, this::preempt),
            answer(
                Address.DOC_TOOL,
                ask ->
                    actor(ask)
                        .compose(
                            caller ->
                                tools.call(
                                    ask.getString("docId"),
                                    ask.getString("tool"),
                                    ask.getJsonObject("args"),
                                    caller)))));
  }

  /** Who the request acts for; a request that names nobody is refused, never given a default. */
  private static Future<Actor> actor(JsonObject ask) {
    return Actor.of(ask)
        .map(Future::succeededFuture)
        .orElseGet(
            () ->
                Failure.future(
                    FailureCode.INVALID_REQUEST, "the request names no subject to act for"));
  }

  private Future<JsonObject> create(JsonObject ask) {
    String content = ask.getString("content");
    var refusal = dev.canvasagent.store.DocumentText.refusal(content, config.maxContentBytes());
    if (refusal.isPresent()) {
      return Future.failedFuture(refusal.get());
    }
    return actor(ask)
        .compose(
            author ->
                documents.create(
                    new NewDocument(
                        ask.getString("id"),
                        ask.getString("roomId"),
                        ask.getString("title"),
                        content,
                        author)))
        .map(
            document -> {
              LOG.atInfo()
                  .addKeyValue("docId", document.id())
                  .addKeyValue("roomId", document.roomId())
                  .log("document.created");
              return new JsonObject()
                  .put("id", document.id())
                  .put("roomId", document.roomId())
                  .put("revisionId", document.revisionId());
            });
  }

  private Future<JsonObject> room(JsonObject ask) {
    String docId = ask.getString("docId");
    return documents
        .find(docId)
        .compose(
            found ->
                found.isEmpty()
                    ? Failure.future(FailureCode.NOT_FOUND, "no document " + docId)
                    : Future.succeededFuture(
                        new JsonObject().put("docId", docId).put("roomId", found.get().roomId())));
  }

  private Future<JsonObject> get(JsonObject ask) {
    String docId = ask.getString("docId");
    return documents
        .find(docId)
        .compose(
            found ->
                found.isEmpty()
                    ? Failure.future(FailureCode.NOT_FOUND, "no document " + docId)
                    : documents
                        .lease(docId)
                        .compose(
                            lease ->
                                documents
                                    .snapshots(docId)
                                    .map(
                                        snapshots -> {
                                          JsonObject answer =
                                              found
                                                  .get()
                                                  .toJson()
                                                  .put("lease", lease.orElseThrow().toJson());
                                          answer.put(
                                              "snapshots",
                                              new io.vertx.core.json.JsonArray(
                                                  snapshots.stream()
                                                      .map(DocumentStore.Snapshot::toJson)
                                                      .toList()));
                                          return answer;
                                        })));
  }

  private Future<JsonObject> revisions(JsonObject ask) {
    String docId = ask.getString("docId");
    int limit = ask.getInteger("limit");
    return documents
        .find(docId)
        .compose(
            found ->
                found.isEmpty()
                    ? Failure.future(FailureCode.NOT_FOUND, "no document " + docId)
                    : documents
                        .revisions(docId, limit)
                        .compose(
                            revisions ->
                                documents
                                    .diffs(docId, limit)
                                    .map(
                                        diffs ->
                                            new JsonObject()
                                                .put("id", docId)
                                                .put(
                                                    "revisions",
                                                    new io.vertx.core.json.JsonArray(
                                                        revisions.stream()
                                                            .map(DocumentStore.Revision::toJson)
                                                            .toList()))
                                                .put(
                                                    "diffs",
                                                    new io.vertx.core.json.JsonArray(
                                                        diffs.stream()
                                                            .map(DocumentStore.DiffRecord::toJson)
                                                            .toList())))));
  }

  /** A person's edit: committed only on the current base revision, and it voids any agent lease (epoch + 1). */
  private Future<JsonObject> edit(JsonObject ask) {
    String docId = ask.getString("docId");
    String content = ask.getString("content");
    var refusal = dev.canvasagent.store.DocumentText.refusal(content, config.maxContentBytes());
    if (refusal.isPresent()) {
      return Future.failedFuture(refusal.get());
    }
    Edit edit =
        new Edit.Rewrite(
            document ->
                new DocumentStore.Change(
                    content, "edit", null, null, null, null, null, new JsonObject()));
    return actor(ask)
        .compose(
            author ->
                documents.commit(
                    docId, new Guard.Person(ask.getString("baseRevisionId"), author), edit))
        .map(
            committed -> {
              publish(
                  new DocumentTools.LeaseEvent(
                      committed.document().roomId(), docId, "preempted", committed.lease()));
              return new JsonObject()
                  .put("id", docId)
                  .put("revisionId", committed.document().revisionId())
                  .put("changed", committed.changed())
                  .put("lease", committed.lease().toJson());
            });
  }

  private Future<JsonObject> preempt(JsonObject ask) {
    String docId = ask.getString("docId");
    return documents
        .preempt(docId)
        .compose(
            lease ->
                documents
                    .find(docId)
                    .map(
                        found -> {
                          publish(
                              new DocumentTools.LeaseEvent(
                                  found.orElseThrow().roomId(), docId, "preempted", lease));
                          return new JsonObject().put("id", docId).put("lease", lease.toJson());
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

  private void announce(DocumentTools.LeaseEvent event) {
    LOG.atInfo()
        .addKeyValue("docId", event.docId())
        .addKeyValue("state", event.state())
        .addKeyValue("epoch", event.lease().epoch())
        .log("document.lease");
    vertx
        .eventBus()
        .publish(
            RoomTopic.DOC_LEASE.address(event.roomId()),
            event
                .lease()
                .toJson()
                .put("type", "doc:lease")
                .put("docId", event.docId())
                .put("state", event.state()));
  }
}
