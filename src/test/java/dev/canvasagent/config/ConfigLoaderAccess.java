package dev.canvasagent.config;

import java.util.List;

/** The environment variables the loader reads, for tests outside its package. */
public final class ConfigLoaderAccess {
  private ConfigLoaderAccess() {}

  public static List<String> variables() {
    return Settings.ALL.stream().flatMap(setting -> setting.variable().stream()).toList();
  }
}
