package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * A kind of resource this server offers: the catalog, the boards, the documents. Each answers for the
 * URIs of its own form ({@link #owns}); {@link McpServer} routes {@code resources/*} to the one that
 * owns the URI. Failures are {@link dev.canvasagent.bus.Failure}s; NOT_FOUND and FORBIDDEN are answered
 * as the protocol's "resource not found" (-32002), so a URI says nothing about rooms out of reach.
 */
public interface McpResource {
  /** The concrete resources the grant reaches, for {@code resources/list}. */
  Future<JsonArray> list(McpSession session, Grant grant);

  /** This kind's URI template, for {@code resources/templates/list}; empty for a fixed resource. */
  Optional<JsonObject> template();

  boolean owns(String uri);

  /** {@code resources/read}'s {@code contents}: {@code [{uri, mimeType, text}]}. */
  Future<JsonArray> read(String uri, McpSession session, Grant grant);

  /**
   * Starts telling the session of every change to {@code uri} ({@code notifications/resources/updated}),
   * and registers how to stop with {@link McpSession#subscribe}. Fails as {@link #read} would for a URI
   * the session may not read.
   */
  Future<Void> subscribe(String uri, McpSession session, Grant grant);
}
