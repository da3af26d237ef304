package dev.canvasagent.config;

import static dev.canvasagent.config.Check.origins;
import static dev.canvasagent.config.Check.text;
import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code http}: where the server listens, and how long a connection may take over a request. */
final class HttpSettings {
  static final Setting HOST =
      Setting.of("http.host", "HOST", text(), "127.0.0.1", "Address to bind.");
  static final Setting PORT =
      Setting.of(
          "http.port",
          "PORT",
          whole(0, 65_535),
          8080,
          "Port to bind, 0–65535 (0 picks a free one, logged at startup).");
  static final Setting BODY_LIMIT_BYTES =
      Setting.of(
          "http.bodyLimitBytes",
          "CANVAS_AGENT_BODY_LIMIT_BYTES",
          whole(1_024, 64 * 1024 * 1024),
          1_048_576,
          "Largest request body (1 KiB–64 MiB); larger → 413.");
  static final Setting SSE_HEARTBEAT_MS =
      Setting.of(
          "http.sseHeartbeatMs",
          "CANVAS_AGENT_SSE_HEARTBEAT_MS",
          whole(100, 300_000),
          15_000,
          "Heartbeat comment interval on event streams; room WebSockets get a ping and SockJS its heartbeat at the same interval (100–300000).");
  static final Setting CORS_ORIGINS =
      Setting.of(
          "http.corsOrigins",
          "CANVAS_AGENT_CORS_ORIGINS",
          origins(),
          "",
          "Other origins browsers may call from, comma-separated `scheme://host[:port]`; no wildcard. See \"Security\".");
  static final Setting HEAD_TIMEOUT_MS =
      Setting.of(
          "http.headTimeoutMs",
          "CANVAS_AGENT_HEAD_TIMEOUT_MS",
          whole(100, 300_000),
          10_000,
          "How long a connection has to send a whole request head, from when it opens or its previous answer ends; late, it is closed (100–300000). Also how long a kept-alive connection may wait idle for its next request. See \"Security: Limits\".");
  static final Setting BODY_TIMEOUT_MS =
      Setting.of(
          "http.bodyTimeoutMs",
          "CANVAS_AGENT_BODY_TIMEOUT_MS",
          whole(100, 3_600_000),
          30_000,
          "How long a request body may take to arrive after its head; late → `408 REQUEST_TIMEOUT` and the connection closed (100–3600000).");
  static final Setting IDLE_TIMEOUT_MS =
      Setting.of(
          "http.idleTimeoutMs",
          "CANVAS_AGENT_IDLE_TIMEOUT_MS",
          whole(1_000, 24 * 60 * 60 * 1000),
          150_000,
          "A connection on which no byte moves either way for this long is closed (1000–86400000); at least twice `CANVAS_AGENT_SSE_HEARTBEAT_MS`, and more than `CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS` + 5000 (an edit-request waits that long, silent, for its answer).");

  static final List<Setting> ALL =
      List.of(
          HOST,
          PORT,
          BODY_LIMIT_BYTES,
          SSE_HEARTBEAT_MS,
          CORS_ORIGINS,
          HEAD_TIMEOUT_MS,
          BODY_TIMEOUT_MS,
          IDLE_TIMEOUT_MS);

  private HttpSettings() {}

  static AppConfig.Http read(ConfigValues values) {
    int heartbeat = values.whole(SSE_HEARTBEAT_MS);
    int idle = values.whole(IDLE_TIMEOUT_MS);
    if (idle < 2 * heartbeat) {
      // One late heartbeat must not make a healthy stream look idle.
      throw values.bad(
          IDLE_TIMEOUT_MS, "must be at least twice http.sseHeartbeatMs (" + heartbeat + ")");
    }
    // An edit-request answers when its document-agent run has ended (DocumentRoutes): until then
    // nothing moves on its connection, which must not be closed as idle.
    long editRequestWait = (long) values.whole(DocumentSettings.AGENT_TIMEOUT_MS) + 5_000;
    if (idle <= editRequestWait) {
      throw values.bad(
          IDLE_TIMEOUT_MS,
          "must be more than documents.agentTimeoutMs + 5000 ("
              + editRequestWait
              + "), the longest an edit-request waits for its answer");
    }
    return new AppConfig.Http(
        values.text(HOST),
        values.whole(PORT),
        values.whole(BODY_LIMIT_BYTES),
        heartbeat,
        values.list(CORS_ORIGINS),
        values.whole(HEAD_TIMEOUT_MS),
        values.whole(BODY_TIMEOUT_MS),
        idle);
  }
}
