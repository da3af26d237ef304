package dev.canvasagent.support;

import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * People editing a board quickly, as a browser's change sender does: each writer owns one shape and
 * moves it with {@code POST /api/rooms/{roomId}/changes} against the revision it last heard of; a
 * change refused as stale ({@code 409 REVISION_CONFLICT}, which carries the current revision) is sent
 * again on that revision at once. Each writer sends on a Vert.x timer at its share of the rate, one
 * change at a time: a tick that finds its previous change still unanswered is skipped, so the rate
 * achieved ({@link #committed()}) is what the server took.
 */
public final class PersonWriters {
  private final Vertx vertx;

  /** The one event loop every writer runs on, so their state needs no locks. */
  private final Context context;

  private final WebClient http;
  private final String roomId;
  private final List<Writer> writers = new ArrayList<>();
  private final AtomicLong committed = new AtomicLong();
  private final AtomicLong conflicts = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  private PersonWriters(Vertx vertx, WebClient http, String roomId) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.http = http;
    this.roomId = roomId;
  }

  /**
   * {@code count} writers in {@code roomId} sending {@code changesPerSecond} between them; completes
   * once each has created its shape and its timer runs.
   */
  public static Future<PersonWriters> start(
      Vertx vertx, WebClient http, String roomId, int count, double changesPerSecond) {
    PersonWriters people = new PersonWriters(vertx, http, roomId);
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
      created = created.compose(previous -> writer.send());
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
          Future.all(idle).<Void>mapEmpty().onComplete(stopped);
        });
    return stopped.future();
  }

  /** Changes the server committed. */
  public long committed() {
    return committed.get();
  }

  /** Sends refused as stale and sent again. */
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
      Promise<Void> sent = Promise.promise();
      attempt(shape, sent);
      return sent.future()
          .onComplete(
              done -> {
                inFlight = false;
                if (idle != null) {
                  idle.tryComplete();
                }
              });
    }

    private void attempt(JsonObject shape, Promise<Void> sent) {
      http.post("/api/rooms/" + roomId + "/changes")
          .sendJsonObject(
              new JsonObject()
                  .put("baseRevision", knownRevision)
                  .put("put", new JsonArray().add(shape)))
          .onComplete(
              answered -> {
                if (answered.failed()) {
                  failed.incrementAndGet();
                  sent.complete();
                  return;
                }
                var response = answered.result();
                JsonObject body = response.bodyAsJsonObject();
                if (response.statusCode() == 200) {
                  committed.incrementAndGet();
                  knownRevision = body.getLong("revision");
                  lastCommitted = shape;
                  sent.complete();
                } else if (response.statusCode() == 409 && body.containsKey("revision")) {
                  conflicts.incrementAndGet();
                  knownRevision = body.getLong("revision");
                  attempt(shape, sent);
                } else {
                  failed.incrementAndGet();
                  sent.complete();
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
