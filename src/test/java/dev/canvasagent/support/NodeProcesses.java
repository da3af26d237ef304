package dev.canvasagent.support;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What the test helpers that drive a Node script share: reader threads, a bounded stderr log, one
 * JSON command per stdin line, and stopping the script.
 */
final class NodeProcesses {
  static final int MAX_ERROR_CHARS = 20_000;

  private NodeProcesses() {}

  /** Keeps the first {@link #MAX_ERROR_CHARS} of a process's stderr for failure messages. */
  static void collectErrors(InputStream error, StringBuffer errors) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(error, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (errors.length() < MAX_ERROR_CHARS) {
          errors.append(line).append('\n');
        }
      }
    } catch (IOException ignored) {
      // Only diagnostics are lost.
    }
  }

  /** A reader thread that never keeps the test JVM alive. */
  static void daemon(String name, Runnable work) {
    Thread thread = new Thread(work, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Writes {@code command} as one line on the script's stdin; several test threads may call it. */
  static void send(BufferedWriter commands, JsonObject command, StringBuffer errors) {
    try {
      synchronized (commands) {
        commands.write(command.encode());
        commands.write('\n');
        commands.flush();
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "the Node script is not reading commands; stderr:\n" + errors, e);
    }
  }

  /** Ends the script's stdin, so it exits; after {@code graceSeconds} it is killed. */
  static void stop(Process process, BufferedWriter commands, long graceSeconds) {
    try {
      commands.close();
    } catch (IOException ignored) {
      // the process is gone already
    }
    try {
      if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
