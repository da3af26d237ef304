package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.Locale;

/**
 * What one {@code todo} action did to the session's list ({@code scheduler.todo}'s answer): the
 * item as it now is, and how it changed. The same JSON is the {@code todo} of the system line on
 * {@code agent:chat} ({@link AgentChat}).
 */
public record TodoChange(Op op, TodoItem item) implements BusMessage {
  /** How the item changed. */
  public enum Op {
    ADDED,
    UPDATED,
    RESOLVED,
    REORDERED;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Op fromWire(String wireName) {
      return Arrays.stream(values())
          .filter(op -> op.wireName().equals(wireName))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("not a todo change: " + wireName));
    }
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("op", op.wireName()).put("item", item.toJson());
  }

  public static TodoChange fromJson(JsonObject json) {
    return new TodoChange(
        Op.fromWire(json.getString("op")), TodoItem.fromJson(json.getJsonObject("item")));
  }
}
