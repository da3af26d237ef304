package dev.canvasagent.runner.stream;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Builds one JSON object or array from its tokens as they complete, so that at any moment the value
 * parsed so far can be shown: every complete scalar, every container opened (with what it holds so
 * far), and the string being written where its path allows it. A number or literal still being
 * written is never shown: the tokenizer has not given it yet.
 */
final class PartialValueBuilder {
  private Object root;
  private final Deque<Object> open = new ArrayDeque<>();

  /** Keys (String) and indices (Integer) from the root to the innermost open container. */
  private final List<Object> path = new ArrayList<>();

  private String pendingKey;
  private boolean complete;

  /** Takes the next token of the value (the first must open it). */
  void token(JsonToken token, JsonParser parser) throws IOException {
    switch (token) {
      case START_OBJECT -> enter(new JsonObject());
      case START_ARRAY -> enter(new JsonArray());
      case END_OBJECT, END_ARRAY -> leave();
      case FIELD_NAME -> pendingKey = parser.currentName();
      case VALUE_STRING -> add(parser.getText());
      case VALUE_NUMBER_INT -> add(parser.getNumberValue());
      case VALUE_NUMBER_FLOAT -> add(parser.getDoubleValue());
      case VALUE_TRUE -> add(Boolean.TRUE);
      case VALUE_FALSE -> add(Boolean.FALSE);
      case VALUE_NULL -> add(null);
      default -> throw new MalformedActions("unexpected JSON token " + token);
    }
  }

  boolean started() {
    return root != null;
  }

  boolean complete() {
    return complete;
  }

  /** The value itself (not a copy): complete once {@link #complete()}. */
  Object value() {
    return root;
  }

  private void enter(Object container) {
    if (root == null) {
      root = container;
    } else {
      path.add(slot());
      add(container);
    }
    open.push(container);
  }

  private void leave() {
    open.pop();
    if (open.isEmpty()) {
      complete = true;
    } else {
      path.remove(path.size() - 1);
    }
  }

  /** Where the next value of the innermost container goes: its key, or its index. */
  private Object slot() {
    Object container = open.peek();
    return container instanceof JsonArray array ? (Object) array.size() : pendingKey;
  }

  private void add(Object value) {
    Object container = open.peek();
    if (container instanceof JsonObject object) {
      object.put(pendingKey, value);
    } else if (container instanceof JsonArray array) {
      array.add(value);
    } else {
      throw new MalformedActions("expected a JSON object or array, found a lone value");
    }
  }

  /**
   * A copy of the value parsed so far, with {@code pendingString} (the string being written) in its
   * place unless {@code heldBack} refuses its path; null before the value opened.
   */
  Object snapshot(Optional<String> pendingString, Predicate<List<Object>> heldBack) {
    if (root == null) {
      return null;
    }
    Object copy = root instanceof JsonObject object ? object.copy() : ((JsonArray) root).copy();
    if (complete || pendingString.isEmpty()) {
      return copy;
    }
    List<Object> slotPath = new ArrayList<>(path);
    slotPath.add(slot());
    if (slotPath.get(slotPath.size() - 1) == null || heldBack.test(slotPath)) {
      return copy;
    }
    Object container = copy;
    for (Object step : path) {
      container =
          step instanceof Integer index
              ? ((JsonArray) container).getValue(index)
              : ((JsonObject) container).getValue((String) step);
    }
    if (container instanceof JsonObject object) {
      object.put(pendingKey, pendingString.get());
    } else {
      ((JsonArray) container).add(pendingString.get());
    }
    return copy;
  }
}
