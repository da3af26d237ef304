package dev.canvasagent.support;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Browsers on the SockJS event-bus bridge, played by the official client
 * ({@code @vertx/eventbus-bridge-client.js} over {@code sockjs-client}) in one Node process
 * ({@code src/test/node/eventbus-client.mjs}). A test opens named clients on a transport and tells them
 * to register, send and publish. It waits for what they receive: every wait ends at the expected event,
 * and the bound only guards against a failure. Call it from the test thread, never from an event loop.
 */
public final class SockJSBrowsers implements AutoCloseable {
  private static final long WAIT_SECONDS = Await.DEFAULT_SECONDS;
  private static final String SCRIPT = "eventbus-client.mjs";

  private final Process process;
  private final BufferedWriter commands;
  private final List<JsonObject> events = new ArrayList<>();
  private final StringBuffer errors = new StringBuffer();
  private boolean ended;
  private int refs;

  private SockJSBrowsers(Process process) {
    this.process = process;
    this.commands =
        new BufferedWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    NodeProcesses.daemon("sockjs-browsers-out", () -> readEvents(process.getInputStream()));
    NodeProcesses.daemon(
        "sockjs-browsers-err", () -> NodeProcesses.collectErrors(process.getErrorStream(), errors));
  }

  public static SockJSBrowsers start() {
    Path directory =
        Path.of(System.getProperty("tldraw.oracle.dir", "src/test/node")).toAbsolutePath();
    if (!Files.isDirectory(directory.resolve("node_modules/@vertx/eventbus-bridge-client.js"))) {
      throw new IllegalStateException(
          "@vertx/eventbus-bridge-client.js is not installed in "
              + directory
              + "/node_modules. The build installs it (npm ci, phase generate-test-resources); by hand: cd "
              + directory
              + " && npm ci");
    }
    try {
      return new SockJSBrowsers(
          new ProcessBuilder("node", SCRIPT).directory(directory.toFile()).start());
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run `node` (Node.js 20+ must be on the PATH; the test suite needs it)", e);
    }
  }

  /** A client named {@code name} on {@code http://127.0.0.1:<port>/eventbus}, once its SockJS connection is open. */
  public Browser open(String name, int port, String transport) {
    return open(name, port, transport, null);
  }

  /**
   * The same, with the client's {@code defaultHeaders} set before it connects: they go with every
   * register, unregister, send and publish, as a page sends its {@code authorization}.
   */
  public Browser open(String name, int port, String transport, JsonObject defaultHeaders) {
    command(
        new JsonObject()
            .put("op", "open")
            .put("client", name)
            .put("url", "http://127.0.0.1:" + port + "/eventbus")
            .put("transport", transport)
            .put("defaultHeaders", defaultHeaders));
    JsonObject opened =
        await(
            name,
            event -> List.of("open", "closed").contains(event.getString("event")),
            "its connection to open");
    if (!"open".equals(opened.getString("event"))) {
      throw new AssertionError(
          name
              + " could not connect over "
              + transport
              + ": "
              + opened.encode()
              + "\nstderr:\n"
              + errors);
    }
    return new Browser(name, opened.getString("transport"));
  }

  /** One browser's event bus. */
  public final class Browser {
    private final String name;
    private final String transport;

    private Browser(String name, String transport) {
      this.name = name;
      this.transport = transport;
    }

    /** The SockJS transport the connection uses. */
    public String transport() {
      return transport;
    }

    public void register(String address) {
      register(address, new JsonObject());
    }

    /** Replaces the client's {@code defaultHeaders} (null: none) for what it sends from now on. */
    public void defaultHeaders(JsonObject headers) {
      command(
          new JsonObject().put("op", "defaultHeaders").put("client", name).put("headers", headers));
    }

    public void register(String address, JsonObject headers) {
      command(
          new JsonObject()
              .put("op", "register")
              .put("client", name)
              .put("address", address)
              .put("headers", headers));
    }

    /** Registers every address in one go, as a page does in its {@code onopen}; {@code firstHeaders} go with the first. */
    public void registerAll(List<String> addresses, JsonObject firstHeaders) {
      JsonArray registrations = new JsonArray();
      for (int i = 0; i < addresses.size(); i++) {
        registrations.add(
            new JsonObject()
                .put("address", addresses.get(i))
                .put("headers", i == 0 ? firstHeaders : new JsonObject()));
      }
      command(
          new JsonObject()
              .put("op", "registerAll")
              .put("client", name)
              .put("registrations", registrations));
    }

    public void unregister(String address) {
      command(new JsonObject().put("op", "unregister").put("client", name).put("address", address));
    }

    /** Sends with a reply handler; the {@code reply} or {@code reply_error} event it gets. */
    public JsonObject send(String address, Object body) {
      return send(address, body, new JsonObject());
    }

    /** Sends with {@code headers} (merged over the client's defaults) and a reply handler; the reply event. */
    public JsonObject send(String address, Object body, JsonObject headers) {
      String ref = String.valueOf(nextRef());
      command(
          new JsonObject()
              .put("op", "send")
              .put("client", name)
              .put("address", address)
              .put("body", body)
              .put("headers", headers)
              .put("ref", ref));
      return await(event -> ref.equals(event.getString("ref")), "the reply to " + address);
    }

    public void publish(String address, Object body) {
      publish(address, body, new JsonObject());
    }

    public void publish(String address, Object body, JsonObject headers) {
      command(
          new JsonObject()
              .put("op", "publish")
              .put("client", name)
              .put("address", address)
              .put("body", body)
              .put("headers", headers));
    }

    /** Closes the connection, once it is closed. */
    public void close() {
      command(new JsonObject().put("op", "close").put("client", name));
      await(event -> "closed".equals(event.getString("event")), "its connection to close");
    }

    /** The first event so far or to come that matches. */
    public JsonObject await(Predicate<JsonObject> until, String what) {
      return SockJSBrowsers.this.await(name, until, what);
    }

    /** The first message on {@code address} whose body matches; its body. */
    public JsonObject awaitMessage(String address, Predicate<JsonObject> body, String what) {
      return await(
              event ->
                  "message".equals(event.getString("event"))
                      && address.equals(event.getString("address"))
                      && event.getValue("body") instanceof JsonObject json
                      && body.test(json),
              what)
          .getJsonObject("body");
    }

    /** Waits until this client has had {@code count} events of the kind ({@code error}, {@code unhandled}, …). */
    public List<JsonObject> awaitCount(String kind, int count) {
      await(event -> events(kind).size() >= count, count + " " + kind + " events");
      return events(kind);
    }

    /** Its events of one kind so far. */
    public List<JsonObject> events(String kind) {
      synchronized (SockJSBrowsers.this) {
        return events.stream()
            .filter(
                event ->
                    name.equals(event.getString("client")) && kind.equals(event.getString("event")))
            .toList();
      }
    }

    /** The bodies of the messages it received on {@code address} so far, in order, and their headers. */
    public List<JsonObject> messages(String address) {
      return events("message").stream()
          .filter(event -> address.equals(event.getString("address")))
          .toList();
    }
  }

  private synchronized int nextRef() {
    return ++refs;
  }

  private void command(JsonObject command) {
    NodeProcesses.send(commands, command, errors);
  }

  private synchronized JsonObject await(String client, Predicate<JsonObject> until, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    int scanned = 0;
    while (true) {
      for (; scanned < events.size(); scanned++) {
        JsonObject event = events.get(scanned);
        if ("driver_error".equals(event.getString("event"))) {
          throw new AssertionError("the Node client failed: " + event.getString("message"));
        }
        if (client.equals(event.getString("client")) && until.test(event)) {
          return event;
        }
      }
      long left = deadline - System.nanoTime();
      if (ended || left <= 0) {
        throw new AssertionError(
            client
                + ": no "
                + what
                + (ended ? " before the Node client exited" : " within " + WAIT_SECONDS + " s")
                + "; its events: "
                + events.stream().filter(event -> client.equals(event.getString("client"))).toList()
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
  }

  @Override
  public void close() {
    NodeProcesses.stop(process, commands, 10);
  }

  private void readEvents(InputStream output) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        JsonObject event = new JsonObject(line);
        synchronized (this) {
          events.add(event);
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
}
