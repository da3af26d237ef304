package dev.canvasagent.patch;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.BoardStore.BoardRevision;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The boards of the rooms the patch engine is writing, held in memory so that a change costs what it
 * changes rather than a load of the whole board. Bounded: by an estimate of their bytes (the least
 * recently used room goes first when over; a room bigger than the whole bound is held alone), and by
 * idleness (a room unused for the idle time goes, by a timer of its own). Never trusted over the
 * store: a held room is behind whenever another node or a restart committed to it, so a room is
 * caught up from the revisions stored after its own before it is answered as current, and loaded
 * whole only when it is not held or the revisions cannot close the gap (history trimmed, or too far
 * behind). Each change is published to the node's {@link NodeBoards}. On the patch engine's event
 * loop only; the caller runs one operation per room at a time ({@link RoomTurns}).
 */
final class RoomBoards {
  /** Revisions read per query when catching up. */
  static final int CATCH_UP_PAGE = 500;

  /** Past this many revisions behind, loading the board whole is cheaper than applying them all. */
  static final int MAX_CATCH_UP = 5_000;

  /** Why a room stopped being held. */
  enum Eviction {
    /** Unused for the idle time. */
    IDLE,
    /** The least recently used room while the held boards were over the byte bound. */
    BYTES,
    /** A commit whose outcome is unknown (the store failed after it was sent): reloaded when next used. */
    UNKNOWN_OUTCOME,
    /** Its revisions could not close the gap to the store's: loaded whole again. */
    GAP,
    /** The patch engine stopped. */
    STOPPED
  }

  /** Told of each room that stops being held, and why. */
  interface EvictionListener {
    void evicted(String roomId, Eviction why);
  }

  private final Vertx vertx;
  private final BoardStore store;
  private final NodeBoards shared;
  private final long maxBytes;
  private final long idleMs;
  private final EvictionListener listener;
  private final Map<String, CachedRoom> rooms = new HashMap<>();
  private final Map<Eviction, Long> evictions = new TreeMap<>();
  private long bytes;
  private long hits;
  private long loads;
  private long caughtUp;

  RoomBoards(
      Vertx vertx,
      BoardStore store,
      NodeBoards shared,
      long maxBytes,
      long idleMs,
      EvictionListener listener) {
    this.vertx = vertx;
    this.store = store;
    this.shared = shared;
    this.maxBytes = maxBytes;
    this.idleMs = idleMs;
    this.listener = listener;
  }

  /** The room as held (no store call), or loaded whole when it is not held. */
  Future<CachedRoom> room(String roomId) {
    CachedRoom room = rooms.get(roomId);
    if (room == null) {
      return load(roomId);
    }
    hits++;
    room.used(System.nanoTime());
    return Future.succeededFuture(room);
  }

  /** The revision of the room's board held now (null when none is), without using or loading it. */
  Long heldRevision(String roomId) {
    CachedRoom room = rooms.get(roomId);
    return room == null ? null : room.revision();
  }

  /** The room at the store's current revision: loaded whole, or the held one caught up. */
  Future<CachedRoom> current(String roomId) {
    CachedRoom room = rooms.get(roomId);
    return room == null ? load(roomId) : room(roomId).compose(this::catchUp);
  }

  /** The held room advanced by the revisions the store has after its own, oldest first. */
  Future<CachedRoom> catchUp(CachedRoom room) {
    return catchUp(room, 0);
  }

  /**
   * The room caught up to at least {@code revision}, which the store says it has reached; loaded whole
   * when its stored revisions end before that (history trimmed).
   */
  Future<CachedRoom> catchUpTo(CachedRoom room, long revision) {
    return catchUp(room)
        .compose(
            caught ->
                caught.revision() >= revision
                    ? Future.succeededFuture(caught)
                    : reload(caught, Eviction.GAP));
  }

  /** The store accepted {@code diff} as {@code revision}, the revision after the room's. */
  void committed(CachedRoom room, RecordDiff diff, long revision) {
    if (!holds(room)) {
      return;
    }
    if (revision != room.revision() + 1) {
      // Not the next revision of what is held: nothing here can be trusted to follow it.
      evict(room.roomId(), Eviction.GAP);
      return;
    }
    long before = room.estimatedBytes();
    room.apply(diff, revision);
    changed(room, before);
  }

  /** The room is no longer held; the next use loads it whole. */
  void evict(String roomId, Eviction why) {
    if (drop(roomId)) {
      evictions.merge(why, 1L, Long::sum);
      listener.evicted(roomId, why);
    }
  }

  /** Forgets the held room, if any: whether there was one. */
  private boolean drop(String roomId) {
    CachedRoom room = rooms.remove(roomId);
    if (room == null) {
      return false;
    }
    vertx.cancelTimer(room.idleTimer);
    bytes -= room.estimatedBytes();
    shared.release(roomId);
    return true;
  }

  /** Every room goes: the patch engine is stopping. */
  void close() {
    new ArrayList<>(rooms.keySet()).forEach(roomId -> evict(roomId, Eviction.STOPPED));
  }

  /** Whether {@code room} is the one held for its room id (not evicted meanwhile). */
  boolean holds(CachedRoom room) {
    return rooms.get(room.roomId()) == room;
  }

  /** The held rooms' estimated bytes together. */
  long bytes() {
    return bytes;
  }

  /** What the health report says of the cache. */
  JsonObject stats() {
    JsonObject evicted = new JsonObject();
    evictions.forEach((why, count) -> evicted.put(why.name().toLowerCase(), count));
    return new JsonObject()
        .put("rooms", rooms.size())
        .put("bytes", bytes)
        .put("maxBytes", maxBytes)
        .put("hits", hits)
        .put("loads", loads)
        .put("caughtUpRevisions", caughtUp)
        .put("evictions", evicted);
  }

  private Future<CachedRoom> load(String roomId) {
    return store
        .load(roomId)
        .map(
            board -> {
              loads++;
              CachedRoom room = new CachedRoom(board, System.nanoTime());
              drop(roomId);
              rooms.put(roomId, room);
              bytes += room.estimatedBytes();
              shared.hold(board);
              idleCheckIn(room, idleMs);
              boundBytes(room);
              return room;
            });
  }

  private Future<CachedRoom> catchUp(CachedRoom room, int appliedBefore) {
    long from = room.revision();
    return store
        .revisions(room.roomId(), from, CATCH_UP_PAGE)
        .compose(
            page -> {
              if (page.isEmpty()) {
                return Future.succeededFuture(room);
              }
              long before = room.estimatedBytes();
              for (BoardRevision revision : page) {
                if (revision.revision() != room.revision() + 1) {
                  // The revisions after the held one are gone (history trimmed): they cannot be
                  // applied, only the board loaded whole.
                  changed(room, before);
                  return reload(room, Eviction.GAP);
                }
                room.apply(revision.diff(), revision.revision());
              }
              caughtUp += page.size();
              changed(room, before);
              int applied = appliedBefore + page.size();
              if (page.size() < CATCH_UP_PAGE) {
                return Future.succeededFuture(room);
              }
              return applied >= MAX_CATCH_UP ? reload(room, Eviction.GAP) : catchUp(room, applied);
            });
  }

  private Future<CachedRoom> reload(CachedRoom room, Eviction why) {
    evict(room.roomId(), why);
    return load(room.roomId());
  }

  /** A held room's board moved: its size and the node's snapshot follow. */
  private void changed(CachedRoom room, long bytesBefore) {
    if (!holds(room)) {
      return;
    }
    bytes += room.estimatedBytes() - bytesBefore;
    shared.hold(room.board());
    boundBytes(room);
  }

  /** Least recently used first, until the held boards fit; {@code inUse} stays. */
  private void boundBytes(CachedRoom inUse) {
    while (bytes > maxBytes && rooms.size() > 1) {
      CachedRoom eldest = null;
      for (CachedRoom room : rooms.values()) {
        if (room != inUse && (eldest == null || room.lastUsedNanos() < eldest.lastUsedNanos())) {
          eldest = room;
        }
      }
      evict(eldest.roomId(), Eviction.BYTES);
    }
  }

  private void idleCheckIn(CachedRoom room, long delayMs) {
    room.idleTimer =
        vertx.setTimer(
            Math.max(1, delayMs),
            id -> {
              if (!holds(room)) {
                return;
              }
              long idle = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - room.lastUsedNanos());
              if (idle >= idleMs) {
                evict(room.roomId(), Eviction.IDLE);
              } else {
                idleCheckIn(room, idleMs - idle);
              }
            });
  }

  /** The ids of the rooms held now. */
  List<String> heldRooms() {
    return List.copyOf(rooms.keySet());
  }
}
