package dev.canvasagent.config;

import java.util.Optional;

/**
 * One setting, declared once: its path in {@code conf/config.json} (where its default is), the
 * environment variable that sets it (none: only the file or {@code CANVAS_AGENT_CONFIG} can), how its
 * value is checked, whether it is secret, and what it means (the "Meaning" of the configuration
 * table). The loader reads and checks it, error messages redact it and {@link ConfigurationTable}
 * documents it, all from this one declaration.
 */
record Setting(
    String path, Optional<String> variable, Check check, boolean secret, String meaning) {

  static Setting of(String path, String variable, Check check, String meaning) {
    return new Setting(path, Optional.of(variable), check, false, meaning);
  }

  /** Never shown: not in an error message, and not in the configuration's text. */
  static Setting secret(String path, String variable, Check check, String meaning) {
    return new Setting(path, Optional.of(variable), check, true, meaning);
  }

  /** Set only in {@code conf/config.json} or {@code CANVAS_AGENT_CONFIG}. */
  static Setting noVariable(String path, Check check, String meaning) {
    return new Setting(path, Optional.empty(), check, false, meaning);
  }
}
