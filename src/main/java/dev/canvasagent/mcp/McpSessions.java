package dev.canvasagent.mcp;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP sessions of one bridge instance, under a cap, each ended after it has gone unused for the
 * configured time. Ids are 128 random bits from a {@link SecureRandom}: whoever holds one is the
 * session, within the token subject it was opened for. Sessions live in this node's memory; behind a
 * load balancer, requests must stick to the node by {@code Mcp-Session-Id} (docs/mcp.md).
 */
public final class McpSessions {
  private static final Logger LOG = LoggerFactory.getLogger(McpSessions.class);
  private static final int ID_BYTES = 16;

  private final Vertx vertx;
  private final int maxSessions;
  private final long idleMs;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, McpSession> sessions = new LinkedHashMap<>();
  private final Consumer<McpSession> onEnd;
  private long sweepTimer = -1;

  /** {@code onEnd}: told of every session that ends (deleted, idle, or closed with the server). */
  public McpSessions(Vertx vertx, int maxSessions, long idleMs, Consumer<McpSession> onEnd) {
    this.vertx = vertx;
    this.maxSessions = maxSessions;
    this.idleMs = idleMs;
    this.onEnd = onEnd;
  }

  public void start() {
    sweepTimer = vertx.setPeriodic(Math.max(1_000, idleMs / 4), id -> sweep());
  }

  /** A new session; empty when this node already holds {@code maxSessions}. */
  public Optional<McpSession> open(
      String protocolVersion, JsonObject clientInfo, String subject, String boundRoom) {
    if (sessions.size() >= maxSessions) {
      return Optional.empty();
    }
    byte[] bytes = new byte[ID_BYTES];
    random.nextBytes(bytes);
    String id = HexFormat.of().formatHex(bytes);
    McpSession session =
        new McpSession(
            id, protocolVersion, clientInfo, subject, boundRoom, System.currentTimeMillis());
    sessions.put(id, session);
    LOG.atInfo()
        .addKeyValue("mcpSession", id.substring(0, 12))
        .addKeyValue("protocolVersion", protocolVersion)
        .addKeyValue("sessions", sessions.size())
        .log("mcp.session.opened");
    return Optional.of(session);
  }

  /** The session, if this node has it and it was opened for {@code subject}; marks it used. */
  public Optional<McpSession> find(String id, String subject) {
    McpSession session = id == null ? null : sessions.get(id);
    if (session == null || !session.subject().equals(subject)) {
      return Optional.empty();
    }
    session.touch(System.currentTimeMillis());
    return Optional.of(session);
  }

  public void close(McpSession session, String why) {
    if (sessions.remove(session.id()) == session) {
      session.end();
      LOG.atInfo()
          .addKeyValue("mcpSession", session.id().substring(0, 12))
          .addKeyValue("why", why)
          .addKeyValue("sessions", sessions.size())
          .log("mcp.session.ended");
      onEnd.accept(session);
    }
  }

  public int size() {
    return sessions.size();
  }

  public void closeAll(String why) {
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
    new ArrayList<>(sessions.values()).forEach(session -> close(session, why));
  }

  private void sweep() {
    long cutoff = System.currentTimeMillis() - idleMs;
    new ArrayList<>(sessions.values())
        .stream()
            .filter(session -> session.idleSince(cutoff))
            .forEach(session -> close(session, "idle"));
  }
}
