package dev.canvasagent.config;

/** A configuration value the server will not start with; the message names the key and the value. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}
