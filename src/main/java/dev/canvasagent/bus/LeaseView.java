package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A document's lease as anyone who may read the document sees it: whether it is held, by whom
 * ({@code holder}, the actor's name; {@code holder_subject}, the token subject it acts for), since and
 * until when, and the epoch every agent write carries. Never the lease id: that is the holder's alone.
 * While the lease is free only {@code canvas_epoch} has a value (the other keys are there, null).
 */
public record LeaseView(
    boolean held,
    String holder,
    String holderSubject,
    Long heldSince,
    Long expiresAt,
    long canvasEpoch) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("held", held)
        .put("holder", holder)
        .put("holder_subject", holderSubject)
        .put("held_since", heldSince)
        .put("expires_at", expiresAt)
        .put("canvas_epoch", canvasEpoch);
  }

  public static LeaseView fromJson(JsonObject json) {
    String message = "a lease";
    return new LeaseView(
        MessageFields.bool(json, "held", message),
        MessageFields.optionalString(json, "holder", message),
        MessageFields.optionalString(json, "holder_subject", message),
        MessageFields.optionalNumber(json, "held_since", message),
        MessageFields.optionalNumber(json, "expires_at", message),
        MessageFields.number(json, "canvas_epoch", message));
  }
}
