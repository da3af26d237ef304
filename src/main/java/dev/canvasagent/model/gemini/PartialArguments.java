package dev.canvasagent.model.gemini;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of a Vertex call streamed as {@code partialArgs}: each entry sets the value at a
 * {@code jsonPath} ({@code $.props.text}, {@code $.ids[0]}, {@code $['a key']}); string pieces for
 * one path are joined until an entry without {@code willContinue} closes that string.
 */
final class PartialArguments {
  private final JsonObject root = new JsonObject();
  private String continuingPath;

  /**
   * Applies one {@code partialArgs} entry.
   *
   * @throws IllegalArgumentException when the entry has no usable path
   */
  void apply(JsonObject entry) {
    String path = entry.getValue("jsonPath") instanceof String p ? p : null;
    if (path == null) {
      throw new IllegalArgumentException("a partialArgs entry has no jsonPath");
    }
    List<Object> steps = parse(path);
    boolean willContinue = Boolean.TRUE.equals(entry.getValue("willContinue"));
    Object value;
    if (entry.getValue("stringValue") instanceof String piece) {
      Object current = path.equals(continuingPath) ? get(steps) : null;
      value = current instanceof String head ? head + piece : piece;
    } else if (entry.getValue("numberValue") instanceof Number number) {
      value = number;
    } else if (entry.getValue("boolValue") instanceof Boolean bool) {
      value = bool;
    } else if (entry.containsKey("nullValue")) {
      value = null;
    } else {
      // an entry that only says whether the string at its path goes on
      continuingPath = willContinue ? path : null;
      return;
    }
    set(steps, value);
    continuingPath = willContinue ? path : null;
  }

  JsonObject toJson() {
    return root;
  }

  private static List<Object> parse(String path) {
    if (!path.startsWith("$")) {
      throw new IllegalArgumentException("jsonPath does not start at $: " + path);
    }
    List<Object> steps = new ArrayList<>();
    int at = 1;
    while (at < path.length()) {
      char c = path.charAt(at);
      if (c == '.') {
        int end = at + 1;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        steps.add(path.substring(at + 1, end));
        at = end;
      } else if (c == '[') {
        int close = path.indexOf(']', at);
        if (close < 0) {
          throw new IllegalArgumentException("unclosed [ in jsonPath " + path);
        }
        String inside = path.substring(at + 1, close);
        if (inside.length() >= 2
            && (inside.startsWith("'") && inside.endsWith("'")
                || inside.startsWith("\"") && inside.endsWith("\""))) {
          steps.add(inside.substring(1, inside.length() - 1));
        } else {
          try {
            steps.add(Integer.parseInt(inside));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad index in jsonPath " + path);
          }
        }
        at = close + 1;
      } else {
        throw new IllegalArgumentException("unexpected '" + c + "' in jsonPath " + path);
      }
    }
    if (steps.isEmpty() || !(steps.get(0) instanceof String)) {
      throw new IllegalArgumentException("jsonPath does not name an argument: " + path);
    }
    return steps;
  }

  private Object get(List<Object> steps) {
    Object current = root;
    for (Object step : steps) {
      if (step instanceof String key && current instanceof JsonObject object) {
        current = object.getValue(key);
      } else if (step instanceof Integer index
          && current instanceof JsonArray array
          && index < array.size()) {
        current = array.getValue(index);
      } else {
        return null;
      }
    }
    return current;
  }

  private void set(List<Object> steps, Object value) {
    Object container = root;
    for (int i = 0; i < steps.size(); i++) {
      Object step = steps.get(i);
      boolean last = i == steps.size() - 1;
      Object next = last ? null : steps.get(i + 1);
      if (step instanceof String key) {
        if (!(container instanceof JsonObject object)) {
          throw new IllegalArgumentException("jsonPath names a key inside a non-object");
        }
        if (last) {
          object.put(key, value);
          return;
        }
        container = childOf(object.getValue(key), next, child -> object.put(key, child));
      } else {
        int index = (Integer) step;
        if (!(container instanceof JsonArray array) || index < 0 || index > 10_000) {
          throw new IllegalArgumentException("jsonPath names an index outside an array");
        }
        while (array.size() <= index) {
          array.addNull();
        }
        if (last) {
          array.set(index, value);
          return;
        }
        container = childOf(array.getValue(index), next, child -> array.set(index, child));
      }
    }
  }

  private static Object childOf(
      Object existing, Object nextStep, java.util.function.Consumer<Object> attach) {
    if (nextStep instanceof String && existing instanceof JsonObject) {
      return existing;
    }
    if (nextStep instanceof Integer && existing instanceof JsonArray) {
      return existing;
    }
    Object child = nextStep instanceof String ? new JsonObject() : new JsonArray();
    attach.accept(child);
    return child;
  }
}
