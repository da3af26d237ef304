package dev.canvasagent.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The values of one load, each with where it came from: the declared settings' defaults, then each
 * one's environment variable, then {@code CANVAS_AGENT_CONFIG} over both. Reading a value through its
 * {@link Setting} checks it; a bad one becomes a {@link ConfigException} that names its source, and
 * shows the value unless the setting is secret.
 */
final class ConfigValues {
  private final JsonObject values;
  private final Map<String, String> sources = new HashMap<>();
  private final Map<String, Setting> settings;
  private final Set<String> read = new HashSet<>();

  /** Where a message says a default came from: {@code default http.port}. */
  static final String DEFAULT_SOURCE = "default";

  private ConfigValues(List<Setting> settings) {
    this.values = defaults(settings);
    this.settings = settings.stream().collect(Collectors.toMap(Setting::path, Function.identity()));
    leafPaths(values, "").forEach(path -> sources.put(path, DEFAULT_SOURCE + " " + path));
  }

  /** The defaults of {@code settings} with what {@code environment} sets over them. */
  static ConfigValues load(List<Setting> settings, Map<String, String> environment) {
    ConfigValues loaded = new ConfigValues(settings);
    for (Setting setting : settings) {
      setting
          .variable()
          .ifPresent(
              variable -> {
                String value = environment.get(variable);
                if (value != null) {
                  loaded.set(setting.path(), value, variable);
                }
              });
    }
    String blob = environment.get(ConfigLoader.BLOB_VARIABLE);
    if (blob != null && !blob.isBlank()) {
      loaded.overlay(parseBlob(blob), "");
    }
    return loaded;
  }

  Object read(Setting setting) {
    read.add(setting.path());
    return setting.check().read(this, setting.path());
  }

  int whole(Setting setting) {
    return (Integer) read(setting);
  }

  OptionalInt optionalWhole(Setting setting) {
    return (OptionalInt) read(setting);
  }

  boolean flag(Setting setting) {
    return (Boolean) read(setting);
  }

  String text(Setting setting) {
    return (String) read(setting);
  }

  @SuppressWarnings("unchecked")
  List<String> list(Setting setting) {
    return (List<String>) read(setting);
  }

  @SuppressWarnings("unchecked")
  Map<String, Integer> parts(Setting setting) {
    return (Map<String, Integer>) read(setting);
  }

  /** The declared settings no section has read: their values would go unchecked. */
  List<String> unread() {
    return settings.keySet().stream().filter(path -> !read.contains(path)).sorted().toList();
  }

  ConfigException bad(Setting setting, String problem) {
    return bad(setting.path(), problem);
  }

  ConfigException bad(String path, String problem) {
    Setting setting = settings.get(path);
    Object value = setting != null && setting.secret() ? "<redacted>" : lookup(path);
    if (setting != null
        && setting.check() instanceof Check.BaseUrl
        && value instanceof String url) {
      value = withoutSecrets(url);
    }
    String shown = value instanceof String ? "'" + value + "'" : String.valueOf(value);
    return new ConfigException(
        "bad configuration: " + sources.get(path) + " = " + shown + ": " + problem);
  }

  /** A URL as an error message may show it: its credentials and its query (where some providers take the key) left out. */
  static String withoutSecrets(String url) {
    return url.replaceFirst("(?<=//)[^/?#]*@", "<redacted>@").replaceFirst("[?#].*", "?<redacted>");
  }

  Object lookup(String path) {
    Object current = values;
    for (String part : path.split("\\.")) {
      if (!(current instanceof JsonObject object)) {
        return null;
      }
      current = object.getValue(part);
    }
    return current;
  }

  private static JsonObject parseBlob(String blob) {
    try {
      return new JsonObject(blob);
    } catch (DecodeException | ClassCastException e) {
      // Not the parser's message: it quotes the text it stopped at, which may be a secret written
      // without quotes.
      String where =
          e.getCause() instanceof JsonProcessingException parse && parse.getLocation() != null
              ? " (it stops making sense at line "
                  + parse.getLocation().getLineNr()
                  + ", column "
                  + parse.getLocation().getColumnNr()
                  + ")"
              : "";
      throw new ConfigException(ConfigLoader.BLOB_VARIABLE + " is not a JSON object" + where);
    }
  }

  private void overlay(JsonObject blob, String prefix) {
    for (String key : blob.fieldNames()) {
      String path = prefix.isEmpty() ? key : prefix + "." + key;
      Object value = blob.getValue(key);
      if (value instanceof JsonObject nested && lookup(path) instanceof JsonObject) {
        overlay(nested, path);
      } else if (!sources.containsKey(path)) {
        throw new ConfigException(
            ConfigLoader.BLOB_VARIABLE + " has an unknown key '" + path + "'");
      } else {
        set(path, value, ConfigLoader.BLOB_VARIABLE + " " + path);
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

  /**
   * The defaults of {@code settings} as one JSON object shaped like {@code CANVAS_AGENT_CONFIG}: each
   * default at its setting's path. Two settings at one path, or one inside another's value, are a
   * mistake in the declarations.
   */
  static JsonObject defaults(List<Setting> settings) {
    Set<String> paths = new HashSet<>();
    for (Setting setting : settings) {
      if (!paths.add(setting.path())) {
        throw new IllegalStateException(setting.path() + " is declared twice");
      }
    }
    JsonObject defaults = new JsonObject();
    for (Setting setting : settings) {
      String[] parts = setting.path().split("\\.");
      JsonObject parent = defaults;
      String prefix = "";
      for (int i = 0; i < parts.length - 1; i++) {
        prefix = prefix.isEmpty() ? parts[i] : prefix + "." + parts[i];
        if (paths.contains(prefix)) {
          throw new IllegalStateException(
              setting.path() + " is declared inside the value of " + prefix);
        }
        if (parent.getJsonObject(parts[i]) == null) {
          parent.put(parts[i], new JsonObject());
        }
        parent = parent.getJsonObject(parts[i]);
      }
      parent.put(parts[parts.length - 1], setting.initialValue());
    }
    return defaults;
  }

  /** Where the value at {@code path} came from: {@code default <path>}, a variable, or {@code CANVAS_AGENT_CONFIG <path>}. */
  String source(String path) {
    return sources.get(path);
  }

  /** Every path of {@code object} that holds a value rather than an object. */
  static List<String> leafPaths(JsonObject object, String prefix) {
    return object.fieldNames().stream()
        .flatMap(
            key -> {
              String path = prefix.isEmpty() ? key : prefix + "." + key;
              return object.getValue(key) instanceof JsonObject nested
                  ? leafPaths(nested, path).stream()
                  : Stream.of(path);
            })
        .toList();
  }
}
