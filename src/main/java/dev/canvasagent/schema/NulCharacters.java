package dev.canvasagent.schema;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Optional;

/**
 * The NUL character (U+0000) in JSON from outside: PostgreSQL's {@code text} and {@code jsonb} cannot
 * hold it, so it would surface as a driver error ({@code 503}) instead of a refusal, and no field of
 * ours means anything by it. What a client sends is refused at the edge naming the field's JSON
 * pointer ({@link #firstPointer}); what a model writes is stripped ({@link #stripped}), since a label
 * loses nothing without it.
 */
public final class NulCharacters {
  public static final char NUL = '\u0000';

  /** The refusal's text, after the pointer. */
  public static final String PROBLEM = "may not contain the NUL character (U+0000)";

  private NulCharacters() {}

  /**
   * The JSON pointer ({@code #/put/0/props/text}) of the first string value or member name holding a
   * NUL, or empty. In the pointer, {@code ~} and {@code /} are escaped as RFC 6901 says, and the NUL
   * itself is shown as the six characters {@code \u0000} so the refusal can be read.
   */
  public static Optional<String> firstPointer(Object value) {
    return Optional.ofNullable(find(value, "#"));
  }

  private static String find(Object value, String at) {
    if (value instanceof String text) {
      return text.indexOf(NUL) >= 0 ? at : null;
    }
    if (value instanceof JsonObject object) {
      for (Map.Entry<String, Object> member : object) {
        String here = at + "/" + escape(member.getKey());
        if (member.getKey().indexOf(NUL) >= 0) {
          return here;
        }
        String found = find(member.getValue(), here);
        if (found != null) {
          return found;
        }
      }
    }
    if (value instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        String found = find(array.getValue(i), at + "/" + i);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1").replace(String.valueOf(NUL), "\\u0000");
  }

  /** {@code text} without its NULs; null stays null. */
  public static String stripped(String text) {
    return text == null || text.indexOf(NUL) < 0 ? text : text.replace(String.valueOf(NUL), "");
  }

  /** A copy of {@code object} with every NUL gone from its string values and member names, at any depth. */
  public static JsonObject stripped(JsonObject object) {
    if (object == null) {
      return null;
    }
    JsonObject copy = new JsonObject();
    for (Map.Entry<String, Object> member : object) {
      copy.put(stripped(member.getKey()), strippedValue(member.getValue()));
    }
    return copy;
  }

  private static Object strippedValue(Object value) {
    if (value instanceof String text) {
      return stripped(text);
    }
    if (value instanceof JsonObject object) {
      return stripped(object);
    }
    if (value instanceof JsonArray array) {
      JsonArray copy = new JsonArray();
      array.forEach(element -> copy.add(strippedValue(element)));
      return copy;
    }
    return value;
  }
}
