package dev.canvasagent.support;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The answers a Node driver process writes, one JSON line each with the {@code ref} of its command,
 * read on a thread of their own and waited for by the test thread ({@link BrowserPages}, {@link
 * McpClients}).
 */
final class NodeAnswers {
  private final String processName;
  private final StringBuffer errors;
  private final Map<Integer, JsonObject> answers = new HashMap<>();
  private boolean ended;

  /** {@code processName} names the process in a failure; {@code errors} is its stderr so far. */
  NodeAnswers(String processName, StringBuffer errors) {
    this.processName = processName;
    this.errors = errors;
  }

  /** Reads {@code output} until the process ends; run it on a daemon thread. */
  void read(InputStream output) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        JsonObject answer = new JsonObject(line);
        synchronized (this) {
          answers.put(answer.getInteger("ref", -1), answer);
          notifyAll();
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // The process is gone or wrote something else; a waiting test is told below.
    } finally {
      synchronized (this) {
        ended = true;
        notifyAll();
      }
    }
  }

  /** The answer to {@code ref}, or an AssertionError naming {@code what} and the process's stderr. */
  synchronized JsonObject await(int ref, long waitMs, String what) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    while (!answers.containsKey(ref)) {
      long left = deadline - System.nanoTime();
      if (ended || left <= 0) {
        throw new AssertionError(
            "no answer to "
                + what
                + (ended ? ": " + processName + " exited" : " within " + waitMs + " ms")
                + "\nstderr:\n"
                + errors);
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return answers.remove(ref);
  }
}
