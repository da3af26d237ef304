package dev.canvasagent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The configuration a process gets from the declared defaults, its environment variables and the
 * {@code CANVAS_AGENT_CONFIG} blob, and the startup error it gets instead for any bad value.
 */
class ConfigLoaderTest {
  static final String BLOB = ConfigLoader.BLOB_VARIABLE;

  static AppConfig load(Map<String, String> environment) {
    return ConfigLoader.load(environment);
  }

  static ConfigException refused(Map<String, String> environment) {
    return assertThrows(ConfigException.class, () -> ConfigLoader.load(environment));
  }

  static DatabaseConfig database(Map<String, String> environment) {
    Optional<DatabaseConfig> database = load(environment).database();
    assertTrue(database.isPresent(), "the database is enabled by " + environment.keySet());
    return database.get();
  }

  // Defaults

  @Test
  void withNoEnvironmentTheDeclaredDefaultsApply() {
    AppConfig config = load(Map.of());

    assertEquals("127.0.0.1", config.http().host());
    assertEquals(8080, config.http().port());
    assertEquals(1_048_576, config.http().bodyLimitBytes());
    assertEquals(15_000, config.http().sseHeartbeatMs());
    assertEquals(10_000, config.http().headTimeoutMs());
    assertEquals(30_000, config.http().bodyTimeoutMs());
    assertEquals(150_000, config.http().idleTimeoutMs());
    assertEquals(64, config.limits().tcpConnectionsPerAddress());
    assertEquals("debug/fake", config.model().defaultModel());
    assertFalse(config.model().debug());
    assertFalse(config.model().promptCacheDisabled());
    assertEquals("5m", config.model().anthropicCacheTtl());
    assertEquals(
        java.util.OptionalInt.empty(),
        config.model().fakeTokenDelayMs(),
        "unset: the scenario file paces the fake");
    // Component by component, not whole records: a new setting adds a component without changing
    // this test.
    AppConfig.Screenshot screenshot = config.screenshot();
    assertEquals(
        List.of(3500, 1, 450, 20_000, 2 * 1024 * 1024),
        List.of(
            screenshot.timeoutMs(),
            screenshot.retries(),
            screenshot.retryDelayMs(),
            screenshot.cacheTtlMs(),
            screenshot.maxBytes()));
    assertEquals(6, config.followups().lowActionThreshold());
    assertEquals(3, config.followups().maxFollowups());
    assertEquals(
        List.of(90_000, 200, 100),
        List.of(
            config.runner().deadlineMs(),
            config.runner().maxActions(),
            config.runner().partialIntervalMs()));
    assertEquals(
        List.of(8, 60_000, 5_000, 20_000),
        List.of(
            config.scheduler().maxQueueDepth(),
            config.scheduler().watchdogMs(),
            config.scheduler().cancelGraceMs(),
            config.scheduler().shutdownGraceMs()));
    assertEquals(200, config.ttfbSloMs());
    assertEquals(4096, config.shapeStateLimitBytes());
    assertEquals(60_000, config.context().transcriptWindowMs());
    assertEquals(120_000, config.context().promptCacheTtlMs());
    assertEquals(64, config.context().promptCacheEntries());
    assertEquals(20, config.context().chatMessages());
    assertEquals(131_072, config.context().totalBudgetBytes());
    assertEquals(49_152, config.context().budgets().get("blurryShapes"));
    assertTrue(config.themeEnabled());
    assertEquals(Optional.empty(), config.database(), "no database unless one is configured");
  }

  // Environment variables

  /** One environment variable (the first key of {@code environment}) and what it changes. */
  record EnvCase(
      Map<String, String> environment, Function<AppConfig, Object> read, Object expected) {
    String variable() {
      return environment.keySet().iterator().next();
    }

    @Override
    public String toString() {
      return environment.toString();
    }
  }

  static EnvCase override(
      String variable, String value, Function<AppConfig, Object> read, Object expected) {
    return new EnvCase(Map.of(variable, value), read, expected);
  }

  /** A database variable: PGHOST is set too, since without a host or URL there is no database. */
  static EnvCase databaseOverride(
      String variable, String value, Function<DatabaseConfig, Object> read, Object expected) {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put(variable, value);
    environment.putIfAbsent("PGHOST", "db.internal");
    return new EnvCase(environment, config -> config.database().map(read).orElse(null), expected);
  }

  static final String SECRET = "a-test-secret-of-at-least-32-bytes!!";

  /** The variable under test first: {@link EnvCase#variable()} names the case by it. */
  static Map<String, String> ordered(
      String variable, String value, String otherVariable, String otherValue) {
    Map<String, String> environment = new java.util.LinkedHashMap<>();
    environment.put(variable, value);
    environment.put(otherVariable, otherValue);
    return environment;
  }

  static List<EnvCase> overrides() {
    return List.of(
        new EnvCase(
            ordered("HOST", "0.0.0.0", "CANVAS_AGENT_JWT_SECRET", SECRET),
            c -> c.http().host(),
            "0.0.0.0"),
        override("PORT", "9090", c -> c.http().port(), 9090),
        override("CANVAS_AGENT_BODY_LIMIT_BYTES", "2048", c -> c.http().bodyLimitBytes(), 2048),
        override("CANVAS_AGENT_SSE_HEARTBEAT_MS", "5000", c -> c.http().sseHeartbeatMs(), 5000),
        override(
            "CANVAS_AGENT_CORS_ORIGINS",
            "https://app.example.com, http://localhost:5173",
            c -> c.http().corsOrigins(),
            List.of("https://app.example.com", "http://localhost:5173")),
        override("CANVAS_AGENT_HEAD_TIMEOUT_MS", "5000", c -> c.http().headTimeoutMs(), 5000),
        override("CANVAS_AGENT_BODY_TIMEOUT_MS", "20000", c -> c.http().bodyTimeoutMs(), 20_000),
        override("CANVAS_AGENT_IDLE_TIMEOUT_MS", "200000", c -> c.http().idleTimeoutMs(), 200_000),
        override("CANVAS_AGENT_JWT_SECRET", SECRET, c -> c.auth().jwtSecret(), SECRET),
        override(
            "CANVAS_AGENT_JWT_PUBLIC_KEY",
            "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----",
            c -> c.auth().enabled(),
            true),
        override("CANVAS_AGENT_JWT_ALGORITHM", "ES256", c -> c.auth().jwtAlgorithm(), "ES256"),
        override(
            "CANVAS_AGENT_JWT_MAX_LIFETIME_SECONDS",
            "86400",
            c -> c.auth().maxTokenLifetimeSeconds(),
            86400L),
        override("CANVAS_AGENT_RUNS_PER_MINUTE", "5", c -> c.limits().runsPerMinute(), 5),
        override("CANVAS_AGENT_ROOM_RUNS_PER_MINUTE", "7", c -> c.limits().roomRunsPerMinute(), 7),
        override("CANVAS_AGENT_REQUESTS_PER_SECOND", "9", c -> c.limits().requestsPerSecond(), 9),
        override(
            "CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND",
            "11",
            c -> c.limits().roomMessagesPerSecond(),
            11),
        override(
            "CANVAS_AGENT_SCREENSHOT_BYTES_PER_MINUTE",
            "2048",
            c -> c.limits().screenshotBytesPerMinute(),
            2048),
        override(
            "CANVAS_AGENT_CONNECTIONS_PER_ADDRESS",
            "3",
            c -> c.limits().connectionsPerAddress(),
            3),
        override("CANVAS_AGENT_ROOMS_PER_CLIENT", "4", c -> c.limits().roomsPerClient(), 4),
        override(
            "CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS",
            "40",
            c -> c.limits().tcpConnectionsPerAddress(),
            40),
        override("CANVAS_AGENT_ACK_TIMEOUT_MS", "1500", c -> c.bridge().ackTimeoutMs(), 1500),
        override("CANVAS_AGENT_ACK_RETRIES", "4", c -> c.bridge().ackRetries(), 4),
        override("CANVAS_AGENT_REPLAY_EVENTS", "50", c -> c.bridge().replayEvents(), 50),
        override(
            "CANVAS_AGENT_MAX_MESSAGE_BYTES", "65536", c -> c.bridge().maxMessageBytes(), 65536),
        override(
            "CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND",
            "10",
            c -> c.bridge().messagesPerSecond(),
            10),
        override(
            "CANVAS_STEWARD_MODEL",
            "anthropic/claude-sonnet-4-5",
            c -> c.model().defaultModel(),
            "anthropic/claude-sonnet-4-5"),
        override("CANVAS_STEWARD_DEBUG", "true", c -> c.model().debug(), true),
        override(
            "CANVAS_AGENT_DISABLE_PROMPT_CACHE", "yes", c -> c.model().promptCacheDisabled(), true),
        override("ANTHROPIC_CACHE_TTL", "1h", c -> c.model().anthropicCacheTtl(), "1h"),
        override(
            "ANTHROPIC_API_KEY",
            "sk-ant-test",
            c -> c.providers().endpoint("anthropic").apiKey(),
            "sk-ant-test"),
        override(
            "ANTHROPIC_BASE_URL",
            "http://127.0.0.1:9999/",
            c -> c.providers().endpoint("anthropic").baseUrl(),
            "http://127.0.0.1:9999"),
        override(
            "OPENAI_API_KEY", "sk-test", c -> c.providers().endpoint("openai").apiKey(), "sk-test"),
        override(
            "OPENAI_BASE_URL",
            "https://gateway.example/openai/v1",
            c -> c.providers().endpoint("openai").baseUrl(),
            "https://gateway.example/openai/v1"),
        override(
            "GEMINI_API_KEY",
            "AIza-test",
            c -> c.providers().endpoint("gemini").apiKey(),
            "AIza-test"),
        override(
            "GEMINI_BASE_URL",
            "https://gemini.example",
            c -> c.providers().endpoint("gemini").baseUrl(),
            "https://gemini.example"),
        override(
            "OPENAI_COMPATIBLE_API_KEY",
            "local",
            c -> c.providers().endpoint("openaiCompatible").apiKey(),
            "local"),
        override(
            "OPENAI_COMPATIBLE_BASE_URL",
            "http://127.0.0.1:11434/v1",
            c -> c.providers().endpoint("openaiCompatible").baseUrl(),
            "http://127.0.0.1:11434/v1"),
        override("CANVAS_AGENT_MODEL_RETRIES", "0", c -> c.providers().retries(), 0),
        override(
            "CANVAS_AGENT_MODEL_RETRY_MAX_DELAY_MS",
            "2000",
            c -> c.providers().retryMaxDelayMs(),
            2000),
        override(
            "CANVAS_AGENT_MODEL_IDLE_TIMEOUT_MS", "5000", c -> c.providers().idleTimeoutMs(), 5000),
        override(
            "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS",
            "0",
            c -> c.model().fakeTokenDelayMs(),
            java.util.OptionalInt.of(0)),
        override(
            "CANVAS_AGENT_SCREENSHOT_TIMEOUT_MS", "5000", c -> c.screenshot().timeoutMs(), 5000),
        override("CANVAS_AGENT_SCREENSHOT_RETRIES", "3", c -> c.screenshot().retries(), 3),
        override(
            "CANVAS_AGENT_SCREENSHOT_RETRY_DELAY_MS",
            "100",
            c -> c.screenshot().retryDelayMs(),
            100),
        override("CANVAS_AGENT_SCREENSHOT_CACHE_TTL_MS", "0", c -> c.screenshot().cacheTtlMs(), 0),
        override(
            "CANVAS_AGENT_SCREENSHOT_MAX_BYTES", "524288", c -> c.screenshot().maxBytes(), 524_288),
        override(
            "CANVAS_AGENT_LOW_ACTION_THRESHOLD", "2", c -> c.followups().lowActionThreshold(), 2),
        override("CANVAS_AGENT_MAX_FOLLOWUPS", "5", c -> c.followups().maxFollowups(), 5),
        override("CANVAS_AGENT_TTFB_SLO_MS", "150", AppConfig::ttfbSloMs, 150),
        override("CANVAS_AGENT_SCREENSHOT_SLO_MS", "300", AppConfig::screenshotSloMs, 300),
        override("CANVAS_AGENT_APPLY_JITTER_SLO_MS", "80", AppConfig::applyJitterSloMs, 80),
        override("CANVAS_AGENT_SHAPE_STATE_LIMIT", "8192", AppConfig::shapeStateLimitBytes, 8192),
        override(
            "CANVAS_AGENT_TRANSCRIPT_WINDOW_MS",
            "30000",
            c -> c.context().transcriptWindowMs(),
            30_000),
        override("CANVAS_AGENT_PROMPT_CACHE_TTL_MS", "0", c -> c.context().promptCacheTtlMs(), 0),
        override("CANVAS_AGENT_RUN_DEADLINE_MS", "30000", c -> c.runner().deadlineMs(), 30_000),
        override("CANVAS_AGENT_MAX_ACTIONS_PER_RUN", "50", c -> c.runner().maxActions(), 50),
        override("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "0", c -> c.runner().partialIntervalMs(), 0),
        override("CANVAS_AGENT_MAX_QUEUE_DEPTH", "4", c -> c.scheduler().maxQueueDepth(), 4),
        override("CANVAS_AGENT_RUN_HEARTBEAT_MS", "1000", c -> c.durability().heartbeatMs(), 1000),
        override("CANVAS_AGENT_LEASE_TTL_MS", "2000", c -> c.documents().leaseTtlMs(), 2000),
        override(
            "CANVAS_AGENT_DOCUMENT_MAX_BYTES", "4096", c -> c.documents().maxContentBytes(), 4096),
        override("CANVAS_AGENT_DOC_AGENT_MAX_STEPS", "3", c -> c.documents().agentMaxSteps(), 3),
        override(
            "CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS", "5000", c -> c.documents().agentTimeoutMs(), 5000),
        override(
            "CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS",
            "60000",
            c -> c.durability().interruptedAfterMs(),
            60_000),
        override("CANVAS_AGENT_RUN_WATCHDOG_MS", "5000", c -> c.scheduler().watchdogMs(), 5_000),
        override("CANVAS_AGENT_SHUTDOWN_GRACE_MS", "0", c -> c.scheduler().shutdownGraceMs(), 0),
        // The three retired flags accept only the one value this server supports (refusals are
        // below).
        override("CANVAS_AGENT_UNIFIED", "1", c -> c.http().port(), 8080),
        override("NEXT_PUBLIC_CANVAS_AGENT_CLIENT_ENABLED", "off", c -> c.http().port(), 8080),
        override("CANVAS_QUEUE_DIRECT_FALLBACK", "false", c -> c.http().port(), 8080),
        override("NEXT_PUBLIC_CANVAS_AGENT_THEME_ENABLED", "false", AppConfig::themeEnabled, false),
        override(
            "DATABASE_URL",
            "postgresql://app@db.example/app",
            c -> c.database().map(DatabaseConfig::host).orElse(null),
            "db.example"),
        databaseOverride("PGHOST", "pg.example", DatabaseConfig::host, "pg.example"),
        databaseOverride("PGPORT", "6543", DatabaseConfig::port, 6543),
        databaseOverride("PGDATABASE", "canvas", DatabaseConfig::database, "canvas"),
        databaseOverride("PGUSER", "svc", DatabaseConfig::user, "svc"),
        databaseOverride("PGPASSWORD", "pw", DatabaseConfig::password, "pw"),
        databaseOverride(
            "CANVAS_AGENT_DB_SCHEMA", "canvas_agent", DatabaseConfig::schema, "canvas_agent"),
        databaseOverride("CANVAS_AGENT_DB_POOL_SIZE", "16", DatabaseConfig::poolSize, 16),
        databaseOverride(
            "CANVAS_AGENT_DB_MAX_WAIT_QUEUE", "128", DatabaseConfig::maxWaitQueueSize, 128));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("overrides")
  void eachEnvironmentVariableOverridesItsDefault(EnvCase override) {
    assertEquals(override.expected(), override.read().apply(load(override.environment())));
  }

  // Every variable, from its declaration alone: a value its check accepts lands at its path, and
  // one
  // it refuses stops startup naming the variable (and the value, unless the setting is secret).

  static Stream<Arguments> variables() {
    return Settings.ALL.stream()
        .filter(setting -> setting.variable().isPresent())
        .map(setting -> Arguments.of(setting.variable().get(), setting));
  }

  static Stream<Arguments> refusableVariables() {
    return variables()
        .filter(
            arguments -> ((Setting) arguments.get()[1]).check().samples().refusal().isPresent());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variables")
  void aValueItsCheckAcceptsLandsAtItsPath(String variable, Setting setting) {
    Check.Samples sample = setting.check().samples();

    ConfigValues values = ConfigLoader.values(Map.of(variable, sample.accepted()));

    assertEquals(variable, values.source(setting.path()), "where " + setting.path() + " came from");
    assertEquals(sample.value(), values.read(setting));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusableVariables")
  void aValueItsCheckRefusesStopsStartupNamingTheVariable(String variable, Setting setting) {
    String value = setting.check().samples().refusal().orElseThrow();

    String message = refused(Map.of(variable, value)).getMessage();

    String shown = setting.secret() ? "<redacted>" : value;
    assertTrue(
        message.startsWith("bad configuration: " + variable + " = '" + shown + "': "), message);
    if (setting.secret()) {
      assertFalse(message.contains(value), message);
    }
  }

  @Test
  void theConfigBlobWinsOverEnvironmentVariables() {
    AppConfig config =
        load(
            Map.of(
                "CANVAS_AGENT_SCREENSHOT_TIMEOUT_MS",
                "3000",
                "CANVAS_AGENT_LOW_ACTION_THRESHOLD",
                "2",
                "CANVAS_AGENT_MAX_FOLLOWUPS",
                "5",
                BLOB,
                "{\"screenshot\":{\"timeoutMs\":5000,\"retries\":2},\"followups\":{\"lowActionThreshold\":4}}"));

    AppConfig.Screenshot screenshot = config.screenshot();
    assertEquals(
        List.of(5000, 2, 450, 20_000, 2 * 1024 * 1024),
        List.of(
            screenshot.timeoutMs(),
            screenshot.retries(),
            screenshot.retryDelayMs(),
            screenshot.cacheTtlMs(),
            screenshot.maxBytes()),
        "blob over env, the rest default");
    assertEquals(4, config.followups().lowActionThreshold(), "the blob over the env");
    assertEquals(
        5, config.followups().maxFollowups(), "what the blob leaves out keeps its env value");
  }

  @Test
  void theConfigBlobSetsTheScreenshotCacheAndSizeLimit() {
    AppConfig config =
        load(Map.of(BLOB, "{\"screenshot\":{\"cacheTtlMs\":10000,\"maxBytes\":1048576}}"));

    assertEquals(10_000, config.screenshot().cacheTtlMs());
    assertEquals(1_048_576, config.screenshot().maxBytes());
  }

  @Test
  void theCancelGraceIsSetInTheBlobAndMustLeaveTheRunnerTimeToSettle() {
    assertEquals(
        3_000,
        load(Map.of(BLOB, "{\"scheduler\":{\"cancelGraceMs\":3000}}")).scheduler().cancelGraceMs());
    String message = refused(Map.of(BLOB, "{\"scheduler\":{\"cancelGraceMs\":500}}")).getMessage();
    assertTrue(message.contains("scheduler.cancelGraceMs = 500"), message);
    assertTrue(message.contains("between 2000 and 60000"), message);
  }

  @Test
  void aBadScreenshotCacheTtlInTheBlobIsRefusedNamingThePathAndTheValue() {
    String message = refused(Map.of(BLOB, "{\"screenshot\":{\"cacheTtlMs\":60000}}")).getMessage();

    assertTrue(message.contains(BLOB + " screenshot.cacheTtlMs = 60000"), message);
    assertTrue(message.contains("between 0 and 30000"), message);
  }

  @Test
  void aBadScreenshotMaxBytesInTheBlobIsRefusedNamingThePathAndTheValue() {
    String message = refused(Map.of(BLOB, "{\"screenshot\":{\"maxBytes\":\"lots\"}}")).getMessage();

    assertTrue(message.contains(BLOB + " screenshot.maxBytes = 'lots'"), message);
    assertTrue(message.contains("must be an integer"), message);
  }

  @Test
  void theConfigBlobSetsTheFakeTokenDelayAsANumber() {
    assertEquals(
        java.util.OptionalInt.of(25),
        load(Map.of(BLOB, "{\"model\":{\"fakeTokenDelayMs\":25}}")).model().fakeTokenDelayMs());
  }

  @Test
  void aBlankConfigBlobChangesNothing() {
    assertEquals(load(Map.of()), load(Map.of(BLOB, "  ")));
  }

  // Bad values: refused at startup, naming the key and the value

  static Stream<Arguments> badValues() {
    return Stream.of(
        bad("CANVAS_AGENT_SCREENSHOT_TIMEOUT_MS", "1000", "2500"),
        bad("CANVAS_AGENT_SCREENSHOT_CACHE_TTL_MS", "30001", "between 0 and 30000"),
        bad("CANVAS_AGENT_SCREENSHOT_CACHE_TTL_MS", "-1", "between 0 and 30000"),
        bad("CANVAS_AGENT_SCREENSHOT_CACHE_TTL_MS", "20s", "integer"),
        bad("CANVAS_AGENT_SCREENSHOT_MAX_BYTES", "512", "between 1024 and 16777216"),
        bad("CANVAS_AGENT_SCREENSHOT_MAX_BYTES", "33554432", "between 1024 and 16777216"),
        bad("CANVAS_AGENT_SCREENSHOT_MAX_BYTES", "2MiB", "integer"),
        bad("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "-1", "between 0 and 60000"),
        bad("CANVAS_AGENT_RUN_WATCHDOG_MS", "999", "between 1000 and 600000"),
        bad("CANVAS_AGENT_RUN_WATCHDOG_MS", "1m", "integer"),
        bad("CANVAS_AGENT_PARTIAL_INTERVAL_MS", "fast", "integer"),
        bad("PORT", "abc", "integer"),
        bad("PORT", "70000", "65535"),
        bad("ANTHROPIC_CACHE_TTL", "2h", "5m"),
        bad("ANTHROPIC_BASE_URL", "api.anthropic.com", "http:// or https://"),
        bad("OPENAI_BASE_URL", "ftp://files.example/v1", "http:// or https://"),
        bad("GEMINI_BASE_URL", "http://exa mple", "not a URL"),
        bad("CANVAS_AGENT_MODEL_RETRIES", "11", "between 0 and 10"),
        bad("CANVAS_AGENT_MODEL_IDLE_TIMEOUT_MS", "10", "between 1000 and 600000"),
        bad("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "-1", "between 0 and 10000"),
        bad("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "10001", "between 0 and 10000"),
        bad("CANVAS_AGENT_FAKE_TOKEN_DELAY_MS", "fast", "integer"),
        bad("CANVAS_STEWARD_DEBUG", "maybe", "true or false"),
        bad("CANVAS_AGENT_UNIFIED", "false", "only true"),
        bad("NEXT_PUBLIC_CANVAS_AGENT_CLIENT_ENABLED", "true", "only false"),
        bad("CANVAS_QUEUE_DIRECT_FALLBACK", "true", "only false"),
        bad("CANVAS_AGENT_RUN_HEARTBEAT_MS", "50", "between 100 and 60000"),
        bad("CANVAS_AGENT_LEASE_TTL_MS", "10", "between 100 and 600000"),
        bad("CANVAS_AGENT_JWT_MAX_LIFETIME_SECONDS", "31622401", "between 60 and 31622400"),
        bad("CANVAS_AGENT_DOC_AGENT_MAX_STEPS", "0", "between 1 and 100"),
        bad(
            "CANVAS_AGENT_RUN_INTERRUPTED_AFTER_MS",
            "9000",
            "at least twice durability.heartbeatMs (5000)"),
        bad("CANVAS_AGENT_HEAD_TIMEOUT_MS", "99", "between 100 and 300000"),
        bad("CANVAS_AGENT_BODY_TIMEOUT_MS", "30s", "integer"),
        bad("CANVAS_AGENT_BODY_TIMEOUT_MS", "0", "between 100 and 3600000"),
        bad(
            "CANVAS_AGENT_IDLE_TIMEOUT_MS",
            "60000",
            "more than documents.agentTimeoutMs + 5000 (125000)"),
        bad(
            "CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS",
            "16",
            "at least limits.connectionsPerAddress (32)"),
        bad("CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS", "0", "between 1 and 100000"));
  }

  @Test
  void theIdleTimeoutMustOutlastTwoHeartbeats() {
    String message =
        refused(
                Map.of(
                    "CANVAS_AGENT_SSE_HEARTBEAT_MS",
                    "100000",
                    "CANVAS_AGENT_IDLE_TIMEOUT_MS",
                    "150000"))
            .getMessage();
    assertTrue(message.contains("CANVAS_AGENT_IDLE_TIMEOUT_MS = '150000'"), message);
    assertTrue(message.contains("at least twice http.sseHeartbeatMs (100000)"), message);
  }

  @Test
  void theIdleTimeoutFollowsAShorterDocumentAgentTimeout() {
    AppConfig config =
        load(
            Map.of(
                "CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS",
                "1000",
                "CANVAS_AGENT_IDLE_TIMEOUT_MS",
                "6001",
                "CANVAS_AGENT_SSE_HEARTBEAT_MS",
                "1000"));
    assertEquals(6_001, config.http().idleTimeoutMs());
    String message =
        refused(
                Map.of(
                    "CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS",
                    "1000",
                    "CANVAS_AGENT_IDLE_TIMEOUT_MS",
                    "6000",
                    "CANVAS_AGENT_SSE_HEARTBEAT_MS",
                    "1000"))
            .getMessage();
    assertTrue(message.contains("more than documents.agentTimeoutMs + 5000 (6000)"), message);
  }

  static Arguments bad(String variable, String value, String why) {
    return Arguments.of(variable, value, why);
  }

  @ParameterizedTest(name = "{0}={1}")
  @MethodSource("badValues")
  void aBadEnvironmentValueIsRefusedNamingTheVariableAndTheValue(
      String variable, String value, String why) {
    String message = refused(Map.of(variable, value)).getMessage();

    assertTrue(message.contains(variable), message);
    assertTrue(message.contains("'" + value + "'"), message);
    assertTrue(message.contains(why), message);
  }

  @Test
  void theProvidersDefaultToTheirPublicEndpointsWithNoKeys() {
    AppConfig.Providers providers = load(Map.of()).providers();

    assertEquals(
        new AppConfig.Endpoint("https://api.anthropic.com", ""), providers.endpoint("anthropic"));
    assertEquals(
        new AppConfig.Endpoint("https://api.openai.com/v1", ""), providers.endpoint("openai"));
    assertEquals(
        new AppConfig.Endpoint("https://generativelanguage.googleapis.com", ""),
        providers.endpoint("gemini"));
    assertEquals(
        new AppConfig.Endpoint("", ""),
        providers.endpoint("openaiCompatible"),
        "no default for a local server");
    assertEquals(2, providers.retries());
    assertEquals(10_000, providers.retryMaxDelayMs());
    assertEquals(60_000, providers.idleTimeoutMs());
  }

  @Test
  void apiKeysNeverAppearInTheConfigurationsText() {
    AppConfig config =
        load(
            Map.of(
                "ANTHROPIC_API_KEY",
                "sk-ant-hunter2",
                "OPENAI_API_KEY",
                "sk-hunter3",
                "GEMINI_API_KEY",
                "AIza-hunter4",
                "OPENAI_COMPATIBLE_API_KEY",
                "hunter5"));

    String text = config.toString();
    for (String secret : List.of("hunter2", "hunter3", "hunter4", "hunter5")) {
      assertFalse(text.contains(secret), text);
    }
    assertTrue(text.contains("<redacted>"), text);
  }

  @Test
  void aBadApiKeyIsRefusedWithoutShowingIt() {
    String message = refused(Map.of("ANTHROPIC_API_KEY", "sk-ant hunter2")).getMessage();

    assertTrue(message.contains("ANTHROPIC_API_KEY"), message);
    assertTrue(message.contains("<redacted>"), message);
    assertFalse(message.contains("hunter2"), message);
  }

  // A blob that does not parse, or a key the file does not have, may hold a secret (a password
  // under a misspelled key): those refusals name the variable and the path but never echo the
  // value.

  @Test
  void aBlobThatIsNotJsonIsRefused() {
    String message = refused(Map.of(BLOB, "{screenshot: fast")).getMessage();

    assertTrue(message.contains(BLOB + " is not a JSON object"), message);
  }

  @Test
  void aBlobThatIsAJsonArrayIsRefused() {
    String message = refused(Map.of(BLOB, "[1, 2]")).getMessage();

    assertTrue(message.contains(BLOB + " is not a JSON object"), message);
  }

  @Test
  void aBrokenBlobIsRefusedWithoutShowingWhatItHolds() {
    String message = refused(Map.of(BLOB, "{\"database\":{\"password\":\"hunter2\"")).getMessage();

    assertTrue(message.contains(BLOB), message);
    assertFalse(message.contains("hunter2"), message);
  }

  /** The parser quotes the text it stops at: a secret written without quotes must not be in the message. */
  @Test
  void aBlobWithAnUnquotedSecretIsRefusedWithoutShowingIt() {
    String message =
        refused(Map.of(BLOB, "{\"auth\":{\"jwtSecret\": hunter2hunter2hunter2hunter2hunter2}}"))
            .getMessage();

    assertTrue(
        message.contains(BLOB + " is not a JSON object (it stops making sense at line 1, column"),
        message);
    assertFalse(message.contains("hunter2"), message);
  }

  /** Credentials or a key in a provider's base URL are refused, and left out of the message. */
  @Test
  void aBaseUrlWithCredentialsOrAQueryIsRefusedWithoutShowingThem() {
    String credentials =
        refused(Map.of("OPENAI_BASE_URL", "https://user:sk-hunter2@api.example.com/v1"))
            .getMessage();
    String query =
        refused(
                Map.of(
                    "GEMINI_BASE_URL", "https://generativelanguage.example.com/v1beta?key=hunter2"))
            .getMessage();

    assertTrue(
        credentials.contains("OPENAI_BASE_URL = 'https://<redacted>@api.example.com/v1'"),
        credentials);
    assertTrue(
        query.contains(
            "GEMINI_BASE_URL = 'https://generativelanguage.example.com/v1beta?<redacted>'"),
        query);
    assertTrue(query.contains("no query"), query);
    assertFalse(
        credentials.contains("hunter2") || query.contains("hunter2"), credentials + " / " + query);
  }

  @Test
  void aBlobWithAnUnknownKeyIsRefusedNamingThePath() {
    String message = refused(Map.of(BLOB, "{\"screenshot\":{\"timeoutSeconds\":5}}")).getMessage();

    assertTrue(message.contains(BLOB), message);
    assertTrue(message.contains("'screenshot.timeoutSeconds'"), message);
  }

  @Test
  void aPartBudgetIsSetThroughTheBlobAndAnUnknownPartIsRefused() {
    AppConfig config = load(Map.of(BLOB, "{\"context\":{\"budgets\":{\"blurryShapes\":1024}}}"));
    assertEquals(1024, config.context().budgets().get("blurryShapes"));
    assertEquals(
        8192, config.context().budgets().get("chat"), "the other budgets keep their defaults");

    String unknown =
        refused(Map.of(BLOB, "{\"context\":{\"budgets\":{\"blurry\":1024}}}")).getMessage();
    assertTrue(unknown.contains("'context.budgets.blurry'"), unknown);
    String negative =
        refused(Map.of(BLOB, "{\"context\":{\"budgets\":{\"chat\":-1}}}")).getMessage();
    assertTrue(negative.contains("context.budgets.chat"), negative);
  }

  @Test
  void aBlobWithAMisspelledSecretKeyIsRefusedWithoutShowingTheSecret() {
    String message = refused(Map.of(BLOB, "{\"database\":{\"pasword\":\"hunter2\"}}")).getMessage();

    assertTrue(message.contains("'database.pasword'"), message);
    assertFalse(message.contains("hunter2"), message);
  }

  @Test
  void aBlobWithAnUnknownSectionIsRefused() {
    String message = refused(Map.of(BLOB, "{\"telemetry\":{\"enabled\":true}}")).getMessage();

    assertTrue(message.contains("'telemetry'"), message);
  }

  @Test
  void aBlobValueOfTheWrongTypeIsRefusedNamingThePathAndTheValue() {
    String message =
        refused(Map.of(BLOB, "{\"screenshot\":{\"timeoutMs\":\"soon\"}}")).getMessage();

    assertTrue(message.contains(BLOB + " screenshot.timeoutMs"), message);
    assertTrue(message.contains("'soon'"), message);
  }

  @Test
  void aBlobBooleanWhereANumberBelongsIsRefused() {
    String message = refused(Map.of(BLOB, "{\"followups\":{\"maxFollowups\":true}}")).getMessage();

    assertTrue(message.contains(BLOB + " followups.maxFollowups"), message);
    assertTrue(message.contains("true"), message);
  }

  // The database

  @Test
  void databaseUrlIsParsedIntoItsParts() {
    DatabaseConfig database =
        database(Map.of("DATABASE_URL", "postgresql://u:secret@db.example:5433/app"));

    assertEquals("db.example", database.host());
    assertEquals(5433, database.port());
    assertEquals("app", database.database());
    assertEquals("u", database.user());
    assertEquals("secret", database.password());
    assertEquals("public", database.schema());
  }

  @Test
  void aDatabaseUrlOfAnotherDatabaseIsRefusedWithoutShowingThePassword() {
    ConfigException refused =
        refused(Map.of("DATABASE_URL", "mysql://u:secret@db.example:3306/app"));

    assertTrue(refused.getMessage().contains("DATABASE_URL"), refused.getMessage());
    assertFalse(refused.getMessage().contains("secret"), refused.getMessage());
  }

  @Test
  void anUnparsablePostgresUrlIsRefusedWithoutShowingThePassword() {
    ConfigException refused =
        refused(Map.of("DATABASE_URL", "postgresql://u:secret@db.example:port/app"));

    assertTrue(refused.getMessage().contains("DATABASE_URL"), refused.getMessage());
    assertFalse(refused.getMessage().contains("secret"), refused.getMessage());
  }

  @Test
  void pgHostEnablesTheDatabaseWithThePgVariables() {
    DatabaseConfig database =
        database(
            Map.of(
                "PGHOST", "pg.example",
                "PGPORT", "6543",
                "PGDATABASE", "canvas",
                "PGUSER", "svc",
                "PGPASSWORD", "pw"));

    assertEquals(
        new DatabaseConfig("pg.example", 6543, "canvas", "svc", "pw", "public", 8, 64), database);
  }

  @Test
  void pgHostAloneUsesThePostgresDefaults() {
    assertEquals(
        new DatabaseConfig("pg.example", 5432, "postgres", "postgres", "", "public", 8, 64),
        database(Map.of("PGHOST", "pg.example")));
  }

  @Test
  void disablePromptCacheOneMeansTrue() {
    assertTrue(
        load(Map.of("CANVAS_AGENT_DISABLE_PROMPT_CACHE", "1")).model().promptCacheDisabled());
  }

  @Test
  void aSchemaNameThatIsNotALowerCaseIdentifierIsRefused() {
    String message = refused(Map.of("CANVAS_AGENT_DB_SCHEMA", "Bad-Name")).getMessage();

    assertTrue(message.contains("CANVAS_AGENT_DB_SCHEMA"), message);
    assertTrue(message.contains("'Bad-Name'"), message);
  }

  @Test
  void aSecretOfTheWrongTypeInTheBlobIsRefusedWithoutShowingIt() {
    String message = refused(Map.of(BLOB, "{\"database\":{\"password\":12345678}}")).getMessage();

    assertTrue(message.contains(BLOB + " database.password"), message);
    assertFalse(message.contains("12345678"), message);
  }

  @Test
  void aBadPgPortIsRefusedEvenWithoutADatabase() {
    String message = refused(Map.of("PGPORT", "abc")).getMessage();

    assertTrue(message.contains("PGPORT = 'abc'"), message);
  }

  @Test
  void aBadPoolSizeIsRefusedEvenWithoutADatabase() {
    String message = refused(Map.of("CANVAS_AGENT_DB_POOL_SIZE", "0")).getMessage();

    assertTrue(message.contains("CANVAS_AGENT_DB_POOL_SIZE = '0'"), message);
  }

  @Test
  void aSchemaNameThatIsNotALowerCaseIdentifierIsRefusedWithADatabase() {
    String message =
        refused(Map.of("PGHOST", "pg.example", "CANVAS_AGENT_DB_SCHEMA", "Bad-Name")).getMessage();

    assertTrue(message.contains("CANVAS_AGENT_DB_SCHEMA"), message);
    assertTrue(message.contains("'Bad-Name'"), message);
  }

  // The declarations

  @Test
  void environmentVariablesAreDistinctAndSetDistinctPaths() {
    List<Setting> keys =
        Settings.ALL.stream().filter(setting -> setting.variable().isPresent()).toList();
    assertEquals(keys.size(), keys.stream().map(Setting::variable).distinct().count());
    assertEquals(keys.size(), keys.stream().map(Setting::path).distinct().count());
  }

  @Test
  void loadingDoesNotChangeTheEnvironmentMapItIsGiven() {
    Map<String, String> environment = new HashMap<>(Map.of("PORT", "9090"));
    load(environment);
    assertEquals(Map.of("PORT", "9090"), environment);
    assertNotNull(assertInstanceOf(AppConfig.class, load(environment)));
  }
}
