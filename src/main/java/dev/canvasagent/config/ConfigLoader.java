package dev.canvasagent.config;

import java.util.List;
import java.util.Map;

/**
 * Builds the {@link AppConfig}: the defaults of the declared {@link Setting}s, then the environment
 * variable of each, then {@code CANVAS_AGENT_CONFIG} (a JSON blob shaped by the settings' paths) over
 * both. Every value is checked; the first bad one stops startup with its key and value. The settings
 * are declared by section ({@code HttpSettings}, {@code AuthSettings}, …), each with the code that
 * turns its values into its part of the configuration.
 */
public final class ConfigLoader {
  static final String BLOB_VARIABLE = "CANVAS_AGENT_CONFIG";

  private ConfigLoader() {}

  /** The configuration for this process's environment. */
  public static AppConfig fromEnvironment() {
    return load(System.getenv());
  }

  public static AppConfig load(Map<String, String> environment) {
    return build(values(environment));
  }

  /** Every declared setting's value for {@code environment}, not yet checked. */
  static ConfigValues values(Map<String, String> environment) {
    return ConfigValues.load(Settings.ALL, environment);
  }

  /** The sections in the order they have always been checked in, so the same bad value is reported first. */
  private static AppConfig build(ConfigValues values) {
    FlagSettings.checkRetired(values);
    AppConfig config =
        new AppConfig(
            HttpSettings.read(values),
            AuthSettings.read(values),
            LimitsSettings.read(values),
            BridgeSettings.read(values),
            ModelSettings.read(values),
            ProviderSettings.read(values),
            ScreenshotSettings.read(values),
            FollowupSettings.read(values),
            RunnerSettings.read(values),
            SchedulerSettings.read(values),
            DurabilitySettings.read(values),
            ContextSettings.read(values),
            DocumentSettings.read(values),
            BoardCacheSettings.read(values),
            MemorySettings.read(values),
            HeapSettings.read(values),
            values.whole(ContextSettings.SHAPE_STATE_LIMIT),
            values.whole(SloSettings.TTFB_MS),
            values.whole(SloSettings.SCREENSHOT_MS),
            values.whole(SloSettings.APPLY_JITTER_MS),
            values.flag(FlagSettings.THEME_ENABLED),
            DatabaseSettings.read(values),
            ClusterSettings.read(values),
            McpSettings.read(values),
            AssetSettings.read(values));
    ClusterSettings.requireSharedStore(values, config.cluster(), config.database());
    LogSettings.check(values);
    List<String> unread = values.unread();
    if (!unread.isEmpty()) {
      // A declaration its section does not read would go unchecked: a mistake in this package, not
      // in the configuration.
      throw new IllegalStateException("declared settings no section reads: " + unread);
    }
    return config;
  }
}
