package dev.canvasagent.runner.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What every partial snapshot must be, measured against the complete value: each scalar it shows is
 * the final one (a number is never half-written), each string is the final one or, unless it is an
 * enum, a beginning of it (never ending in half a surrogate pair), each container holds a beginning
 * of the final one.
 */
final class PartialConsistency {
  private PartialConsistency() {}

  static void assertConsistent(
      String verb, JsonObject snapshot, JsonObject complete, EnumFields enums) {
    object(verb, snapshot, complete, enums, new ArrayList<>());
  }

  private static void object(
      String verb, JsonObject snapshot, JsonObject complete, EnumFields enums, List<Object> path) {
    for (String key : snapshot.fieldNames()) {
      assertTrue(
          complete.containsKey(key), "no key " + key + " at " + path + " in the complete value");
      List<Object> child = new ArrayList<>(path);
      child.add(key);
      value(verb, snapshot.getValue(key), complete.getValue(key), enums, child);
    }
  }

  private static void value(
      String verb, Object shown, Object complete, EnumFields enums, List<Object> path) {
    if (complete instanceof JsonObject completeObject) {
      object(
          verb,
          assertInstanceOf(JsonObject.class, shown, "at " + path),
          completeObject,
          enums,
          path);
    } else if (complete instanceof JsonArray completeArray) {
      JsonArray shownArray = assertInstanceOf(JsonArray.class, shown, "at " + path);
      assertTrue(shownArray.size() <= completeArray.size(), "at " + path);
      for (int i = 0; i < shownArray.size(); i++) {
        List<Object> child = new ArrayList<>(path);
        child.add(i);
        value(verb, shownArray.getValue(i), completeArray.getValue(i), enums, child);
      }
    } else if (complete instanceof String completeText) {
      String text = assertInstanceOf(String.class, shown, "at " + path);
      if (enums.heldBack(verb, path)) {
        assertEquals(completeText, text, "an enum is shown only whole, at " + path);
      } else {
        assertTrue(
            completeText.startsWith(text),
            "'" + text + "' begins '" + completeText + "' at " + path);
        assertFalse(
            !text.isEmpty() && Character.isHighSurrogate(text.charAt(text.length() - 1)),
            "half a surrogate pair at " + path);
      }
    } else if (complete instanceof Number number) {
      assertEquals(
          number.doubleValue(),
          assertInstanceOf(Number.class, shown, "at " + path).doubleValue(),
          "at " + path);
    } else {
      assertEquals(complete, shown, "at " + path);
    }
  }
}
