package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/** A document's lease once {@code doc.preempt} has voided it (epoch + 1). */
public record LeasePreempted(String id, LeaseView lease) implements BusMessage {
  @Override
  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("lease", lease.toJson());
  }

  public static LeasePreempted fromJson(JsonObject json) {
    String message = "a preempted lease";
    return new LeasePreempted(
        MessageFields.string(json, "id", message),
        LeaseView.fromJson(MessageFields.object(json, "lease", message)));
  }
}
