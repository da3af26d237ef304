package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What became of an {@link OutsideAction} the runner took ({@code runner.act}): the revision the board
 * is at after it ({@code changed} true when this action committed it; false, with the head revision,
 * when its diff would change nothing), the shape records it {@code created}, {@code updated} and
 * {@code removed} (record ids, {@code shape:…}), where the params the sanitizer applied differ from
 * the params given ({@code adjusted}), the parts it left out ({@code dropped}), and the {@code params}
 * as applied. {@code params} carries a JSON object on purpose: its contract is the verb's JSON Schema.
 */
public record ActionOutcome(
    String actionId,
    String verb,
    long revision,
    boolean changed,
    List<String> created,
    List<String> updated,
    List<String> removed,
    List<Adjustment> adjusted,
    List<DroppedPart> dropped,
    JsonObject params)
    implements BusMessage {
  private static final String MESSAGE = "ActionOutcome";

  public ActionOutcome {
    created = List.copyOf(created);
    updated = List.copyOf(updated);
    removed = List.copyOf(removed);
    adjusted = List.copyOf(adjusted);
    dropped = List.copyOf(dropped);
  }

  /**
   * A value the sanitizer applied in place of the one given, at {@code path} (a JSON pointer into the
   * params): a clamped number, a normalized color, a shape id given its {@code shape:} prefix, …
   * {@code given} and {@code applied} are JSON values; {@code applied} is null where the sanitizer
   * removed the value.
   */
  public record Adjustment(String path, Object given, Object applied) {
    JsonObject toJson() {
      return new JsonObject().put("path", path).put("given", given).put("applied", applied);
    }

    static Adjustment fromJson(JsonObject json) {
      return new Adjustment(
          MessageFields.string(json, "path", "an adjustment"),
          json.getValue("given"),
          json.getValue("applied"));
    }
  }

  /**
   * A part of the action the sanitizer left out and why: {@code path} (a JSON pointer into the params,
   * null when the part has none), {@code code} naming the kind of issue, {@code reason} in words.
   */
  public record DroppedPart(String path, String code, String reason) {
    JsonObject toJson() {
      JsonObject json = new JsonObject().put("code", code).put("reason", reason);
      if (path != null) {
        json.put("path", path);
      }
      return json;
    }

    static DroppedPart fromJson(JsonObject json) {
      return new DroppedPart(
          MessageFields.optionalString(json, "path", "a dropped part"),
          MessageFields.string(json, "code", "a dropped part"),
          MessageFields.string(json, "reason", "a dropped part"));
    }
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("actionId", actionId)
        .put("verb", verb)
        .put("revision", revision)
        .put("changed", changed)
        .put("created", new JsonArray(created))
        .put("updated", new JsonArray(updated))
        .put("removed", new JsonArray(removed))
        .put("adjusted", new JsonArray(adjusted.stream().map(Adjustment::toJson).toList()))
        .put("dropped", new JsonArray(dropped.stream().map(DroppedPart::toJson).toList()))
        .put("params", params);
  }

  public static ActionOutcome fromJson(JsonObject json) {
    return new ActionOutcome(
        MessageFields.string(json, "actionId", MESSAGE),
        MessageFields.string(json, "verb", MESSAGE),
        MessageFields.number(json, "revision", MESSAGE),
        MessageFields.bool(json, "changed", MESSAGE),
        strings(json, "created"),
        strings(json, "updated"),
        strings(json, "removed"),
        MessageFields.objects(json, "adjusted", MESSAGE).stream()
            .map(Adjustment::fromJson)
            .toList(),
        MessageFields.objects(json, "dropped", MESSAGE).stream()
            .map(DroppedPart::fromJson)
            .toList(),
        MessageFields.object(json, "params", MESSAGE));
  }

  private static List<String> strings(JsonObject json, String key) {
    JsonArray array = MessageFields.jsonArray(json, key, MESSAGE);
    if (!array.stream().allMatch(String.class::isInstance)) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, MESSAGE + "'s " + key + " must be an array of strings");
    }
    return array.stream().map(String.class::cast).toList();
  }
}
