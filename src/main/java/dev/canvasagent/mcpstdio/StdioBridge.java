package dev.canvasagent.mcpstdio;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;

/**
 * Bridges an MCP client speaking the stdio transport (newline-delimited JSON-RPC on stdin and
 * stdout) to a server's Streamable HTTP endpoint (MCP 2025-11-25, "Transports").
 *
 * <p>Each stdin line is POSTed as it comes, in order: a message is put on the wire only after the
 * one before it (after {@code initialize} has been answered, so that what follows carries the
 * session), but answers are not waited for, so a long {@code tools/call} never holds up a {@code
 * ping}. A line that is not JSON is answered with a -32700 error and the bridge goes on. Once the
 * client's {@code notifications/initialized} has been forwarded the session's GET stream is
 * opened. At stdin's end the answers still coming are waited for (up to {@link
 * Settings#drainAtEnd}), the session is deleted (its errors ignored) and {@link #run()} completes.
 *
 * <p>stdin and stdout are read and written by threads of their own; everything else runs on one
 * Vert.x context, so the bridge's state needs no locks.
 */
public final class StdioBridge {
  /** Overlapping requests, plus the GET stream, each hold a connection. */
  static final int MAX_CONNECTIONS = 64;

  static final Duration DELETE_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The GET stream's reconnection backoff (doubling from the first to the max), and how long stdin's
   * end waits for answers still coming before the session is deleted.
   */
  public record Settings(
      Duration firstReconnectBackoff, Duration maxReconnectBackoff, Duration drainAtEnd) {
    public static Settings defaults() {
      return new Settings(Duration.ofMillis(500), Duration.ofSeconds(10), Duration.ofSeconds(5));
    }
  }

  private final Vertx vertx;
  private final McpServerTarget target;
  private final Settings settings;
  private final InputStream in;
  private final PrintStream err;
  private final Context context;
  private final StdoutLines stdout;
  private final ServerMessages messages;
  private final SessionHeaders session;
  private HttpClientAgent client;
  private MessageForwarder forwarder;
  private ServerEventStream stream;
  private Future<Void> sendChain = Future.succeededFuture();
  private int unanswered;
  private Promise<Void> drained;
  private boolean started;

  public StdioBridge(
      Vertx vertx,
      McpServerTarget target,
      Settings settings,
      InputStream in,
      OutputStream out,
      PrintStream err) {
    this.vertx = vertx;
    this.target = target;
    this.settings = settings;
    this.in = in;
    this.err = err;
    this.context = vertx.getOrCreateContext();
    this.stdout = new StdoutLines(out, err, context);
    this.messages = new ServerMessages(stdout, err);
    this.session = new SessionHeaders(target);
  }

  /**
   * Runs until stdin ends: completes once the session is deleted, the connections closed and every
   * line written to stdout. Call it once.
   */
  public Future<Void> run() {
    if (started) {
      throw new IllegalStateException("the bridge runs once");
    }
    started = true;
    Promise<Void> finished = Promise.promise();
    context.runOnContext(
        begin -> {
          client =
              vertx.createHttpClient(
                  new HttpClientOptions().setConnectTimeout(10_000),
                  new PoolOptions().setHttp1MaxSize(MAX_CONNECTIONS));
          forwarder =
              new MessageForwarder(
                  vertx, settings.firstReconnectBackoff(), client, target, session, messages, err);
          err.println("mcp-stdio: forwarding stdio to " + target.shownUrl());
          new StdinLines(in, err, context).start(this::line, end -> end(finished));
        });
    return finished.future();
  }

  private void line(String line) {
    if (line.isBlank()) {
      return;
    }
    ClientMessage message;
    try {
      message = ClientMessage.parse(line);
    } catch (DecodeException notJson) {
      messages.write(JsonRpcErrors.parseError());
      return;
    }
    unanswered++;
    Promise<Void> sent = Promise.promise();
    Future<Void> previous = sendChain;
    sendChain = sent.future();
    previous.onComplete(
        ready -> {
          MessageForwarder.Exchange exchange = forwarder.forward(message);
          exchange.sent().onComplete(onWire -> sent.complete());
          exchange
              .done()
              .onComplete(
                  answered -> {
                    if (message.isInitializedNotification()) {
                      openStream();
                    }
                    unanswered--;
                    if (unanswered == 0 && drained != null) {
                      drained.tryComplete();
                    }
                  });
        });
  }

  /** One GET stream per session: a new initialization replaces the old stream. */
  private void openStream() {
    if (stream != null) {
      stream.close();
    }
    stream =
        new ServerEventStream(
            vertx,
            client,
            target,
            session,
            messages,
            err,
            settings.firstReconnectBackoff(),
            settings.maxReconnectBackoff());
    stream.open();
  }

  private void end(Promise<Void> finished) {
    sendChain
        .compose(allSent -> answersOrPatience())
        .compose(waited -> deleteSession())
        .onComplete(
            deleted -> {
              if (stream != null) {
                stream.close();
              }
              client
                  .close()
                  .otherwiseEmpty()
                  .compose(closed -> stdout.close())
                  .onComplete(flushed -> finished.complete());
            });
  }

  private Future<Void> answersOrPatience() {
    if (unanswered == 0) {
      return Future.succeededFuture();
    }
    drained = Promise.promise();
    long timer =
        vertx.setTimer(
            settings.drainAtEnd().toMillis(),
            patienceOver -> {
              if (drained.tryComplete()) {
                err.println(
                    "mcp-stdio: stdin ended; " + unanswered + " answer(s) not awaited any longer");
              }
            });
    return drained.future().onComplete(done -> vertx.cancelTimer(timer));
  }

  /** The server may keep a session until it expires; a DELETE lets it go now. Errors are moot. */
  private Future<Void> deleteSession() {
    if (session.sessionId().isEmpty()) {
      return Future.succeededFuture();
    }
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.DELETE)
                .setAbsoluteURI(target.url().toString())
                .setHeaders(session.delete())
                .setConnectTimeout(DELETE_TIMEOUT.toMillis())
                .setIdleTimeout(DELETE_TIMEOUT.toMillis()))
        .compose(request -> request.send())
        .compose(response -> response.body())
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }
}
