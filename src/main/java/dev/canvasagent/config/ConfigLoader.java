package dev.canvasagent.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Builds the {@link AppConfig}: the defaults of {@code conf/config.json}, then each environment
 * variable of {@link #ENVIRONMENT}, then {@code CANVAS_AGENT_CONFIG} (a JSON blob shaped like the
 * file) over both. Every value is checked; the first bad one stops startup with its key and value.
 */
public final class ConfigLoader {
  static final String DEFAULTS_RESOURCE = "conf/config.json";
  static final String BLOB_VARIABLE = "CANVAS_AGENT_CONFIG";
  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  private static final Pattern ORIGIN = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?");
  /** What a configured public key may sign with. */
  /** A year and a day: tokens meant to last longer belong to a revocation scheme this server does not have. */
  static final int MAX_TOKEN_LIFETIME_SECONDS = 366 * 24 * 3600;
  private static final Set<String> PUBLIC_KEY_ALGORITHMS = Set.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");

  /** An environment variable and the config path it sets. */
  record EnvironmentKey(String variable, String path) {}

  /** Every environment variable the server reads, in the README's order. */
  static final List<EnvironmentKey> ENVIRONMENT =
      List.of(
          new EnvironmentKey("HOST", "http.host"),
          new EnvironmentKey("PORT", "http.port"),
          new EnvironmentKey("CANVAS_AGENT_BODY_LIMIT_BYTES", "http.bodyLimitBytes"),
          new EnvironmentKey("CANVAS_AGENT_SSE_HEARTBEAT_MS", "http.sseHeartbeatMs"),
          new EnvironmentKey("CANVAS_AGENT_CORS_ORIGINS", "http.corsOrigins"),
          new EnvironmentKey("CANVAS_AGENT_HEAD_TIMEOUT_MS", "http.headTimeoutMs"),
          new EnvironmentKey("CANVAS_AGENT_BODY_TIMEOUT_MS", "http.bodyTimeoutMs"),
          new EnvironmentKey("CANVAS_AGENT_IDLE_TIMEOUT_MS", "http.idleTimeoutMs"),
          new EnvironmentKey("CANVAS_AGENT_JWT_SECRET", "auth.jwtSecret"),
          new EnvironmentKey("CANVAS_AGENT_JWT_PUBLIC_KEY", "auth.jwtPublicKey"),
          new EnvironmentKey("CANVAS_AGENT_JWT_ALGORITHM", "auth.jwtAlgorithm"),
          new EnvironmentKey("CANVAS_AGENT_JWT_MAX_LIFETIME_SECONDS", "auth.maxTokenLifetimeSeconds"),
          new EnvironmentKey("CANVAS_AGENT_RUNS_PER_MINUTE", "limits.runsPerMinute"),
          new EnvironmentKey("CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", "limits.roomRunsPerMinute"),
          new EnvironmentKey("CANVAS_AGENT_REQUESTS_PER_SECOND", "limits.requestsPerSecond"),
          new EnvironmentKey("CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND", "limits.roomMessagesPerSecond"),
          new EnvironmentKey("CANVAS_AGENT_SCREENSHOT_BYTES_PER_MINUTE", "limits.screenshotBytesPerMinute"),
          new EnvironmentKey("CANVAS_AGENT_CONNECTIONS_PER_ADDRESS", "limits.connectionsPerAddress"),
          new EnvironmentKey("CANVAS_AGENT_ROOMS_PER_CLIENT", "limits.roomsPerClient"),
          new EnvironmentKey("CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS", "limits.tcpConnectionsPerAddress"),
          new EnvironmentKey("CANVAS_AGENT_ACK_TIMEOUT_MS", "bridge.ackTimeoutMs"),
          new EnvironmentKey("CANVAS_AGENT_ACK_RETRIES", "bridge.ackRetries"),
          new EnvironmentKey("CANVAS_AGENT_REPLAY_EVENTS", "bridge.replayEvents"),
          new EnvironmentKey("CANVAS_AGENT_MAX_MESSAGE_BYTES", "bridge.maxMessageBytes"),
          new EnvironmentKey("CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND", "bridge.messagesPerSecond"),
          new EnvironmentKey("CANVAS_STEWARD_MODEL", "model.default"),
          new EnvironmentKey("CANVAS_STEWARD_DEBUG", "model.debug"),
          new EnvironmentKey("CANVAS_AGENT_DISABLE_PROMPT_CACHE", "model.disablePromptCache"),
          new EnvironmentKey("ANTHROPIC_CACHE_TTL", "model.anthropicCacheTtl"),
          new EnvironmentKey("ANTHROPIC_API_KEY", "providers.anthropic.apiKey"),
          new EnvironmentKey("ANTHROPIC_BASE_URL", "providers.anthropic.baseUrl"),
          new EnvironmentKey("OPENAI_API_KEY", "providers.openai.apiKey"),
          new EnvironmentKey("OPENAI_BASE_URL", "providers.openai.baseUrl"),
          new EnvironmentKey("GEMINI_API_KEY", "providers.gemini.apiKey"),
          new EnvironmentKey("GEMINI_BASE_URL", "providers.gemini.baseUrl"),
          new EnvironmentKey("OPENAI_COMPATIBLE_API_KEY", "providers.openaiCompatible.apiKey"),
          new EnvironmentKey("OPENAI_COMPATIBLE_BASE_URL", "providers.openaiCompatible.baseUrl"),
          new EnvironmentKey("CANVAS_AGENT_MODEL_RETRIES", "providers.retries"),
          new EnvironmentKey("CANVAS_AGENT_MODEL_RETRY_MAX_DELAY_MS", "providers.retryMaxDelayMs"),
          new EnvironmentKey("CANVAS_AGENT_MODEL_IDLE_TIMEOUT_MS", "providers.idleTimeoutMs"),
          new EnvironmentKey("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "model.fakeTokenDelayMs"),
          new EnvironmentKey("CANVAS_AGENT_SCREENSHOT_TIMEOUT_MS", "screenshot.timeoutMs"),
          new EnvironmentKey("CANVAS_AGENT_SCREENSHOT_RETRIES", "screenshot.retries"),
          new EnvironmentKey("CANVAS_AGENT_SCREENSHOT_RETRY_DELAY_MS", "screenshot.retryDelayMs"),
          new EnvironmentKey("CANVAS_AGENT_SCREENSHOT_CACHE_TTL_MS", "screenshot.cacheTtlMs"),
          new EnvironmentKey("CANVAS_AGENT_SCREENSHOT_MAX_BYTES", "screenshot.maxBytes"),
          new EnvironmentKey("CANVAS_AGENT_LOW_ACTION_THRESHOLD", "followups.lowActionThreshold"),
          new EnvironmentKey("CANVAS_AGENT_MAX_FOLLOWUPS", "followups.maxFollowups"),
          new EnvironmentKey("CANVAS_AGENT_TTFB_SLO_MS", "slo.ttfbMs"),
          new EnvironmentKey("CANVAS_AGENT_SHAPE_STATE_LIMIT", "context.shapeStateLimit"),
          new EnvironmentKey("CANVAS_AGENT_TRANSCRIPT_WINDOW_MS", "context.transcriptWindowMs"),
          new EnvironmentKey("CANVAS_AGENT_PROMPT_CACHE_TTL_MS", "context.promptCacheTtlMs"),
          new EnvironmentKey("CANVAS_AGENT_RUN_DEADLINE_MS", "runner.deadlineMs"),
          new EnvironmentKey("CANVAS_AGENT_MAX_ACTIONS_PER_RUN", "runner.maxActions"),
          new EnvironmentKey("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "runner.partialIntervalMs"),
          new EnvironmentKey("CANVAS_AGENT_MAX_QUEUE_DEPTH", "scheduler.maxQueueDepth"),
          new EnvironmentKey("CANVAS_AGENT_RUN_HEARTBEAT_MS", "durability.heartbeatMs"),
          new EnvironmentKey("CANVAS_AGENT_LEASE_TTL_MS", "documents.leaseTtlMs"),
          new EnvironmentKey("CANVAS_AGENT_DOCUMENT_MAX_BYTES", "documents.maxContentBytes"),
          new EnvironmentKey("CANVAS_AGENT_DOC_AGENT_MAX_STEPS", "documents.agentMaxSteps"),
          new EnvironmentKey("CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS", "documents.agentTimeoutMs"),
          new EnvironmentKey("CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS", "durability.interruptedAfterMs"),
          new EnvironmentKey("CANVAS_AGENT_RUN_WATCHDOG_MS", "scheduler.watchdogMs"),
          new EnvironmentKey("CANVAS_AGENT_UNIFIED", "flags.unified"),
          new EnvironmentKey("NEXT_PUBLIC_CANVAS_AGENT_CLIENT_ENABLED", "flags.clientAgentEnabled"),
          new EnvironmentKey("NEXT_PUBLIC_CANVAS_AGENT_THEME_ENABLED", "flags.themeEnabled"),
          new EnvironmentKey("CANVAS_QUEUE_DIRECT_FALLBACK", "flags.queueDirectFallback"),
          new EnvironmentKey("DATABASE_URL", "database.url"),
          new EnvironmentKey("PGHOST", "database.host"),
          new EnvironmentKey("PGPORT", "database.port"),
          new EnvironmentKey("PGDATABASE", "database.name"),
          new EnvironmentKey("PGUSER", "database.user"),
          new EnvironmentKey("PGPASSWORD", "database.password"),
          new EnvironmentKey("CANVAS_AGENT_DB_SCHEMA", "database.schema"),
          new EnvironmentKey("CANVAS_AGENT_DB_POOL_SIZE", "database.poolSize"),
          new EnvironmentKey("CANVAS_AGENT_DB_MAX_WAIT_QUEUE", "database.maxWaitQueueSize"));

  private static final Set<String> SECRET_PATHS = Set.of(
      "database.password", "database.url", "auth.jwtSecret", "providers.anthropic.apiKey", "providers.openai.apiKey",
      "providers.gemini.apiKey", "providers.openaiCompatible.apiKey");

  private final JsonObject values;
  private final Map<String, String> sources = new HashMap<>();

  private ConfigLoader(JsonObject defaults) {
    this.values = defaults;
    leafPaths(defaults, "").forEach(path -> sources.put(path, DEFAULTS_RESOURCE + " " + path));
  }

  /** The configuration for this process's environment. */
  public static AppConfig fromEnvironment() {
    return load(System.getenv());
  }

  public static AppConfig load(Map<String, String> environment) {
    ConfigLoader loader = new ConfigLoader(readDefaults());
    for (EnvironmentKey key : ENVIRONMENT) {
      String value = environment.get(key.variable());
      if (value != null) {
        loader.set(key.path(), value, key.variable());
      }
    }
    String blob = environment.get(BLOB_VARIABLE);
    if (blob != null && !blob.isBlank()) {
      loader.overlay(parseBlob(blob), "");
    }
    return loader.build();
  }

  private static JsonObject readDefaults() {
    try (InputStream in = ConfigLoader.class.getClassLoader().getResourceAsStream(DEFAULTS_RESOURCE)) {
      if (in == null) {
        throw new ConfigException(DEFAULTS_RESOURCE + " is missing from the classpath");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonObject parseBlob(String blob) {
    try {
      return new JsonObject(blob);
    } catch (DecodeException | ClassCastException e) {
      // Not the parser's message: it quotes the text it stopped at, which may be a secret written without quotes.
      String where = e.getCause() instanceof JsonProcessingException parse && parse.getLocation() != null
          ? " (it stops making sense at line " + parse.getLocation().getLineNr() + ", column " + parse.getLocation().getColumnNr() + ")"
          : "";
      throw new ConfigException(BLOB_VARIABLE + " is not a JSON object" + where);
    }
  }

  private void overlay(JsonObject blob, String prefix) {
    for (String key : blob.fieldNames()) {
      String path = prefix.isEmpty() ? key : prefix + "." + key;
      Object value = blob.getValue(key);
      if (value instanceof JsonObject nested && lookup(path) instanceof JsonObject) {
        overlay(nested, path);
      } else if (!sources.containsKey(path)) {
        throw new ConfigException(BLOB_VARIABLE + " has an unknown key '" + path + "'");
      } else {
        set(path, value, BLOB_VARIABLE + " " + path);
      }
    }
  }

  private void set(String path, Object value, String source) {
    String[] parts = path.split("\\.");
    JsonObject parent = values;
    for (int i = 0; i < parts.length - 1; i++) {
      parent = parent.getJsonObject(parts[i]);
    }
    parent.put(parts[parts.length - 1], value);
    sources.put(path, source);
  }

  private Object lookup(String path) {
    Object current = values;
    for (String part : path.split("\\.")) {
      if (!(current instanceof JsonObject object)) {
        return null;
      }
      current = object.getValue(part);
    }
    return current;
  }

  private static List<String> leafPaths(JsonObject object, String prefix) {
    return object.fieldNames().stream()
        .flatMap(key -> {
          String path = prefix.isEmpty() ? key : prefix + "." + key;
          Object value = object.getValue(key);
          return value instanceof JsonObject nested ? leafPaths(nested, path).stream() : java.util.stream.Stream.of(path);
        })
        .toList();
  }

  private AppConfig build() {
    requireOnly("flags.unified", true, "the unified server steward is the only execution path of this server");
    requireOnly("flags.clientAgentEnabled", false, "the archived client agent does not exist in this server");
    requireOnly("flags.queueDirectFallback", false, "every run goes through the scheduler's queue");
    return new AppConfig(
        http(),
        auth(),
        limits(),
        new AppConfig.Bridge(
            integer("bridge.ackTimeoutMs", 100, 60_000),
            integer("bridge.ackRetries", 0, 10),
            integer("bridge.replayEvents", 0, 100_000),
            integer("bridge.maxMessageBytes", 1_024, 64 * 1024 * 1024),
            integer("bridge.messagesPerSecond", 1, 10_000)),
        new AppConfig.Model(
            text("model.default"),
            bool("model.debug"),
            bool("model.disablePromptCache"),
            oneOf("model.anthropicCacheTtl", Set.of("5m", "1h")),
            optionalInteger("model.fakeTokenDelayMs", 0, 10_000)),
        new AppConfig.Providers(
            endpoint("providers.anthropic"),
            endpoint("providers.openai"),
            endpoint("providers.gemini"),
            endpoint("providers.openaiCompatible"),
            integer("providers.retries", 0, 10),
            integer("providers.retryMaxDelayMs", 0, 120_000),
            integer("providers.idleTimeoutMs", 1_000, 600_000)),
        new AppConfig.Screenshot(
            integer("screenshot.timeoutMs", 2_500, 120_000),
            integer("screenshot.retries", 0, 10),
            integer("screenshot.retryDelayMs", 0, 60_000),
            integer("screenshot.cacheTtlMs", 0, 30_000),
            integer("screenshot.maxBytes", 1_024, 16 * 1024 * 1024)),
        new AppConfig.Followups(
            integer("followups.lowActionThreshold", 0, 1_000),
            integer("followups.maxFollowups", 0, 20)),
        new AppConfig.Runner(
            integer("runner.deadlineMs", 1_000, 600_000),
            integer("runner.maxActions", 1, 10_000),
            integer("runner.partialIntervalMs", 0, 60_000)),
        new AppConfig.Scheduler(
            integer("scheduler.maxQueueDepth", 1, 1_000),
            integer("scheduler.watchdogMs", 1_000, 600_000),
            // Above the runner's settle time (1 s), so a healthy runner always answers a cancel in time.
            integer("scheduler.cancelGraceMs", 2_000, 60_000)),
        durability(),
        context(),
        new AppConfig.Documents(
            integer("documents.leaseTtlMs", 100, 600_000),
            integer("documents.maxContentBytes", 1_024, 16 * 1024 * 1024),
            integer("documents.agentMaxSteps", 1, 100),
            integer("documents.agentTimeoutMs", 1_000, 3_600_000)),
        integer("context.shapeStateLimit", 0, 10 * 1024 * 1024),
        integer("slo.ttfbMs", 1, 60_000),
        bool("flags.themeEnabled"),
        database());
  }

  private AppConfig.Http http() {
    int heartbeat = integer("http.sseHeartbeatMs", 100, 300_000);
    int idle = integer("http.idleTimeoutMs", 1_000, 24 * 60 * 60 * 1000);
    if (idle < 2 * heartbeat) {
      // One late heartbeat must not make a healthy stream look idle.
      throw bad("http.idleTimeoutMs", "must be at least twice http.sseHeartbeatMs (" + heartbeat + ")");
    }
    // An edit-request answers when its document-agent run has ended (DocumentRoutes): until then
    // nothing moves on its connection, which must not be closed as idle.
    long editRequestWait = (long) integer("documents.agentTimeoutMs", 1_000, 3_600_000) + 5_000;
    if (idle <= editRequestWait) {
      throw bad("http.idleTimeoutMs", "must be more than documents.agentTimeoutMs + 5000 (" + editRequestWait
          + "), the longest an edit-request waits for its answer");
    }
    return new AppConfig.Http(
        text("http.host"),
        integer("http.port", 0, 65_535),
        integer("http.bodyLimitBytes", 1_024, 64 * 1024 * 1024),
        heartbeat,
        corsOrigins(),
        integer("http.headTimeoutMs", 100, 300_000),
        integer("http.bodyTimeoutMs", 100, 3_600_000),
        idle);
  }

  private AppConfig.Limits limits() {
    int streams = integer("limits.connectionsPerAddress", 1, 100_000);
    int connections = integer("limits.tcpConnectionsPerAddress", 1, 100_000);
    if (connections < streams) {
      // Every stream is a connection: a lower cap would refuse streams the stream limit allows.
      throw bad("limits.tcpConnectionsPerAddress", "must be at least limits.connectionsPerAddress (" + streams + ")");
    }
    return new AppConfig.Limits(
        integer("limits.runsPerMinute", 1, 100_000),
        integer("limits.roomRunsPerMinute", 1, 100_000),
        integer("limits.requestsPerSecond", 1, 100_000),
        integer("limits.roomMessagesPerSecond", 1, 1_000_000),
        integer("limits.screenshotBytesPerMinute", 1_024, Integer.MAX_VALUE),
        streams,
        integer("limits.roomsPerClient", 1, 100_000),
        connections);
  }

  /**
   * The origins browsers may call from, besides the server's own: each {@code scheme://host[:port]},
   * comma-separated. A wildcard is refused: with bearer tokens in browsers it would hand any site the
   * page's access.
   */
  private java.util.List<String> corsOrigins() {
    String text = text("http.corsOrigins", true);
    java.util.List<String> origins = new java.util.ArrayList<>();
    for (String part : text.split(",")) {
      String origin = part.strip();
      if (origin.isEmpty()) {
        continue;
      }
      if (!ORIGIN.matcher(origin).matches()) {
        throw bad("http.corsOrigins", "'" + origin + "' is not an origin: give scheme://host[:port], no path, no wildcard");
      }
      origins.add(origin.toLowerCase(java.util.Locale.ROOT));
    }
    return origins;
  }

  /**
   * Tokens: an HS256 secret (at least 32 bytes, as RFC 7518 asks of HS256 keys) or a public key (PEM)
   * with its algorithm, not both. Neither: auth is off, which only a loopback address may serve.
   */
  private AppConfig.Auth auth() {
    String secret = text("auth.jwtSecret", true);
    String publicKey = text("auth.jwtPublicKey", true);
    String algorithm = oneOf("auth.jwtAlgorithm", PUBLIC_KEY_ALGORITHMS);
    if (!secret.isEmpty() && !publicKey.isEmpty()) {
      throw bad("auth.jwtPublicKey", "set either auth.jwtSecret (CANVAS_AGENT_JWT_SECRET) or a public key, not both");
    }
    if (!secret.isEmpty() && secret.getBytes(StandardCharsets.UTF_8).length < 32) {
      throw bad("auth.jwtSecret", "an HS256 secret must be at least 32 bytes");
    }
    if (!publicKey.isEmpty() && !publicKey.contains("-----BEGIN PUBLIC KEY-----")) {
      throw bad("auth.jwtPublicKey", "must be a PEM public key (-----BEGIN PUBLIC KEY-----)");
    }
    AppConfig.Auth auth = new AppConfig.Auth(secret, publicKey, algorithm,
        integer("auth.maxTokenLifetimeSeconds", 60, MAX_TOKEN_LIFETIME_SECONDS));
    String host = text("http.host");
    if (!auth.enabled() && !Loopback.isLoopback(host)) {
      throw bad("http.host", "serving " + host + " without tokens would let anyone who can reach it read and drive every room;"
          + " set CANVAS_AGENT_JWT_SECRET (or CANVAS_AGENT_JWT_PUBLIC_KEY), or bind to 127.0.0.1");
    }
    return auth;
  }

  private AppConfig.Durability durability() {
    int heartbeat = integer("durability.heartbeatMs", 100, 60_000);
    int interruptedAfter = integer("durability.interruptedAfterMs", 500, 3_600_000);
    if (interruptedAfter < 2 * heartbeat) {
      // One late heartbeat must not make a live run look dead.
      throw bad("durability.interruptedAfterMs", "must be at least twice durability.heartbeatMs (" + heartbeat + ")");
    }
    return new AppConfig.Durability(heartbeat, interruptedAfter);
  }

  private AppConfig.Context context() {
    Map<String, Integer> budgets = new java.util.TreeMap<>();
    if (lookup("context.budgets") instanceof JsonObject parts) {
      parts.fieldNames().forEach(part -> budgets.put(part, integer("context.budgets." + part, 0, 16 * 1024 * 1024)));
    }
    return new AppConfig.Context(
        integer("context.transcriptWindowMs", 0, 24 * 60 * 60 * 1000),
        integer("context.chatMessages", 0, 1_000),
        integer("context.promptCacheTtlMs", 0, 60 * 60 * 1000),
        integer("context.promptCacheEntries", 1, 100_000),
        integer("context.totalBudgetBytes", 1_024, 16 * 1024 * 1024),
        budgets);
  }

  /** A provider's base URL (an http or https URL, kept without a trailing slash; or empty) and API key. */
  private AppConfig.Endpoint endpoint(String prefix) {
    String baseUrl = text(prefix + ".baseUrl", true);
    if (!baseUrl.isEmpty()) {
      java.net.URI uri;
      try {
        uri = new java.net.URI(baseUrl);
      } catch (java.net.URISyntaxException e) {
        throw bad(prefix + ".baseUrl", "is not a URL");
      }
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
          || uri.getQuery() != null || uri.getFragment() != null || uri.getUserInfo() != null) {
        throw bad(prefix + ".baseUrl", "must be an http:// or https:// URL with a host, and no query, fragment or credentials");
      }
      while (baseUrl.endsWith("/")) {
        baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
      }
    }
    String apiKey = text(prefix + ".apiKey", true);
    if (apiKey.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw bad(prefix + ".apiKey", "must be printable ASCII without spaces");
    }
    return new AppConfig.Endpoint(baseUrl, apiKey);
  }

  private Optional<DatabaseConfig> database() {
    String url = text("database.url", true);
    String host = text("database.host", true);
    // Every value is checked, whether or not a database is configured to use it.
    int port = integer("database.port", 1, 65_535);
    String name = text("database.name");
    String user = text("database.user");
    String password = text("database.password", true);
    String schema = text("database.schema");
    if (!SCHEMA_NAME.matcher(schema).matches()) {
      throw bad("database.schema", "must be a lower-case SQL identifier");
    }
    int poolSize = integer("database.poolSize", 1, 100);
    int waitQueue = integer("database.maxWaitQueueSize", 1, 10_000);
    if (url.isEmpty() && host.isEmpty()) {
      return Optional.empty();
    }
    if (!url.isEmpty()) {
      PgConnectOptions parsed = parseUrl(url);
      return Optional.of(new DatabaseConfig(
          parsed.getHost(), parsed.getPort(), parsed.getDatabase(), parsed.getUser(),
          parsed.getPassword() == null ? "" : parsed.getPassword(), schema, poolSize, waitQueue));
    }
    return Optional.of(new DatabaseConfig(host, port, name, user, password, schema, poolSize, waitQueue));
  }

  private PgConnectOptions parseUrl(String url) {
    if (!url.startsWith("postgres://") && !url.startsWith("postgresql://")) {
      throw bad("database.url", "must start with postgresql:// or postgres://");
    }
    try {
      return PgConnectOptions.fromUri(url);
    } catch (RuntimeException e) {
      // Not e.getMessage(): it quotes the whole URI, password included.
      throw bad("database.url", "is not a PostgreSQL connection URI");
    }
  }

  private void requireOnly(String path, boolean supported, String why) {
    if (bool(path) != supported) {
      throw bad(path, "only " + supported + " is supported: " + why);
    }
  }

  private String text(String path) {
    return text(path, false);
  }

  private String text(String path, boolean mayBeEmpty) {
    Object value = lookup(path);
    if (!(value instanceof String string) || (!mayBeEmpty && string.isBlank())) {
      throw bad(path, "must be a non-empty string");
    }
    return string.strip();
  }

  private String oneOf(String path, Set<String> allowed) {
    String value = text(path);
    if (!allowed.contains(value)) {
      throw bad(path, "must be one of " + allowed.stream().sorted().toList());
    }
    return value;
  }

  private int integer(String path, int min, int max) {
    Object value = lookup(path);
    long parsed;
    try {
      if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())) {
        parsed = number.longValue();
      } else if (value instanceof String string) {
        parsed = Long.parseLong(string.strip());
      } else {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw bad(path, "must be an integer");
    }
    if (parsed < min || parsed > max) {
      throw bad(path, "must be between " + min + " and " + max);
    }
    return (int) parsed;
  }

  /** Empty when the value is blank (not set); otherwise an integer in range. */
  private java.util.OptionalInt optionalInteger(String path, int min, int max) {
    Object value = lookup(path);
    if (value == null || (value instanceof String string && string.isBlank())) {
      return java.util.OptionalInt.empty();
    }
    return java.util.OptionalInt.of(integer(path, min, max));
  }

  private boolean bool(String path) {
    Object value = lookup(path);
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof String string) {
      switch (string.strip().toLowerCase(java.util.Locale.ROOT)) {
        case "true", "1", "yes", "on":
          return true;
        case "false", "0", "no", "off", "":
          return false;
        default:
          break;
      }
    }
    throw bad(path, "must be true or false (1/0, yes/no, on/off)");
  }

  private ConfigException bad(String path, String problem) {
    Object value = SECRET_PATHS.contains(path) ? "<redacted>" : lookup(path);
    if (path.endsWith(".baseUrl") && value instanceof String url) {
      value = withoutSecrets(url);
    }
    String shown = value instanceof String ? "'" + value + "'" : String.valueOf(value);
    return new ConfigException("bad configuration: " + sources.get(path) + " = " + shown + ": " + problem);
  }

  /** A URL as an error message may show it: its credentials and its query (where some providers take the key) left out. */
  static String withoutSecrets(String url) {
    return url.replaceFirst("(?<=//)[^/?#]*@", "<redacted>@").replaceFirst("[?#].*", "?<redacted>");
  }
}
