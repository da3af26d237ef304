package dev.canvasagent.mcpstdio;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import java.util.Optional;

/**
 * The headers every request to the server carries, and the session state they depend on: the
 * {@code MCP-Session-Id} the server gave on the response to {@code initialize} and the {@code
 * MCP-Protocol-Version} initialize's result named (MCP 2025-11-25, "Transports"). Used on the
 * bridge's one context only.
 */
final class SessionHeaders {
  static final String SESSION_ID = "MCP-Session-Id";
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  static final String LAST_EVENT_ID = "Last-Event-ID";

  private final McpServerTarget target;
  private String sessionId;
  private String protocolVersion;

  SessionHeaders(McpServerTarget target) {
    this.target = target;
  }

  /**
   * A POST's headers. {@code initialize} starts a session, so it carries neither the old session's
   * id nor a version not yet negotiated.
   */
  MultiMap post(boolean initialize) {
    MultiMap headers =
        common(!initialize)
            .set(HttpHeaders.CONTENT_TYPE, "application/json")
            .set(HttpHeaders.ACCEPT, "application/json, text/event-stream");
    return headers;
  }

  /** The GET stream's headers, resuming after {@code lastEventId} when there is one. */
  MultiMap stream(String lastEventId) {
    MultiMap headers = common(true).set(HttpHeaders.ACCEPT, "text/event-stream");
    if (!lastEventId.isEmpty()) {
      headers.set(LAST_EVENT_ID, lastEventId);
    }
    return headers;
  }

  MultiMap delete() {
    return common(true);
  }

  Optional<String> sessionId() {
    return Optional.ofNullable(sessionId);
  }

  void sessionAssigned(String id) {
    sessionId = id;
  }

  void protocolNegotiated(String version) {
    protocolVersion = version;
  }

  /** The server answered 404 to our session id: the next initialize starts afresh. */
  void sessionExpired() {
    sessionId = null;
  }

  private MultiMap common(boolean inSession) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    target.token().ifPresent(token -> headers.set(HttpHeaders.AUTHORIZATION, "Bearer " + token));
    if (inSession && sessionId != null) {
      headers.set(SESSION_ID, sessionId);
    }
    if (inSession && protocolVersion != null) {
      headers.set(PROTOCOL_VERSION, protocolVersion);
    }
    return headers;
  }
}
