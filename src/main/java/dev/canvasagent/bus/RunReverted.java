package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What reverting a run did: the board's revision after it ({@code changed} false when there was
 * nothing left to revert, a second revert's answer: then no revision was made), the records put back
 * as they were before the run ({@code reverted}), and those left alone because someone changed them
 * after the run ({@code keptChanged}, each with the author of its latest change).
 */
public record RunReverted(
    long revision, boolean changed, List<String> reverted, List<KeptChange> keptChanged)
    implements BusMessage {
  public RunReverted {
    reverted = List.copyOf(reverted);
    keptChanged = List.copyOf(keptChanged);
  }

  /** A record the run changed that someone ({@code by}, a revision's author) changed since. */
  public record KeptChange(String id, String by) {
    JsonObject toJson() {
      return new JsonObject().put("id", id).put("by", by);
    }

    static KeptChange fromJson(JsonObject json) {
      return new KeptChange(
          MessageFields.string(json, "id", "RunReverted.KeptChange"),
          MessageFields.string(json, "by", "RunReverted.KeptChange"));
    }
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("revision", revision)
        .put("changed", changed)
        .put("reverted", new JsonArray(List.copyOf(reverted)))
        .put("keptChanged", new JsonArray(keptChanged.stream().map(KeptChange::toJson).toList()));
  }

  public static RunReverted fromJson(JsonObject json) {
    return new RunReverted(
        MessageFields.number(json, "revision", "RunReverted"),
        MessageFields.bool(json, "changed", "RunReverted"),
        MessageFields.jsonArray(json, "reverted", "RunReverted").stream()
            .map(String.class::cast)
            .toList(),
        MessageFields.objects(json, "keptChanged", "RunReverted").stream()
            .map(KeptChange::fromJson)
            .toList());
  }
}
