package dev.canvasagent.board;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One room's board at one revision: its tldraw records by id. Immutable; {@link #apply} makes the next
 * one. Revision 0 is the empty board every room starts with.
 */
public final class Board {
  private final String roomId;
  private final long revision;
  private final Map<String, JsonObject> records;

  public Board(String roomId, long revision, Map<String, JsonObject> records) {
    this.roomId = roomId;
    this.revision = revision;
    this.records = Collections.unmodifiableMap(new LinkedHashMap<>(records));
  }

  public static Board empty(String roomId) {
    return new Board(roomId, 0, Map.of());
  }

  public String roomId() {
    return roomId;
  }

  public long revision() {
    return revision;
  }

  public Map<String, JsonObject> records() {
    return records;
  }

  public Optional<JsonObject> record(String id) {
    return Optional.ofNullable(records.get(id));
  }

  /** The highest fractional index among the page's direct children, if any. */
  public Optional<String> topIndexOnPage(String pageId) {
    return records.values().stream()
        .filter(record -> "shape".equals(record.getString("typeName")))
        .filter(record -> pageId.equals(record.getString("parentId")))
        .map(record -> record.getString("index"))
        .max(String::compareTo);
  }

  /**
   * Whether applying {@code diff} would change this board: it removes a record that is here, or puts
   * one that is not here as it is (JSON equality: {@code 1} and {@code 1.0} are the same number).
   */
  public boolean changedBy(RecordDiff diff) {
    return diff.remove().stream().anyMatch(records::containsKey)
        || diff.put().stream()
            .anyMatch(record -> !record.equals(records.get(record.getString("id"))));
  }

  public Board apply(RecordDiff diff, long newRevision) {
    Map<String, JsonObject> next = new LinkedHashMap<>(records);
    diff.remove().forEach(next::remove);
    diff.put().forEach(record -> next.put(record.getString("id"), record));
    return new Board(roomId, newRevision, next);
  }

  /** {@code {roomId, revision, records}}, the records copied. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("revision", revision)
        .put("records", new JsonArray(records.values().stream().map(JsonObject::copy).toList()));
  }

  public static Board fromJson(JsonObject json) {
    Map<String, JsonObject> records = new LinkedHashMap<>();
    json.getJsonArray("records", new JsonArray()).stream()
        .map(JsonObject.class::cast)
        .forEach(record -> records.put(record.getString("id"), record));
    return new Board(json.getString("roomId"), json.getLong("revision", 0L), records);
  }
}
