package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;

/**
 * A message on the event bus: a record whose one JSON mapping is {@link #toJson()} out and a static
 * {@code fromJson} back. Only the JSON crosses the bus (and, clustered, the network), so a receiver
 * always reads its own copy, never the sender's object.
 */
public interface BusMessage {
  JsonObject toJson();
}
