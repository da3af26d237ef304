package dev.canvasagent.board;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * One check of one JSON value, built like tldraw's own validators ({@code T.string}, {@code
 * T.nonZeroNumber}, {@code T.object}, ...) so that the record rules below read like tldraw's schema.
 * A check answers the first problem it finds, or null. An absent member is {@link #MISSING}, which is
 * not {@code null}: tldraw tells {@code undefined} (optional) from {@code null} (nullable).
 */
@FunctionalInterface
interface JsonCheck {
  Object MISSING =
      new Object() {
        @Override
        public String toString() {
          return "nothing";
        }
      };

  int SHOWN_VALUE_LENGTH = 40;

  FieldProblem check(Object value);

  /** Where below the checked value the problem is ({@code ""} for the value itself), and what it is. */
  record FieldProblem(String path, String message) {
    static FieldProblem of(String message) {
      return new FieldProblem("", message);
    }

    FieldProblem under(String key) {
      return new FieldProblem(path.isEmpty() ? key : key + "." + path, message);
    }
  }

  static Object member(JsonObject object, String key) {
    return object.containsKey(key) ? object.getValue(key) : MISSING;
  }

  /** Then {@code next}, once this check has passed. */
  default JsonCheck and(JsonCheck next) {
    return value -> {
      FieldProblem problem = check(value);
      return problem != null ? problem : next.check(value);
    };
  }

  default JsonCheck nullable() {
    return value -> value == null ? null : check(value);
  }

  default JsonCheck optional() {
    return value -> value == MISSING ? null : check(value);
  }

  static JsonCheck anything() {
    return value -> null;
  }

  static JsonCheck string() {
    return value -> value instanceof String ? null : expected("a string", value);
  }

  static JsonCheck bool() {
    return value -> value instanceof Boolean ? null : expected("a boolean", value);
  }

  static JsonCheck jsonObject() {
    return value -> value instanceof JsonObject ? null : expected("an object", value);
  }

  /** A finite number ({@code T.number}). */
  static JsonCheck number() {
    return finiteNumberWhere(n -> true, "a finite number");
  }

  /** {@code T.positiveNumber}: zero included. */
  static JsonCheck positiveNumber() {
    return finiteNumberWhere(n -> n >= 0, "a number >= 0");
  }

  /** {@code T.nonZeroNumber}: greater than zero. */
  static JsonCheck nonZeroNumber() {
    return finiteNumberWhere(n -> n > 0, "a number > 0");
  }

  static JsonCheck nonZeroFiniteNumber() {
    return finiteNumberWhere(n -> n != 0, "a non-zero finite number");
  }

  static JsonCheck unitInterval() {
    return finiteNumberWhere(n -> n >= 0 && n <= 1, "a number from 0 to 1");
  }

  private static JsonCheck finiteNumberWhere(Predicate<Double> holds, String description) {
    return value -> {
      if (value instanceof Number number) {
        double n = number.doubleValue();
        if (Double.isFinite(n) && holds.test(n)) {
          return null;
        }
      }
      return expected(description, value);
    };
  }

  static JsonCheck oneOf(Collection<String> values) {
    String listed = new TreeSet<>(values).toString();
    return value ->
        value instanceof String && values.contains(value)
            ? null
            : expected("one of " + listed, value);
  }

  static JsonCheck literal(String expected) {
    return value -> expected.equals(value) ? null : expected("\"" + expected + "\"", value);
  }

  /**
   * A record id: a string starting with one of {@code prefixes}, as tldraw asks, and, stricter than
   * tldraw, without control characters or line separators. tldraw's own ids never hold them, and an
   * id that ends in a newline reads like another record's in every list and log that shows it.
   */
  static JsonCheck recordId(String... prefixes) {
    JsonCheck prefixed = startingWith(prefixes);
    // Control characters and the line and paragraph separators: what splits a log line or hides in
    // an id.
    java.util.regex.Pattern unprintable =
        java.util.regex.Pattern.compile("[\\p{Cc}\\p{Zl}\\p{Zp}]");
    return value -> {
      FieldProblem problem = prefixed.check(value);
      if (problem == null && unprintable.matcher((String) value).find()) {
        return FieldProblem.of("an id may not hold control characters or line separators");
      }
      return problem;
    };
  }

  static JsonCheck startingWith(String... prefixes) {
    return value -> {
      if (value instanceof String text) {
        for (String prefix : prefixes) {
          if (text.startsWith(prefix)) {
            return null;
          }
        }
      }
      return expected("a string starting with " + String.join(" or ", prefixes), value);
    };
  }

  static JsonCheck arrayOf(JsonCheck item) {
    return value -> {
      if (!(value instanceof JsonArray array)) {
        return expected("an array", value);
      }
      for (int i = 0; i < array.size(); i++) {
        FieldProblem problem = item.check(array.getValue(i));
        if (problem != null) {
          return problem.under(String.valueOf(i));
        }
      }
      return null;
    };
  }

  /** {@code T.dict(T.string, entry)}: an object whose every member passes {@code entry}. */
  static JsonCheck dictOf(JsonCheck entry) {
    return value -> {
      if (!(value instanceof JsonObject object)) {
        return expected("an object", value);
      }
      for (String key : object.fieldNames()) {
        FieldProblem problem = entry.check(object.getValue(key));
        if (problem != null) {
          return problem.under(key);
        }
      }
      return null;
    };
  }

  /** {@code T.object}: strict, every listed member checked in order, no other member allowed. */
  static Strict object() {
    return new Strict(new LinkedHashMap<>());
  }

  /** A strict object check, built member by member. */
  final class Strict implements JsonCheck {
    private final Map<String, JsonCheck> members;

    private Strict(Map<String, JsonCheck> members) {
      this.members = members;
    }

    Strict with(String key, JsonCheck check) {
      Map<String, JsonCheck> more = new LinkedHashMap<>(members);
      more.put(key, check);
      return new Strict(more);
    }

    @Override
    public FieldProblem check(Object value) {
      if (!(value instanceof JsonObject object)) {
        return expected("an object", value);
      }
      for (Map.Entry<String, JsonCheck> member : members.entrySet()) {
        FieldProblem problem = member.getValue().check(member(object, member.getKey()));
        if (problem != null) {
          return problem.under(member.getKey());
        }
      }
      for (String key : object.fieldNames()) {
        if (!members.containsKey(key)) {
          return FieldProblem.of("unexpected property").under(key);
        }
      }
      return null;
    }
  }

  static FieldProblem expected(String what, Object got) {
    return FieldProblem.of("expected " + what + ", got " + shown(got));
  }

  /** A value as an error message shows it: strings quoted and cut short, containers by kind only. */
  static String shown(Object value) {
    if (value instanceof String text) {
      String shown =
          text.length() <= SHOWN_VALUE_LENGTH ? text : text.substring(0, SHOWN_VALUE_LENGTH) + "…";
      String quoted = new JsonArray().add(shown).encode();
      return quoted.substring(1, quoted.length() - 1);
    }
    if (value instanceof JsonObject) {
      return "an object";
    }
    if (value instanceof JsonArray) {
      return "an array";
    }
    return String.valueOf(value);
  }
}
