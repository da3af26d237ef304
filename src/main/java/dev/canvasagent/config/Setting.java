package dev.canvasagent.config;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One setting, declared once: its path (where {@code CANVAS_AGENT_CONFIG} sets it), the environment
 * variable that sets it (none: only {@code CANVAS_AGENT_CONFIG} can), how its value is checked, its
 * default, whether it is secret, and what it means (the "Meaning" of the configuration table). The
 * loader starts from the defaults, reads and checks the overrides, error messages redact it and
 * {@link ConfigurationTable} documents it, all from this one declaration.
 *
 * <p>The default is a JSON value as {@code CANVAS_AGENT_CONFIG} would give it: a number, a string
 * ({@code ""} for empty), a boolean, or for {@link Check.Parts} an object of named integers. Each
 * factory checks it with the setting's own {@link Check}, so a default the check refuses fails when
 * its class loads: at startup, and in every test.
 */
record Setting(
    String path,
    Optional<String> variable,
    Check check,
    Object defaultValue,
    boolean secret,
    String meaning) {

  Setting {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(defaultValue, path + ": a default");
    if (check instanceof Check.Parts && variable.isPresent()) {
      // An environment variable holds a string, and the parts are an object.
      throw new IllegalArgumentException(
          path + ": named parts are set only in CANVAS_AGENT_CONFIG");
    }
  }

  static Setting of(
      String path, String variable, Check check, Object defaultValue, String meaning) {
    return new Setting(path, Optional.of(variable), check, defaultValue, false, meaning).checked();
  }

  /** Never shown: not in an error message, and not in the configuration's text. */
  static Setting secret(
      String path, String variable, Check check, Object defaultValue, String meaning) {
    return new Setting(path, Optional.of(variable), check, defaultValue, true, meaning).checked();
  }

  /** Set only in {@code CANVAS_AGENT_CONFIG}. */
  static Setting noVariable(String path, Check check, Object defaultValue, String meaning) {
    return new Setting(path, Optional.empty(), check, defaultValue, false, meaning).checked();
  }

  /**
   * The default, as the loader starts from it: an object default is copied, so that no load can change
   * the declaration's.
   */
  Object initialValue() {
    return defaultValue instanceof JsonObject object ? object.copy() : defaultValue;
  }

  /** This setting, once its check has accepted its default; else the {@link ConfigException} that says why. */
  private Setting checked() {
    ConfigValues.load(List.of(this), Map.of()).read(this);
    return this;
  }
}
