package dev.canvasagent.support;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;

/**
 * A TCP connection to the server that sends exactly the bytes a test writes, when it writes them: the
 * client that stops halfway through a request head, drips it a byte at a time, or promises a body it
 * never sends. It keeps what the server answers and notices when the server closes the connection.
 */
public final class RawConnection {
  private final NetSocket socket;
  private final Buffer received = Buffer.buffer();
  private final Promise<Void> closed = Promise.promise();

  private RawConnection(NetSocket socket) {
    this.socket = socket;
  }

  /** A client whose connections come from {@code localAddress} (any of 127/8 on Linux). Keep it while its connections are open. */
  public static NetClient client(Vertx vertx, String localAddress) {
    return vertx.createNetClient(new NetClientOptions().setLocalAddress(localAddress));
  }

  /** Connects; completes once the connection is established, before anything is sent. */
  public static Future<RawConnection> open(Vertx vertx, NetClient client, int port) {
    Promise<RawConnection> opened = Promise.promise();
    // On a Vert.x context, so the handlers are set in the task that connects: an answer or a close
    // arriving at once is never missed.
    vertx
        .getOrCreateContext()
        .runOnContext(
            onContext ->
                client
                    .connect(port, "127.0.0.1")
                    .map(
                        socket -> {
                          RawConnection connection = new RawConnection(socket);
                          socket.handler(connection::receive);
                          socket.closeHandler(end -> connection.closed.tryComplete());
                          socket.exceptionHandler(error -> connection.closed.tryComplete());
                          return connection;
                        })
                    .onComplete(opened));
    return opened.future();
  }

  private synchronized void receive(Buffer chunk) {
    received.appendBuffer(chunk);
  }

  /** Sends {@code text} as it is (ISO-8859-1, as an HTTP head is). */
  public Future<Void> write(String text) {
    return socket.write(Buffer.buffer(text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
  }

  /** Everything the server has sent so far. */
  public synchronized String received() {
    return received.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** Completes when the server closes the connection (or it breaks). */
  public Future<Void> closed() {
    return closed.future();
  }

  public boolean isClosed() {
    return closed.future().isComplete();
  }

  public Future<Void> close() {
    return socket.close();
  }
}
