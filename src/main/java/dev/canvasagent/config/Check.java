package dev.canvasagent.config;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A setting's type and range (or allowed values): how its value is checked and what it becomes. A
 * value that does not pass stops startup with {@link ConfigValues#bad}, which names where the value
 * came from and shows it unless the setting is secret. Each check also gives a value it accepts and
 * one it refuses, as an environment variable spells them, so that one test can try every variable.
 */
sealed interface Check {
  /** The checked value at {@code path}. */
  Object read(ConfigValues values, String path);

  /** What this check accepts and refuses, as an environment variable spells it. */
  Samples samples();

  /**
   * {@code accepted}, as an environment variable spells it, reads as {@code value}; {@code refused}
   * (null when the check refuses nothing) is refused.
   */
  record Samples(String accepted, Object value, String refused) {
    Optional<String> refusal() {
      return Optional.ofNullable(refused);
    }
  }

  static Check whole(int min, int max) {
    return new Whole(min, max);
  }

  static Check optionalWhole(int min, int max) {
    return new OptionalWhole(min, max);
  }

  static Check flag() {
    return new Flag();
  }

  static Check only(boolean supported, String why) {
    return new Only(supported, why);
  }

  static Check text() {
    return new Text(false);
  }

  static Check textOrEmpty() {
    return new Text(true);
  }

  static Check oneOf(String... allowed) {
    return new OneOf(Set.of(allowed));
  }

  /** A string that {@code regex} matches whole, such as {@code example}; {@code problem} says what it must be. */
  static Check matching(String regex, String example, String problem) {
    return new Matching(Pattern.compile(regex), example, problem);
  }

  static Check origins() {
    return new Origins();
  }

  static Check hostPorts() {
    return new HostPorts();
  }

  static Check baseUrl() {
    return new BaseUrl();
  }

  static Check apiKey() {
    return new ApiKey();
  }

  static Check parts(int min, int max, String describedIn) {
    return new Parts(min, max, describedIn);
  }

  /** An integer from {@code min} to {@code max}: a JSON number without a fraction, or a string of one. */
  record Whole(int min, int max) implements Check {
    @Override
    public Integer read(ConfigValues values, String path) {
      Object value = values.lookup(path);
      long parsed;
      try {
        if (value instanceof Number number
            && number.doubleValue() == Math.rint(number.doubleValue())) {
          parsed = number.longValue();
        } else if (value instanceof String string) {
          parsed = Long.parseLong(string.strip());
        } else {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw values.bad(path, "must be an integer");
      }
      if (parsed < min || parsed > max) {
        throw values.bad(path, "must be between " + min + " and " + max);
      }
      return (int) parsed;
    }

    @Override
    public Samples samples() {
      return new Samples(String.valueOf(max), max, String.valueOf((long) max + 1));
    }
  }

  /** Empty when the value is blank (not set); otherwise a {@link Whole}. */
  record OptionalWhole(int min, int max) implements Check {
    @Override
    public OptionalInt read(ConfigValues values, String path) {
      Object value = values.lookup(path);
      if (value == null || (value instanceof String string && string.isBlank())) {
        return OptionalInt.empty();
      }
      return OptionalInt.of(new Whole(min, max).read(values, path));
    }

    @Override
    public Samples samples() {
      return new Samples(String.valueOf(max), OptionalInt.of(max), String.valueOf((long) max + 1));
    }
  }

  /** A JSON boolean, or its spelling in an environment variable. */
  record Flag() implements Check {
    @Override
    public Boolean read(ConfigValues values, String path) {
      Object value = values.lookup(path);
      if (value instanceof Boolean b) {
        return b;
      }
      if (value instanceof String string) {
        switch (string.strip().toLowerCase(Locale.ROOT)) {
          case "true", "1", "yes", "on":
            return true;
          case "false", "0", "no", "off", "":
            return false;
          default:
            break;
        }
      }
      throw values.bad(path, "must be true or false (1/0, yes/no, on/off)");
    }

    @Override
    public Samples samples() {
      return new Samples("on", true, "maybe");
    }
  }

  /** A retired flag, kept so that old deployments still start: only {@code supported} is accepted. */
  record Only(boolean supported, String why) implements Check {
    @Override
    public Boolean read(ConfigValues values, String path) {
      if (new Flag().read(values, path) != supported) {
        throw values.bad(path, "only " + supported + " is supported: " + why);
      }
      return supported;
    }

    @Override
    public Samples samples() {
      return new Samples(String.valueOf(supported), supported, String.valueOf(!supported));
    }
  }

  /** A string, stripped; blank only when {@code mayBeEmpty}. */
  record Text(boolean mayBeEmpty) implements Check {
    @Override
    public String read(ConfigValues values, String path) {
      Object value = values.lookup(path);
      if (!(value instanceof String string) || (!mayBeEmpty && string.isBlank())) {
        throw values.bad(path, "must be a non-empty string");
      }
      return string.strip();
    }

    @Override
    public Samples samples() {
      return new Samples(" sample ", "sample", mayBeEmpty ? null : " ");
    }
  }

  record OneOf(Set<String> allowed) implements Check {
    @Override
    public String read(ConfigValues values, String path) {
      String value = new Text(false).read(values, path);
      if (!allowed.contains(value)) {
        throw values.bad(path, "must be one of " + allowed.stream().sorted().toList());
      }
      return value;
    }

    @Override
    public Samples samples() {
      String first = allowed.stream().sorted().findFirst().orElseThrow();
      String refused = "not-" + first;
      while (allowed.contains(refused)) {
        refused += "-";
      }
      return new Samples(first, first, refused);
    }
  }

  /**
   * A non-empty string that {@code pattern} matches whole, as it matches {@code example}; {@code
   * problem} says what it must be.
   */
  record Matching(Pattern pattern, String example, String problem) implements Check {
    public Matching {
      if (example.isBlank() || !pattern.matcher(example).matches()) {
        throw new IllegalArgumentException("'" + example + "' does not match " + pattern);
      }
    }

    @Override
    public String read(ConfigValues values, String path) {
      String value = new Text(false).read(values, path);
      if (!pattern.matcher(value).matches()) {
        throw values.bad(path, problem);
      }
      return value;
    }

    @Override
    public Samples samples() {
      return new Samples(example, example, " ");
    }
  }

  /**
   * The origins browsers may call from, besides the server's own: each {@code scheme://host[:port]},
   * comma-separated, lower-cased. A wildcard is refused: with bearer tokens in browsers it would hand
   * any site the page's access.
   */
  record Origins() implements Check {
    private static final Pattern ORIGIN =
        Pattern.compile(
            "https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?");

    @Override
    public List<String> read(ConfigValues values, String path) {
      List<String> origins = new ArrayList<>();
      for (String part : new Text(true).read(values, path).split(",")) {
        String origin = part.strip();
        if (origin.isEmpty()) {
          continue;
        }
        if (!ORIGIN.matcher(origin).matches()) {
          throw values.bad(
              path,
              "'" + origin + "' is not an origin: give scheme://host[:port], no path, no wildcard");
        }
        origins.add(origin.toLowerCase(Locale.ROOT));
      }
      return origins;
    }

    @Override
    public Samples samples() {
      return new Samples(
          "https://App.example.com, http://localhost:5173",
          List.of("https://app.example.com", "http://localhost:5173"),
          "*");
    }
  }

  /**
   * Comma-separated {@code host:port} pairs (an IPv6 address in brackets), or none: where other nodes
   * are. A pair without a port, with a port out of 1–65535, or with anything but a host name or an IP
   * address before it is refused, naming the pair.
   */
  record HostPorts() implements Check {
    private static final Pattern HOST_PORT =
        Pattern.compile(
            "([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\\[[0-9A-Fa-f:.]+\\]):([0-9]{1,5})");

    @Override
    public List<String> read(ConfigValues values, String path) {
      List<String> pairs = new ArrayList<>();
      for (String part : new Text(true).read(values, path).split(",")) {
        String pair = part.strip();
        if (pair.isEmpty()) {
          continue;
        }
        var matched = HOST_PORT.matcher(pair);
        if (!matched.matches()
            || Integer.parseInt(matched.group(2)) < 1
            || Integer.parseInt(matched.group(2)) > 65_535) {
          throw values.bad(
              path, "'" + pair + "' is not host:port (a host name or IP address, a port 1–65535)");
        }
        pairs.add(pair);
      }
      return pairs;
    }

    @Override
    public Samples samples() {
      return new Samples(
          "10.0.0.1:5701, node-b.internal:5701",
          List.of("10.0.0.1:5701", "node-b.internal:5701"),
          "10.0.0.1");
    }
  }

  /**
   * A provider's base URL: an http or https URL with a host, kept without a trailing slash; or empty.
   * Error messages show it without credentials or query ({@link ConfigValues#withoutSecrets}).
   */
  record BaseUrl() implements Check {
    @Override
    public String read(ConfigValues values, String path) {
      String baseUrl = new Text(true).read(values, path);
      if (baseUrl.isEmpty()) {
        return baseUrl;
      }
      URI uri;
      try {
        uri = new URI(baseUrl);
      } catch (URISyntaxException e) {
        throw values.bad(path, "is not a URL");
      }
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null
          || uri.getQuery() != null
          || uri.getFragment() != null
          || uri.getUserInfo() != null) {
        throw values.bad(
            path,
            "must be an http:// or https:// URL with a host, and no query, fragment or credentials");
      }
      while (baseUrl.endsWith("/")) {
        baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
      }
      return baseUrl;
    }

    @Override
    public Samples samples() {
      return new Samples(
          "http://127.0.0.1:9/v1/", "http://127.0.0.1:9/v1", "ftp://files.example/v1");
    }
  }

  /** An API key (or empty): it goes into a header, so printable ASCII without spaces. */
  record ApiKey() implements Check {
    @Override
    public String read(ConfigValues values, String path) {
      String apiKey = new Text(true).read(values, path);
      if (apiKey.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
        throw values.bad(path, "must be printable ASCII without spaces");
      }
      return apiKey;
    }

    @Override
    public Samples samples() {
      return new Samples("sk-sample-1", "sk-sample-1", "sk sample");
    }
  }

  /**
   * An object of named integers, each a {@link Whole}: which names exist is what the setting's default
   * has, and the docs section {@code describedIn} (a Markdown link) lists them with their defaults.
   * An object is not an environment variable's value: such a setting has none, and no samples.
   */
  record Parts(int min, int max, String describedIn) implements Check {
    @Override
    public Map<String, Integer> read(ConfigValues values, String path) {
      if (!(values.lookup(path) instanceof JsonObject object)) {
        throw values.bad(path, "must be an object of named integers");
      }
      Map<String, Integer> parts = new TreeMap<>();
      object
          .fieldNames()
          .forEach(part -> parts.put(part, new Whole(min, max).read(values, path + "." + part)));
      return parts;
    }

    @Override
    public Samples samples() {
      throw new UnsupportedOperationException("named parts are set only in CANVAS_AGENT_CONFIG");
    }
  }
}
