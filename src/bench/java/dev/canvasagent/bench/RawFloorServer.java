package dev.canvasagent.bench;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.CanvasChange;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The raw floor of the fan-out benchmark: the least a Vert.x server must do to give the driver what
 * canvas-agent gives it, run as a JVM of its own like the real server. {@code GET
 * /api/rooms/bench/events} opens an SSE stream; {@code POST /api/rooms/bench/changes} takes the next
 * revision (or answers 409 with the current one, as canvas-agent does) and writes one {@code
 * canvas:change} event, framed and encoded exactly as canvas-agent frames it ({@code id:}, {@code
 * event:}, {@code data:} with the {@link CanvasChange} JSON), once, to every stream; {@code GET
 * /api/rooms/bench/board} tells the revision. No checks, no store, no event bus, no edge limits: what
 * is left is parsing the POST, encoding the event once and the writes themselves.
 *
 * <p>It listens with {@code bench.floorLoops} server verticles (event loops; 1 by default, as
 * canvas-agent's bridge has one). Each writes to the streams it accepted; a change received on one is
 * handed to the others in order ({@link Context#runOnContext} runs in order), so every stream sees
 * every change in revision order; a POST is answered once its own loop has written the event. A stream whose write queue is full is ended, as canvas-agent ends a
 * slow consumer. It logs {@code server.started url=…} as canvas-agent does, for {@link BenchServer}.
 */
public final class RawFloorServer {
  private RawFloorServer() {}

  public static void main(String[] args) {
    ParentWatch.start();
    int loops = BenchProperties.number("bench.floorLoops", 1);
    Vertx vertx = Vertx.vertx();
    FloorRoom room = new FloorRoom(UUID.randomUUID().toString().substring(0, 8));
    int port = freePort();
    // Every instance listens on the same port: Vert.x shares the server, handing connections to the
    // instances in turn.
    vertx
        .deployVerticle(
            () -> new FloorVerticle(room, port), new DeploymentOptions().setInstances(loops))
        .onSuccess(
            deployed ->
                System.out.println(
                    "raw-floor server.started url=http://127.0.0.1:" + port + " loops=" + loops))
        .onFailure(
            error -> {
              error.printStackTrace();
              System.exit(1);
            });
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The one room: its revision, and each verticle's streams. Changes are taken under its lock. */
  static final class FloorRoom {
    private final String incarnation;
    private final List<FloorVerticle> loops = new ArrayList<>();
    private long revision;

    FloorRoom(String incarnation) {
      this.incarnation = incarnation;
    }

    synchronized void add(FloorVerticle loop) {
      loops.add(loop);
    }

    synchronized long revision() {
      return revision;
    }

    /**
     * Commits {@code diff} as the next revision if the room is at {@code base}, and hands its event to
     * every loop, in commit order. Returns the new revision, or -1 for a conflict.
     */
    synchronized long commit(long base, RecordDiff diff) {
      if (base != revision) {
        return -1;
      }
      revision++;
      Buffer event =
          sseEvent(incarnation + "-" + revision, new CanvasChange(revision, diff, "person"));
      for (FloorVerticle loop : loops) {
        loop.broadcast(event);
      }
      return revision;
    }
  }

  /** canvas-agent's SSE form of a room event ({@code RoomEvent.sseChunk}), byte for byte. */
  static Buffer sseEvent(String id, CanvasChange change) {
    return Buffer.buffer(
        "id: " + id + "\nevent: canvas:change\ndata: " + change.toJson().encode() + "\n\n");
  }

  /** One event loop's server: the streams it accepted and the requests that reach it. */
  static final class FloorVerticle extends VerticleBase {
    private final FloorRoom room;
    private final int port;
    private final Set<HttpServerResponse> streams = new LinkedHashSet<>();

    FloorVerticle(FloorRoom room, int port) {
      this.room = room;
      this.port = port;
    }

    @Override
    public Future<?> start() {
      return vertx
          .createHttpServer()
          .requestHandler(this::handle)
          .listen(port, "127.0.0.1")
          .onSuccess(server -> room.add(this));
    }

    /** Writes {@code event} to this loop's streams, on this loop, after the events handed before it. */
    void broadcast(Buffer event) {
      context.runOnContext(
          go -> {
            for (HttpServerResponse stream : new ArrayList<>(streams)) {
              if (stream.writeQueueFull()) {
                streams.remove(stream);
                stream.end();
              } else {
                stream.write(event.slice());
              }
            }
          });
    }

    private void handle(HttpServerRequest request) {
      String path = request.path();
      if (path.endsWith("/events")) {
        HttpServerResponse stream = request.response();
        stream
            .setChunked(true)
            .putHeader("content-type", "text/event-stream; charset=utf-8")
            .putHeader("cache-control", "no-cache");
        stream.closeHandler(closed -> streams.remove(stream));
        stream.write("retry: 2000\n: subscribed to room bench\n\n");
        streams.add(stream);
      } else if (path.endsWith("/changes")) {
        request
            .body()
            .onSuccess(
                body -> {
                  JsonObject change = body.toJsonObject();
                  long committed =
                      room.commit(change.getLong("baseRevision"), RecordDiff.fromJson(change));
                  JsonObject answer =
                      committed < 0
                          ? new JsonObject()
                              .put("ok", false)
                              .put("error", "REVISION_CONFLICT")
                              .put("revision", room.revision())
                          : new JsonObject()
                              .put("ok", true)
                              .put("roomId", BenchSettings.ROOM)
                              .put("revision", committed)
                              .put("changed", true);
                  // Answered after this loop has written the event, as canvas-agent's bridge
                  // writes a change to its streams before the patch engine's answer reaches it:
                  // the two servers' commit times then measure the same span.
                  context.runOnContext(
                      written ->
                          request
                              .response()
                              .setStatusCode(committed < 0 ? 409 : 200)
                              .putHeader("content-type", "application/json")
                              .end(answer.toBuffer()));
                });
      } else if (path.endsWith("/board")) {
        request
            .response()
            .putHeader("content-type", "application/json")
            .end(
                new JsonObject()
                    .put("roomId", BenchSettings.ROOM)
                    .put("revision", room.revision())
                    .put("records", new JsonArray())
                    .toBuffer());
      } else {
        request.response().setStatusCode(404).end();
      }
    }
  }
}
