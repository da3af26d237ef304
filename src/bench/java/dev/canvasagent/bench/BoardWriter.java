package dev.canvasagent.bench;

import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A person's edits, one at a time, to rooms of the scale benchmark over {@code POST
 * /api/rooms/{roomId}/changes}: filling a room with geo shapes on a grid, a batch of records a change,
 * changing one shape of it, timed, and removing what a run drew. Every change is based on the revision
 * the previous one made (this writer is the rooms' only one, but for runs, whose shapes {@link #remove}
 * takes away), so an answer other than {@code 200} with {@code changed: true} stops the benchmark.
 * Called from the driver's main thread; it waits for each answer.
 */
final class BoardWriter {
  private static final long ANSWER_SECONDS = 120;
  private static final int STALE_ATTEMPTS = 5;

  private final HttpClient client;
  private final int port;
  private final Map<String, Long> revisions = new HashMap<>();
  private final Map<String, Long> edits = new HashMap<>();

  BoardWriter(HttpClient client, int port) {
    this.client = client;
    this.port = port;
  }

  /**
   * Adds shapes {@code 0 … shapes-1} to an empty room, {@code batch} records a change, on a square grid:
   * so a viewport at the origin holds as many shapes on a board of 100 as on one of 50,000.
   */
  void fill(String room, int shapes, int batch) throws Exception {
    int columns = (int) Math.ceil(Math.sqrt(shapes));
    for (int from = 0; from < shapes; from += batch) {
      JsonArray records = new JsonArray();
      for (int i = from; i < Math.min(shapes, from + batch); i++) {
        records.add(shape(i, columns, 0));
      }
      post(room, records);
    }
  }

  /**
   * Moves shape 0 of the room by 1 or 2 px, away from where the previous change put it: one record
   * changed. Returns the POST's round trip in µs.
   */
  int changeOne(String room) throws Exception {
    long edit = edits.merge(room, 1L, Long::sum);
    JsonArray records = new JsonArray().add(shape(0, 1, 1 + edit % 2));
    long sent = System.nanoTime();
    post(room, records);
    return (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - sent) / 1_000);
  }

  /**
   * Removes {@code ids} from the room, whose revision others (a run) may have moved: a stale base is
   * refreshed from the 409's {@code revision}, up to a few times.
   */
  void remove(String room, List<String> ids) throws Exception {
    JsonObject change = new JsonObject().put("remove", new JsonArray(ids));
    for (int attempt = 1; ; attempt++) {
      JsonPost.Answer answer = send(room, change);
      if (answer.status() == 409 && attempt < STALE_ATTEMPTS) {
        revisions.put(room, answer.body().toJsonObject().getLong("revision"));
        continue;
      }
      committed(room, answer);
      return;
    }
  }

  /** Shape {@code i}: a 120 × 80 rectangle on a grid of {@code columns} columns, moved {@code dx}. */
  private static JsonObject shape(int i, int columns, long dx) {
    return ShapeRecords.shape(
        "shape:scale" + i,
        "geo",
        (i % columns) * 160.0 + dx,
        (i / columns) * 120.0,
        "a1",
        ShapeRecords.geoProps("rectangle", 120, 80, ""));
  }

  private void post(String room, JsonArray records) throws Exception {
    committed(room, send(room, new JsonObject().put("put", records)));
  }

  /** {@code change} ({@code put} or {@code remove}) on the revision the previous one made. */
  private JsonPost.Answer send(String room, JsonObject change) throws Exception {
    Buffer body = change.copy().put("baseRevision", revisions.getOrDefault(room, 0L)).toBuffer();
    return JsonPost.send(client, port, "/api/rooms/" + room + "/changes", body)
        .toCompletionStage()
        .toCompletableFuture()
        .get(ANSWER_SECONDS, TimeUnit.SECONDS);
  }

  /** The room's new revision, from an answer that must be a change committed. */
  private void committed(String room, JsonPost.Answer answer) {
    if (answer.status() != 200) {
      throw new IllegalStateException(
          "a change to " + room + " was answered " + answer.status() + ": " + answer.body());
    }
    JsonObject committed = answer.body().toJsonObject();
    if (!committed.getBoolean("changed", false)) {
      throw new IllegalStateException("a change to " + room + " changed nothing: " + committed);
    }
    revisions.put(room, committed.getLong("revision"));
  }
}
