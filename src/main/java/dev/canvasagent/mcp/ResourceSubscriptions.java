package dev.canvasagent.mcp;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A resource subscription as the sessions hold it: the room topics that tell of the resource's
 * changes, heard until the client unsubscribes or the session ends, each change told to the session as
 * {@code notifications/resources/updated {uri}}, coalesced ({@link CoalescedUpdates}); at most {@link
 * #MAX_PER_SESSION} per session.
 */
final class ResourceSubscriptions {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceSubscriptions.class);
  static final String UPDATED = "notifications/resources/updated";

  /** Each subscription holds consumers on the bus: a session may hold this many, no more. */
  static final int MAX_PER_SESSION = 64;

  private final Vertx vertx;
  private final RoomTopicListener topics;
  private final long windowMs;

  ResourceSubscriptions(Vertx vertx, long windowMs) {
    this.vertx = vertx;
    this.topics = new RoomTopicListener(vertx.eventBus());
    this.windowMs = windowMs;
  }

  /**
   * Subscribes {@code session} to {@code uri}, changed by the messages of {@code roomId}'s {@code
   * topics} that {@code relevant} keeps. Answered once the topics are heard, so a change made after
   * the answer is told.
   */
  Future<Void> open(
      McpSession session,
      String uri,
      String roomId,
      List<RoomTopic> roomTopics,
      Predicate<JsonObject> relevant) {
    if (!session.subscribed(uri) && session.subscriptionCount() >= MAX_PER_SESSION) {
      return Failure.future(
          FailureCode.INVALID_REQUEST,
          "this session already holds "
              + MAX_PER_SESSION
              + " subscriptions, the most one may: unsubscribe from one first");
    }
    CoalescedUpdates updates =
        new CoalescedUpdates(
            vertx, windowMs, () -> session.notify(UPDATED, new JsonObject().put("uri", uri)));
    RoomTopicListener.Listening listening =
        topics.listen(roomId, roomTopics, relevant, updates::changed);
    Runnable close =
        () -> {
          updates.close();
          listening.close().run();
        };
    return listening
        .ready()
        .onFailure(error -> close.run())
        .map(
            ready -> {
              if (session.ended()) {
                // The session ended while the consumers registered: nobody would ever close them.
                close.run();
              } else {
                session.subscribe(uri, close);
                LOG.atInfo()
                    .addKeyValue("mcpSession", session.id().substring(0, 12))
                    .addKeyValue("subscriptions", session.subscriptionCount())
                    .log("mcp.resource.subscribed");
              }
              return null;
            });
  }
}
