package dev.canvasagent.board;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A change to a board: records to put (create or replace, whole) and record ids to remove. The one
 * unit the patch engine applies atomically and every browser applies the same way.
 */
public record RecordDiff(List<JsonObject> put, List<String> remove) {
  public RecordDiff {
    put = List.copyOf(put);
    remove = List.copyOf(remove);
  }

  public static RecordDiff putting(JsonObject... records) {
    return new RecordDiff(List.of(records), List.of());
  }

  public boolean isEmpty() {
    return put.isEmpty() && remove.isEmpty();
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("put", new JsonArray(List.copyOf(put)))
        .put("remove", new JsonArray(List.copyOf(remove)));
  }

  public static RecordDiff fromJson(JsonObject json) {
    JsonArray put = json.getJsonArray("put", new JsonArray());
    JsonArray remove = json.getJsonArray("remove", new JsonArray());
    return new RecordDiff(
        put.stream().map(JsonObject.class::cast).toList(),
        remove.stream().map(String.class::cast).toList());
  }
}
