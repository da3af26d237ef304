package dev.canvasagent.bench;

import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

/**
 * A person editing fast: {@code POST /api/rooms/bench/changes} at a steady rate, each putting one geo
 * record whose {@code meta.sentAtMicros} is the moment it was sent. Every change's {@code baseRevision}
 * is the revision the previous one made. To reach rates a strict one-at-a-time loop cannot, it keeps up
 * to {@code inflight} POSTs going with the revisions they will make; should one arrive out of order
 * (409), it lets the others finish, takes the board's revision from the answers, and sends that change
 * again — nothing is skipped, and the conflicts are counted. Everything runs on one event loop.
 */
final class ChangeSender {
  private static final int MAX_ERRORS = 20;
  private static final long TICK_MS = 1;

  private final Vertx vertx;
  private final HttpClient client;
  private final int port;
  private final BenchSettings settings;
  private final MeasurementWindow window;
  private final Promise<Result> done = Promise.promise();
  private final ArrayDeque<Change> retries = new ArrayDeque<>();
  private Context context;
  private long timer;
  private long startNanos;
  private long stopNanos;
  private long slotsTaken;
  private long nextBase;
  private long knownRevision;
  private boolean resyncing;
  private int inflight;
  private int maxInflightSeen;
  private long sequence;
  private long skippedSlots;
  private long committed;
  private long committedMeasured;
  private long sentMeasured;
  private long conflicts;
  private long errors;
  private final BitSet committedMeasuredSeqs = new BitSet();
  private int[] commitMicros = new int[1024];
  private int commitCount;

  private record Change(long sequence, long sentAtMicros, JsonObject record) {}

  /**
   * What the sender did; {@code commitMicros} are the measured POST round trips, {@code
   * committedMeasuredSeqs} the {@code meta.seq} of every measured change the server committed (what
   * each client must receive, once).
   */
  record Result(
      long sent,
      long sentMeasured,
      long committed,
      long committedMeasured,
      long conflicts,
      long errors,
      long skippedSlots,
      int maxInflight,
      int[] commitMicros,
      BitSet committedMeasuredSeqs) {}

  ChangeSender(
      Vertx vertx, HttpClient client, int port, BenchSettings settings, MeasurementWindow window) {
    this.vertx = vertx;
    this.client = client;
    this.port = port;
    this.settings = settings;
    this.window = window;
  }

  /**
   * Starts from the board's current revision, sets the measured window (after the warm-up), sends
   * until the end of it, and completes once every change sent has been answered.
   */
  Future<Result> run() {
    context = vertx.getOrCreateContext();
    context.runOnContext(
        go ->
            client
                .request(
                    HttpMethod.GET,
                    port,
                    "127.0.0.1",
                    "/api/rooms/" + BenchSettings.ROOM + "/board")
                .compose(request -> request.send().compose(response -> response.body()))
                .onFailure(done::tryFail)
                .onSuccess(
                    board -> {
                      nextBase = board.toJsonObject().getLong("revision");
                      knownRevision = nextBase;
                      startNanos = System.nanoTime();
                      long startMicros = MeasurementWindow.nowMicros();
                      window.set(
                          startMicros + TimeUnit.SECONDS.toMicros(settings.warmupSeconds()),
                          startMicros
                              + TimeUnit.SECONDS.toMicros(
                                  settings.warmupSeconds() + settings.seconds()));
                      stopNanos =
                          startNanos
                              + TimeUnit.SECONDS.toNanos(
                                  settings.warmupSeconds() + settings.seconds());
                      timer = vertx.setPeriodic(TICK_MS, tick -> pump());
                    }));
    return done.future();
  }

  /** Sends what is due: retries first, then the slots the rate has opened since the start. */
  private void pump() {
    long now = System.nanoTime();
    boolean sending = now < stopNanos;
    if (sending) {
      long due =
          (long) ((now - startNanos) * (double) settings.rate() / TimeUnit.SECONDS.toNanos(1));
      // A sender that falls behind may catch up by a little (50 ms of slots), not by a burst of
      // everything missed.
      long allowedBacklog = Math.max(settings.inflight(), settings.rate() / 20);
      if (due - slotsTaken > allowedBacklog) {
        skippedSlots += due - slotsTaken - allowedBacklog;
        slotsTaken = due - allowedBacklog;
      }
      while (!resyncing
          && inflight < settings.inflight()
          && (!retries.isEmpty() || slotsTaken < due)) {
        if (retries.isEmpty()) {
          slotsTaken++;
          send(newChange());
        } else {
          send(retries.poll());
        }
      }
    } else {
      while (!resyncing && inflight < settings.inflight() && !retries.isEmpty()) {
        send(retries.poll());
      }
      if (inflight == 0 && retries.isEmpty()) {
        vertx.cancelTimer(timer);
        done.tryComplete(
            new Result(
                sequence,
                sentMeasured,
                committed,
                committedMeasured,
                conflicts,
                errors,
                skippedSlots,
                maxInflightSeen,
                Arrays.copyOf(commitMicros, commitCount),
                (BitSet) committedMeasuredSeqs.clone()));
      }
    }
  }

  private Change newChange() {
    long n = sequence++;
    String id = "shape:bench" + (settings.shapes() == 0 ? n : n % settings.shapes());
    long sentAtMicros = MeasurementWindow.nowMicros();
    if (window.contains(sentAtMicros)) {
      sentMeasured++;
    }
    JsonObject record =
        ShapeRecords.shape(
            id,
            "geo",
            (n % 64) * 16.0,
            (n / 64 % 64) * 16.0,
            "a1",
            ShapeRecords.geoProps("rectangle", 120, 80, ""));
    record.put("meta", new JsonObject().put("seq", n).put("sentAtMicros", sentAtMicros));
    return new Change(n, sentAtMicros, record);
  }

  private void send(Change change) {
    long base = nextBase++;
    inflight++;
    maxInflightSeen = Math.max(maxInflightSeen, inflight);
    Buffer body =
        new JsonObject()
            .put("baseRevision", base)
            .put("put", new JsonArray().add(change.record()))
            .toBuffer();
    long postedNanos = System.nanoTime();
    JsonPost.send(client, port, "/api/rooms/" + BenchSettings.ROOM + "/changes", body)
        .onComplete(
            answered ->
                answered(
                    change,
                    postedNanos,
                    answered.succeeded() ? answered.result() : null,
                    answered.cause()));
  }

  private void answered(
      Change change, long postedNanos, JsonPost.Answer answer, Throwable failure) {
    inflight--;
    if (answer != null && answer.status() == 200) {
      committed++;
      knownRevision = Math.max(knownRevision, answer.body().toJsonObject().getLong("revision"));
      if (window.contains(change.sentAtMicros())) {
        committedMeasured++;
        committedMeasuredSeqs.set((int) change.sequence());
        recordCommit(System.nanoTime() - postedNanos);
      }
    } else if (answer != null && answer.status() == 409) {
      conflicts++;
      Long current = answer.body().toJsonObject().getLong("revision");
      if (current != null) {
        knownRevision = Math.max(knownRevision, current);
      }
      resyncing = true;
      retries.addFirst(change);
    } else {
      errors++;
      String why = answer != null ? answer.status() + " " + answer.body() : String.valueOf(failure);
      System.err.println("bench: change " + change.sequence() + " failed: " + why);
      if (errors > MAX_ERRORS) {
        vertx.cancelTimer(timer);
        done.tryFail("more than " + MAX_ERRORS + " changes failed; the last: " + why);
        return;
      }
    }
    if (resyncing && inflight == 0) {
      nextBase = knownRevision;
      resyncing = false;
    }
    pump();
  }

  private void recordCommit(long nanos) {
    if (commitCount == commitMicros.length) {
      commitMicros = Arrays.copyOf(commitMicros, commitCount * 2);
    }
    commitMicros[commitCount++] =
        (int) Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMicros(nanos));
  }
}
