package dev.canvasagent.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** What the test helpers that drive a Node script share: reader threads and a bounded stderr log. */
final class NodeProcesses {
  static final int MAX_ERROR_CHARS = 20_000;

  private NodeProcesses() {}

  /** Keeps the first {@link #MAX_ERROR_CHARS} of a process's stderr for failure messages. */
  static void collectErrors(InputStream error, StringBuffer errors) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(error, StandardCharsets.UTF_8))) {
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
}
