package dev.canvasagent.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One run as a browser and its user see it: an SSE stream on the run's room (one of its own unless
 * the caller names one), subscribed first, then {@code POST /api/canvas-agent/run}; the times (this process's {@link System#nanoTime})
 * at which the POST was sent, its answer came, and the stream brought {@code calling_model}, the first
 * {@code agent:action} envelope (partial or final), the first final one, and the run's final status.
 * The stream is closed once the run is final.
 */
final class RunProbe {
  private static final Set<String> FINAL_STATES = Set.of("done", "error", "canceled", "scheduled");

  /**
   * What one run took; a time is 0 when it did not happen.
   *
   * @param runId the run's id, as the POST's answer gave it, or {@code null}
   * @param shapesPut the ids of the records the run's final envelopes put on the board, in order
   * @param state the run's final state ({@code done}, {@code error}, …), or {@code null} when the probe failed
   * @param problem why the probe failed or the run did not end {@code done}, or {@code null}
   */
  record Result(
      long run,
      String runId,
      long postSent,
      long postAnswered,
      long callingModel,
      long firstEnvelope,
      long firstFinal,
      long finished,
      int partials,
      int finals,
      List<String> shapesPut,
      String state,
      String problem) {}

  private final long run;
  private final Promise<Result> result = Promise.promise();
  private final StringBuilder pending = new StringBuilder();
  private HttpClientRequest stream;
  private String runId;
  private long postSent;
  private long postAnswered;
  private long callingModel;
  private long firstEnvelope;
  private long firstFinal;
  private int partials;
  private int finals;
  private final List<String> shapesPut = new ArrayList<>();

  private RunProbe(long run) {
    this.run = run;
  }

  /**
   * Runs one probe in {@code room} (the caller's to choose: one of the run's own, or one shared with
   * other runs, one at a time), with {@code runBody} the run's body but its {@code roomId} ({@code
   * message}, {@code model} the registry key, perhaps a {@code viewport}). Fails the run after {@code
   * timeoutMs}.
   */
  static Future<Result> start(
      Vertx vertx,
      HttpClient streams,
      HttpClient posts,
      int port,
      long run,
      String room,
      JsonObject runBody,
      long timeoutMs) {
    RunProbe probe = new RunProbe(run);
    Promise<Void> subscribed = Promise.promise();
    streams
        .request(HttpMethod.GET, port, "127.0.0.1", "/api/rooms/" + room + "/events")
        .compose(
            request -> {
              probe.stream = request;
              return request.putHeader("accept", "text/event-stream").send();
            })
        .onSuccess(
            response -> {
              if (response.statusCode() != 200) {
                subscribed.tryFail("the events stream answered " + response.statusCode());
                return;
              }
              response.handler(
                  chunk -> {
                    long at = System.nanoTime();
                    subscribed.tryComplete();
                    probe.receive(chunk, at);
                  });
              response.exceptionHandler(error -> probe.fail("stream: " + error.getMessage()));
              response.endHandler(end -> probe.fail("the events stream ended before the run did"));
            })
        .onFailure(subscribed::tryFail);
    long timer =
        vertx.setTimer(
            timeoutMs, fired -> probe.fail("no final status within " + timeoutMs + " ms"));
    subscribed
        .future()
        .onSuccess(ok -> probe.post(posts, port, runBody.copy().put("roomId", room)))
        .onFailure(error -> probe.fail("subscribe: " + error.getMessage()));
    return probe
        .result
        .future()
        .onComplete(
            done -> {
              vertx.cancelTimer(timer);
              if (probe.stream != null) {
                probe.stream.reset();
              }
            });
  }

  private void post(HttpClient posts, int port, JsonObject run) {
    Buffer body = run.toBuffer();
    posts
        .request(HttpMethod.POST, port, "127.0.0.1", "/api/canvas-agent/run")
        .compose(
            request -> {
              request.putHeader("content-type", "application/json");
              synchronized (this) {
                postSent = System.nanoTime();
              }
              return request.send(body);
            })
        .compose(
            response ->
                response
                    .body()
                    .map(
                        answer -> {
                          synchronized (this) {
                            postAnswered = System.nanoTime();
                          }
                          if (response.statusCode() != 202) {
                            fail("the run was refused: " + response.statusCode() + " " + answer);
                          } else {
                            synchronized (this) {
                              runId = answer.toJsonObject().getString("runId");
                            }
                          }
                          return null;
                        }))
        .onFailure(error -> fail("post: " + error.getMessage()));
  }

  private synchronized void receive(Buffer chunk, long at) {
    pending.append(chunk.toString(StandardCharsets.UTF_8));
    int end;
    while ((end = pending.indexOf("\n\n")) >= 0) {
      String block = pending.substring(0, end);
      pending.delete(0, end + 2);
      event(block, at);
    }
  }

  /** One server-sent event: its {@code event:} and {@code data:} lines are all this reads. */
  private void event(String block, long at) {
    String name = null;
    String data = null;
    for (String line : block.split("\n")) {
      if (line.startsWith("event: ")) {
        name = line.substring(7);
      } else if (line.startsWith("data: ")) {
        data = line.substring(6);
      }
    }
    if (name == null || data == null) {
      return;
    }
    if (name.equals("agent:action")) {
      if (firstEnvelope == 0) {
        firstEnvelope = at;
      }
      if (data.contains("\"partial\":true")) {
        partials++;
      } else {
        finals++;
        if (firstFinal == 0) {
          firstFinal = at;
        }
        JsonObject diff = new JsonObject(data).getJsonObject("diff");
        if (diff != null) {
          diff.getJsonArray("put", new JsonArray())
              .forEach(record -> shapesPut.add(((JsonObject) record).getString("id")));
        }
      }
    } else if (name.equals("agent:status")) {
      JsonObject status = new JsonObject(data);
      String state = status.getString("state");
      if (runId == null) {
        // The stream may bring the run's first status before the POST's answer is read.
        runId = status.getJsonObject("detail", new JsonObject()).getString("runId");
      }
      if ("calling_model".equals(state) && callingModel == 0) {
        callingModel = at;
      } else if (FINAL_STATES.contains(state)) {
        String problem =
            "done".equals(state)
                ? null
                : state + ": " + status.getJsonObject("detail", new JsonObject()).encode();
        result.tryComplete(
            new Result(
                run,
                runId,
                postSent,
                postAnswered,
                callingModel,
                firstEnvelope,
                firstFinal,
                at,
                partials,
                finals,
                List.copyOf(shapesPut),
                state,
                problem));
      }
    }
  }

  private synchronized void fail(String problem) {
    result.tryComplete(
        new Result(
            run,
            runId,
            postSent,
            postAnswered,
            callingModel,
            firstEnvelope,
            firstFinal,
            0,
            partials,
            finals,
            List.copyOf(shapesPut),
            null,
            problem));
  }
}
