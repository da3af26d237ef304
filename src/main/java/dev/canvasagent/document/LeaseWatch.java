package dev.canvasagent.document;

import dev.canvasagent.document.DocumentTools.LeaseEvent;
import dev.canvasagent.store.DocumentStore;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Announces expiry: nothing happens in the store when a lease runs out (it is judged expired when next
 * read), so the lock indicator would never hear of it. After a lease is taken this watch looks again
 * when it is due; a lease renewed meanwhile is looked at again at its new expiry, one that expired is
 * announced as {@code expired} once. Only the node that handed the lease out watches it.
 */
final class LeaseWatch {
  /** Looks a little after the expiry, so the store's clock has surely passed it. */
  static final long MARGIN_MS = 50;

  private final Vertx vertx;
  private final DocumentStore documents;
  private final Consumer<LeaseEvent> announce;
  private final Map<String, Long> timers = new HashMap<>();

  LeaseWatch(Vertx vertx, DocumentStore documents, Consumer<LeaseEvent> announce) {
    this.vertx = vertx;
    this.documents = documents;
    this.announce = announce;
  }

  /** Watches {@code lease} of the document in {@code roomId} (replacing any earlier watch of the document). */
  void watch(String roomId, DocumentStore.Lease lease) {
    cancel(lease.docId());
    if (!lease.live()) {
      return;
    }
    long delay =
        Math.max(MARGIN_MS, lease.expiresAtMillis() - System.currentTimeMillis() + MARGIN_MS);
    timers.put(
        lease.docId(),
        vertx.setTimer(
            delay,
            fired -> {
              timers.remove(lease.docId());
              documents
                  .lease(lease.docId())
                  .onSuccess(
                      now ->
                          now.ifPresent(
                              current -> {
                                if (!lease.leaseId().equals(current.leaseId())) {
                                  return;
                                }
                                if (current.live()) {
                                  watch(roomId, current);
                                } else {
                                  announce.accept(
                                      new LeaseEvent(roomId, lease.docId(), "expired", current));
                                }
                              }));
            }));
  }

  void cancel(String docId) {
    Long timer = timers.remove(docId);
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
  }
}
