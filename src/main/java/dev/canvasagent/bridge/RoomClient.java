package dev.canvasagent.bridge;

/** A browser (or curl) joined to a room over one transport. */
interface RoomClient {
  String clientId();

  /** {@code sse}, {@code websocket} or {@code sockjs}. */
  String transport();

  /**
   * Whether it can answer the server (ack, screenshots), and so be the room's host. A SockJS client
   * can once it listens to envelopes and screenshot requests; it tells the room when that changes
   * ({@link Room#hostingChanged}).
   */
  boolean canHost();

  /**
   * Whether its token lets it send into the room (acks, screenshots, viewports, changes): an editor's
   * connection. A viewer's only listens, and so never hosts.
   */
  boolean mayEdit();

  /**
   * The client its messages count against in the edge limits ({@link EdgeLimits#client}): a token's
   * subject or an address. A transport that sends nothing counts only the connection itself.
   */
  default String limitKey() {
    return clientId();
  }

  /**
   * Sends one event. Returns false when the client is gone or cannot keep up; the client has then
   * been closed, never buffered without bound.
   */
  boolean deliver(RoomEvent event);

  void close(String why);
}
