package dev.canvasagent.bridge;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client that resumed from an id the replay buffer cannot continue from, and so gets the board
 * instead. Live events wait while the board is read; then the {@code canvas:resync} goes out, then
 * what waited.
 *
 * <p>The board it is sent at revision R already holds every change at or below R, so an envelope
 * ({@code rev}) or a person's change ({@code revision}) at or below R is never sent to it: not one
 * that waited, and not one that arrives later. A run publishes a commit's envelope only once the
 * commit is stored and its seq taken, so the board can be read at R while R's envelope is still on
 * its way. Such an envelope is handed to {@code covered}, so the room does not wait for this client's
 * ack of it. An envelope without a revision (a viewport move, a todo) changes no record, and goes
 * out.
 */
final class ResyncingClient implements RoomClient {
  private static final Logger LOG = LoggerFactory.getLogger(ResyncingClient.class);

  /** Live events a resyncing client may miss while its board is fetched; more and it is dropped. */
  static final int MAX_HELD_EVENTS = 1_000;

  private final RoomClient client;
  private final String roomId;
  private final Consumer<RoomEvent> covered;
  private List<RoomEvent> held = new ArrayList<>();

  /** The revision of the board it was sent; none (-1) until then. */
  private long resyncedAt = -1;

  ResyncingClient(RoomClient client, String roomId, Consumer<RoomEvent> covered) {
    this.client = client;
    this.roomId = roomId;
    this.covered = covered;
  }

  /**
   * Sends the resync at {@code revision}, then what waited for it and is above that revision. A
   * partial envelope waits with the others; one whose action's final envelope is covered is dropped
   * with it, since the board already shows that action done.
   */
  void release(RoomEvent resync, long revision) {
    List<RoomEvent> waiting = held;
    held = null;
    resyncedAt = revision;
    if (!client.deliver(resync)) {
      return;
    }
    Set<String> done = new HashSet<>();
    for (RoomEvent event : waiting) {
      if (isCovered(event)) {
        done.addAll(actionIds(event));
      }
    }
    for (RoomEvent event : waiting) {
      if (isPartial(event) && !actionIds(event).isEmpty() && done.containsAll(actionIds(event))) {
        continue;
      }
      if (!deliver(event)) {
        return;
      }
    }
  }

  @Override
  public boolean deliver(RoomEvent event) {
    if (held != null) {
      if (held.size() >= MAX_HELD_EVENTS) {
        client.close("too many events while resyncing");
        return false;
      }
      held.add(event);
      return true;
    }
    if (isCovered(event)) {
      LOG.atDebug()
          .addKeyValue("roomId", roomId)
          .addKeyValue("clientId", client.clientId())
          .addKeyValue("topic", event.topic().wireName())
          .addKeyValue("revision", revisionOf(event))
          .addKeyValue("resyncRevision", resyncedAt)
          .log("resync.covered_event_skipped");
      covered.accept(event);
      return true;
    }
    return client.deliver(event);
  }

  /** Whether the board this client was sent already holds what {@code event} changed. */
  private boolean isCovered(RoomEvent event) {
    long revision = revisionOf(event);
    return revision > 0 && revision <= resyncedAt;
  }

  /** The board revision an event made: an envelope's {@code rev}, a change's {@code revision}; else 0. */
  private static long revisionOf(RoomEvent event) {
    String key =
        switch (event.topic()) {
          case AGENT_ACTION -> "rev";
          case CANVAS_CHANGE -> "revision";
          default -> null;
        };
    if (key == null || !(event.payload().getValue(key) instanceof Number revision)) {
      return 0;
    }
    return revision.longValue();
  }

  private static boolean isPartial(RoomEvent event) {
    return event.topic() == RoomTopic.AGENT_ACTION
        && Boolean.TRUE.equals(event.payload().getValue("partial"));
  }

  private static List<String> actionIds(RoomEvent event) {
    if (event.topic() != RoomTopic.AGENT_ACTION) {
      return List.of();
    }
    return event.payload().getJsonArray("actions", new JsonArray()).stream()
        .filter(JsonObject.class::isInstance)
        .map(action -> ((JsonObject) action).getString("id"))
        .toList();
  }

  @Override
  public String clientId() {
    return client.clientId();
  }

  @Override
  public String transport() {
    return client.transport();
  }

  @Override
  public boolean mayEdit() {
    return client.mayEdit();
  }

  @Override
  public String limitKey() {
    return client.limitKey();
  }

  @Override
  public boolean canHost() {
    return client.canHost();
  }

  @Override
  public void close(String why) {
    client.close(why);
  }
}
