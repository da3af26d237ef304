package dev.canvasagent.config;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server's whole configuration, checked: every value here is in range. Loaded by
 * {@link ConfigLoader} from the declared settings' defaults, environment variables and
 * {@code CANVAS_AGENT_CONFIG}; docs/configuration.md's table lists every key.
 */
public record AppConfig(
    Http http,
    Auth auth,
    Limits limits,
    Bridge bridge,
    Model model,
    Providers providers,
    Screenshot screenshot,
    Followups followups,
    Runner runner,
    Scheduler scheduler,
    Durability durability,
    Context context,
    Documents documents,
    BoardCache boardCache,
    MemoryHistory memoryHistory,
    Heap heap,
    int shapeStateLimitBytes,
    int ttfbSloMs,
    int screenshotSloMs,
    int applyJitterSloMs,
    boolean themeEnabled,
    Optional<DatabaseConfig> database,
    Cluster cluster,
    Mcp mcp,
    Assets assets) {

  /**
   * {@code corsOrigins}: the other origins browsers may call from (none: only the server's own).
   * {@code sseHeartbeatMs}: how often every stream shows it is alive (event-stream comments, WebSocket
   * pings, SockJS heartbeats). {@code headTimeoutMs}: how long a connection has to send a whole request
   * head, from when it opens or its previous answer ends; {@code bodyTimeoutMs}: from the end of the head
   * to the end of the body; {@code idleTimeoutMs}: how long a connection may go without a byte either way.
   */
  public record Http(
      String host,
      int port,
      int bodyLimitBytes,
      int sseHeartbeatMs,
      java.util.List<String> corsOrigins,
      int headTimeoutMs,
      int bodyTimeoutMs,
      int idleTimeoutMs) {
    public Http {
      corsOrigins = java.util.List.copyOf(corsOrigins);
    }
  }

  /**
   * How access tokens are checked: an HS256 {@code jwtSecret}, or a {@code jwtPublicKey} (PEM) signing
   * with {@code jwtAlgorithm}. Neither set: auth is off (allowed on loopback only). The secret is never
   * shown by {@link #toString()}.
   */
  public record Auth(
      String jwtSecret, String jwtPublicKey, String jwtAlgorithm, long maxTokenLifetimeSeconds) {

    public boolean enabled() {
      return !jwtSecret.isEmpty() || !jwtPublicKey.isEmpty();
    }

    @Override
    public String toString() {
      return "Auth[jwtSecret="
          + (jwtSecret.isEmpty() ? "" : "<redacted>")
          + ", jwtPublicKey="
          + (jwtPublicKey.isEmpty() ? "" : "<set>")
          + ", jwtAlgorithm="
          + jwtAlgorithm
          + ", maxTokenLifetimeSeconds="
          + maxTokenLifetimeSeconds
          + "]";
    }
  }

  /**
   * What one client (a token's subject, or an address when auth is off) and one room may use:
   * runs a minute (each), HTTP requests a second, a room's inbound messages a second, screenshot
   * bytes a minute, open streams per remote address, rooms joined at once, and open connections of any
   * kind per remote address.
   */
  public record Limits(
      int runsPerMinute,
      int roomRunsPerMinute,
      int requestsPerSecond,
      int roomMessagesPerSecond,
      int screenshotBytesPerMinute,
      int connectionsPerAddress,
      int roomsPerClient,
      int tcpConnectionsPerAddress) {}

  /**
   * Delivery to browsers: how long the host has to ack an envelope and how often it is re-sent, how
   * many events a room keeps for reconnecting clients, the largest frame a client may send, and how
   * many a second.
   */
  public record Bridge(
      int ackTimeoutMs,
      int ackRetries,
      int replayEvents,
      int maxMessageBytes,
      int messagesPerSecond) {}

  /**
   * Which model runs use by default, and provider knobs. {@code fakeTokenDelayMs}: the pause between
   * {@code debug/fake}'s stream events, when set; otherwise its scenario file's {@code chunkDelayMs}.
   */
  public record Model(
      String defaultModel,
      boolean debug,
      boolean promptCacheDisabled,
      String anthropicCacheTtl,
      OptionalInt fakeTokenDelayMs) {}

  /**
   * The HTTP model providers: where each endpoint is and its key, by its name in {@code
   * providers.<name>}; how often a call that failed before anything streamed is tried again, the
   * longest pause between tries (a provider's {@code Retry-After} included), and how long a call may
   * go without a byte before it is given up.
   */
  public record Providers(
      java.util.Map<String, Endpoint> endpoints,
      int retries,
      int retryMaxDelayMs,
      int idleTimeoutMs) {
    public Providers {
      // In declaration order, so the configuration's text reads the same every time.
      endpoints = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(endpoints));
    }

    /** The endpoint of {@code providers.<name>}, e.g. {@code anthropic}. */
    public Endpoint endpoint(String name) {
      Endpoint endpoint = endpoints.get(name);
      if (endpoint == null) {
        throw new IllegalArgumentException(
            "no provider endpoint '" + name + "'; declared: " + endpoints.keySet());
      }
      return endpoint;
    }
  }

  /** A provider's base URL (empty: not set) and API key (empty: none), never shown by {@link #toString()}. */
  public record Endpoint(String baseUrl, String apiKey) {
    public boolean hasBaseUrl() {
      return !baseUrl.isEmpty();
    }

    public boolean hasApiKey() {
      return !apiKey.isEmpty();
    }

    @Override
    public String toString() {
      return "Endpoint[baseUrl=" + baseUrl + ", apiKey=" + (hasApiKey() ? "<redacted>" : "") + "]";
    }
  }

  /**
   * The screenshot RPC: the wait for a host's answer and the retries after a timeout; how long a
   * capture is reused for the same revision and bounds (0: never); the largest image a host may send.
   */
  public record Screenshot(
      int timeoutMs, int retries, int retryDelayMs, int cacheTtlMs, int maxBytes) {
    /**
     * How long a caller of {@code screenshot.capture} waits for its answer: every attempt and the
     * delays between them, and a second more, so the verticle's own NO_HOST or SCREENSHOT_TIMEOUT
     * comes back rather than the bus's timeout.
     */
    public long patienceMs() {
      return (long) timeoutMs * (retries + 1) + (long) retryDelayMs * retries + 1_000;
    }
  }

  public record Followups(int lowActionThreshold, int maxFollowups) {}

  /**
   * A run's deadline and action cap, and the least time between two partial envelopes of one action
   * (0: no partial envelopes). The deadline is the runner's own backstop: the scheduler's watchdog
   * ({@link Scheduler#watchdogMs}) is the limit of a run, and the deadline (longer by default) ends a
   * run whose scheduler is no longer there to cancel it. {@code conflictPatienceMs}: how long a run
   * keeps retrying commits that meet newer revisions, from the first one refused since its last
   * commit, before it ends with REVISION_CONFLICT.
   */
  public record Runner(
      int deadlineMs, int maxActions, int partialIntervalMs, int conflictPatienceMs) {}

  /**
   * How many runs may wait behind a session's running run; how long a run may take before the
   * scheduler cancels it (the watchdog); how long the runner has to answer a cancel before the
   * scheduler gives the run up as interrupted and moves the session's queue on; how long a shutdown
   * lets the running runs end by themselves before it cancels them.
   */
  public record Scheduler(
      int maxQueueDepth, int watchdogMs, int cancelGraceMs, int shutdownGraceMs) {}

  /**
   * Runs that outlive their node: how often the node holding a queued or running run renews its
   * heartbeat (and the sweeper looks for stale ones), and how old a heartbeat may get before the run
   * is marked {@code error} (INTERRUPTED).
   */
  public record Durability(int heartbeatMs, int interruptedAfterMs) {}

  /**
   * The prompt's context: how far back the transcript window reaches, how many chat messages it shows,
   * how long and how many built parts are memoized, the byte budget of all text parts together and of
   * each part by name ({@code context.budgets.<part>}; the shape state's is
   * {@link AppConfig#shapeStateLimitBytes}).
   */
  public record Context(
      int transcriptWindowMs,
      int chatMessages,
      int promptCacheTtlMs,
      int promptCacheEntries,
      int totalBudgetBytes,
      java.util.Map<String, Integer> budgets) {
    public Context {
      budgets = java.util.Map.copyOf(budgets);
    }
  }

  /**
   * Documents: how long a lease lasts without agent activity, the largest content a document may have,
   * how many times the document agent may ask its model in one loop, and how long one loop may run.
   */
  public record Documents(
      int leaseTtlMs, int maxContentBytes, int agentMaxSteps, int agentTimeoutMs) {}

  /**
   * The patch engine's boards in memory: how many bytes (an estimate) all of them may take, and how
   * long a room may go unused before it is let go.
   */
  public record BoardCache(int maxBytes, int idleMs) {}

  /**
   * The memory store's board history: the revisions and bytes of them kept per room, oldest dropped
   * first (the PostgreSQL store keeps every revision).
   */
  public record MemoryHistory(int revisionsPerRoom, int revisionBytesPerRoom) {}

  /**
   * How the process returns memory: {@code returnIdleMs} without a collection before G1 runs one and
   * shrinks the heap (0: never), and the most of the heap left free after a collection, in percent.
   */
  public record Heap(int returnIdleMs, int maxFreePercent) {}

  /**
   * Whether this node is one of a cluster ({@link Manager#HAZELCAST}) or alone ({@link Manager#NONE}),
   * and for a cluster: the members' Hazelcast addresses ({@code host:port}), where this node's
   * Hazelcast binds, the cluster's name, where its clustered event bus binds ({@code eventBusPort} 0:
   * any free port), how long a silent member is kept before the others drop it, and the event bus's
   * TLS (empty: plain TCP).
   */
  public record Cluster(
      Manager manager,
      java.util.List<String> members,
      String host,
      int port,
      String name,
      String eventBusHost,
      int eventBusPort,
      int failureDetectionMs,
      Optional<EventBusTls> eventBusTls) {
    public Cluster {
      members = java.util.List.copyOf(members);
    }

    /** {@code CANVAS_AGENT_CLUSTER}. */
    public enum Manager {
      NONE,
      HAZELCAST
    }

    public boolean clustered() {
      return manager == Manager.HAZELCAST;
    }
  }

  /**
   * The clustered event bus over TLS: this node's PEM key and certificate, and the PEM certificates
   * (or CA) it trusts; a peer must present one of those (client authentication required).
   */
  public record EventBusTls(String keyPath, String certPath, String trustPath) {}

  /**
   * The MCP endpoint ({@code /mcp}): how many MCP sessions this node keeps at once, and how long one
   * may go unused before it is ended (its subscriptions with it).
   */
  public record Mcp(int maxSessions, int sessionIdleMs) {}

  /**
   * Uploaded images and videos: the largest a person may upload ({@code maxBytes}), and the
   * directory the embedded (memory) store keeps them in.
   */
  public record Assets(int maxBytes, java.nio.file.Path directory) {}

  public AppConfig withHttp(Http otherHttp) {
    return new AppConfig(
        otherHttp,
        auth,
        limits,
        bridge,
        model,
        providers,
        screenshot,
        followups,
        runner,
        scheduler,
        durability,
        context,
        documents,
        boardCache,
        memoryHistory,
        heap,
        shapeStateLimitBytes,
        ttfbSloMs,
        screenshotSloMs,
        applyJitterSloMs,
        themeEnabled,
        database,
        cluster,
        mcp,
        assets);
  }

  public AppConfig withDatabase(Optional<DatabaseConfig> otherDatabase) {
    return new AppConfig(
        http,
        auth,
        limits,
        bridge,
        model,
        providers,
        screenshot,
        followups,
        runner,
        scheduler,
        durability,
        context,
        documents,
        boardCache,
        memoryHistory,
        heap,
        shapeStateLimitBytes,
        ttfbSloMs,
        screenshotSloMs,
        applyJitterSloMs,
        themeEnabled,
        otherDatabase,
        cluster,
        mcp,
        assets);
  }
}
