package dev.canvasagent.support;

import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * People editing a board quickly, as a browser's change sender does: each writer owns one shape and
 * moves it with {@code POST /api/rooms/{roomId}/changes} against the latest revision it has heard of
 * — on the room's event stream, which each writer reads like a page ({@code canvas:change}, the
 * agent's envelopes), or in an answer — one change at a time, on a Vert.x timer at its share of the
 * rate. A change refused as stale ({@code 409
 * REVISION_CONFLICT}, which carries the current revision) is not lost: as on a page, the person's edit
 * goes with their next change, on that revision. A tick that finds the previous change still
 * unanswered is skipped, so {@link #sent()} is the rate the server took and {@link #committed()} what
 * it committed of it.
 */
public final class PersonWriters {
  private final Vertx vertx;

  /** The one event loop every writer runs on, so their state needs no locks. */
  private final Context context;

  private final WebClient http;
  private final String roomId;
  private final List<Writer> writers = new ArrayList<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong committed = new AtomicLong();
  private final AtomicLong conflicts = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  private final int port;

  private PersonWriters(Vertx vertx, int port, String roomId) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.port = port;
    this.http =
        WebClient.create(
            vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    this.roomId = roomId;
  }

  /**
   * {@code count} writers in {@code roomId} sending {@code changesPerSecond} between them; completes
   * once each has created its shape and its timer runs.
   */
  public static Future<PersonWriters> start(
      Vertx vertx, int port, String roomId, int count, double changesPerSecond) {
    PersonWriters people = new PersonWriters(vertx, port, roomId);
    Promise<PersonWriters> started = Promise.promise();
    people.context.runOnContext(go -> people.begin(count, changesPerSecond).onComplete(started));
    return started.future();
  }

  private Future<PersonWriters> begin(int count, double changesPerSecond) {
    long periodMs = Math.max(1, Math.round(count * 1000.0 / changesPerSecond));
    Future<Void> created = Future.succeededFuture();
    for (int i = 0; i < count; i++) {
      Writer writer = new Writer("shape:person-" + i, "a" + (i + 1), 40 + 160 * i);
      writers.add(writer);
      created = created.compose(previous -> writer.listen()).compose(listening -> writer.create());
    }
    return created.map(
        done -> {
          for (int i = 0; i < writers.size(); i++) {
            Writer writer = writers.get(i);
            // Phase-shifted, so the writers' changes spread over the period.
            long phase = 1 + periodMs * i / count;
            vertx.setTimer(
                phase,
                first -> {
                  if (!writer.stopped) {
                    writer.timer = vertx.setPeriodic(periodMs, tick -> writer.tick());
                  }
                });
          }
          return this;
        });
  }

  /** Stops every writer; completes once no change of theirs is in flight. */
  public Future<Void> stop() {
    Promise<Void> stopped = Promise.promise();
    context.runOnContext(
        go -> {
          List<Future<Void>> idle = new ArrayList<>();
          for (Writer writer : writers) {
            idle.add(writer.stop());
          }
          Future.all(idle)
              .compose(
                  done ->
                      Future.all(writers.stream().map(writer -> writer.events.close()).toList()))
              .<Void>mapEmpty()
              .onComplete(
                  closed -> {
                    http.close();
                    stopped.handle(closed);
                  });
        });
    return stopped.future();
  }

  /** Changes sent (each answered: committed, or refused as stale). */
  public long sent() {
    return sent.get();
  }

  /** Changes the server committed. */
  public long committed() {
    return committed.get();
  }

  /** Changes refused as stale (their edit went with the writer's next change). */
  public long conflicts() {
    return conflicts.get();
  }

  /** Ticks that found the writer's previous change still in flight. */
  public long skipped() {
    return skipped.get();
  }

  /** Changes refused for another reason than a stale base (none is expected). */
  public long failed() {
    return failed.get();
  }

  /** Each writer's shape as its last committed change put it. */
  public List<JsonObject> lastCommitted() {
    return writers.stream().map(writer -> writer.lastCommitted).toList();
  }

  private final class Writer {
    private final String shapeId;
    private final String index;
    private final double y;
    private long knownRevision;

    /** The latest revision the writer's stream has brought, on the stream's own thread. */
    private final AtomicLong heard = new AtomicLong();

    private SseClient events;
    private int moves;
    private boolean inFlight;
    private boolean stopped;
    private long timer = -1;
    private Promise<Void> idle;
    private JsonObject lastCommitted;

    Writer(String shapeId, String index, double y) {
      this.shapeId = shapeId;
      this.index = index;
      this.y = y;
    }

    /** Opens the writer's stream of the room, as a page has one. */
    Future<Void> listen() {
      return SseClient.connect(vertx, port, "/api/rooms/" + roomId + "/events")
          .map(
              stream -> {
                events = stream;
                stream.onEvent(
                    event -> {
                      long revision =
                          event.data().getLong("revision", event.data().getLong("rev", -1L));
                      heard.accumulateAndGet(revision, Math::max);
                    });
                return null;
              });
    }

    /** The writer's shape, sent until it is committed: the writers start with their shapes on the board. */
    Future<Void> create() {
      return send().compose(sent -> lastCommitted != null ? Future.succeededFuture() : create());
    }

    void tick() {
      if (stopped) {
        return;
      }
      if (inFlight) {
        skipped.incrementAndGet();
        return;
      }
      send();
    }

    Future<Void> send() {
      inFlight = true;
      moves++;
      JsonObject shape =
          ShapeRecords.shape(
              shapeId,
              "geo",
              -400 - (moves % 200),
              y,
              index,
              ShapeRecords.geoProps("rectangle", 120, 80, "person"));
      Promise<Void> answered = Promise.promise();
      attempt(shape, answered);
      return answered
          .future()
          .onComplete(
              done -> {
                inFlight = false;
                if (idle != null) {
                  idle.tryComplete();
                }
              });
    }

    private void attempt(JsonObject shape, Promise<Void> answered) {
      sent.incrementAndGet();
      knownRevision = Math.max(knownRevision, heard.get());
      http.post("/api/rooms/" + roomId + "/changes")
          .sendJsonObject(
              new JsonObject()
                  .put("baseRevision", knownRevision)
                  .put("put", new JsonArray().add(shape)))
          .onComplete(
              reply -> {
                if (reply.failed()) {
                  failed.incrementAndGet();
                  answered.complete();
                  return;
                }
                var response = reply.result();
                JsonObject body = response.bodyAsJsonObject();
                if (response.statusCode() == 200) {
                  committed.incrementAndGet();
                  knownRevision = body.getLong("revision");
                  lastCommitted = shape;
                  answered.complete();
                } else if (response.statusCode() == 409 && body.containsKey("revision")) {
                  // As a page does: the edit stays the person's, and goes with the next change,
                  // on the revision the 409 names.
                  conflicts.incrementAndGet();
                  knownRevision = body.getLong("revision");
                  answered.complete();
                } else {
                  failed.incrementAndGet();
                  answered.complete();
                }
              });
    }

    Future<Void> stop() {
      stopped = true;
      vertx.cancelTimer(timer);
      if (!inFlight) {
        return Future.succeededFuture();
      }
      idle = Promise.promise();
      return idle.future();
    }
  }
}
