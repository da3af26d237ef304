package dev.canvasagent.config;

import java.util.List;
import java.util.stream.Stream;

/** Every setting the server reads, section by section (the order of {@link ConfigurationTable#rows()}). */
final class Settings {
  static final List<Setting> ALL =
      Stream.of(
              HttpSettings.ALL,
              AuthSettings.ALL,
              LimitsSettings.ALL,
              BridgeSettings.ALL,
              ModelSettings.ALL,
              ProviderSettings.ALL,
              ScreenshotSettings.ALL,
              FollowupSettings.ALL,
              SloSettings.ALL,
              ContextSettings.ALL,
              RunnerSettings.ALL,
              SchedulerSettings.ALL,
              DocumentSettings.ALL,
              AssetSettings.ALL,
              McpSettings.ALL,
              BoardCacheSettings.ALL,
              DurabilitySettings.ALL,
              MemorySettings.ALL,
              HeapSettings.ALL,
              FlagSettings.ALL,
              DatabaseSettings.ALL,
              ClusterSettings.ALL,
              LogSettings.ALL)
          .flatMap(List::stream)
          .toList();

  private Settings() {}
}
