package dev.canvasagent.board;

import dev.canvasagent.board.geometry.ShapeIndex;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pcollections.TreePMap;

/**
 * One room's board at one revision: its tldraw records by id. Immutable; {@link #apply} makes the next
 * one. Revision 0 is the empty board every room starts with.
 *
 * <p>The records are a persistent sorted map (PCollections' {@code TreePMap}): {@link #apply} costs
 * O(diff · log n) and the next board shares every record the diff did not touch with this one. Of
 * the persistent-collection libraries, PCollections is the one whose maps are plain
 * {@link java.util.Map}s (callers of {@link #records} keep their API; Vavr, Capsule and Paguro would
 * bring a second collection API into them), it has no dependencies, and it is maintained. Being
 * sorted, the records iterate by id, so everything derived from that order (the JSON of a board, a
 * snapshot) is the same on every node whatever order the records arrived in.
 *
 * <p>Beside the records a board keeps, just as persistently, each parent's children by index and each
 * record's bindings, so the questions a diff asks (the top index on a page, what refers to a removed
 * shape) read only what the diff touches and what depends on it; each shape by its type, parent and
 * position, so a copy of a shape is found among the few placed like it; a running estimate of its
 * size in bytes for caches; and, once something has asked for it, the {@link ShapeIndex} of its
 * shapes' page bounds, which {@link #apply} then carries forward from the diff. A board made by
 * {@link #apply} also knows which records its diff changed ({@link #idsChangedFrom}), so whoever
 * follows a room revision by revision reads only those.
 */
public final class Board {
  private final String roomId;
  private final long revision;
  private final TreePMap<String, JsonObject> records;
  private final RecordLinks links;
  private final ShapePlaces places;
  private final long estimatedBytes;
  private final Origin origin;

  /** This board's own mark, which the boards applied to it remember. */
  private final Object mark = new Object();

  private volatile ShapeIndex shapeIndex;

  /**
   * Where an applied board came from: the mark of the board it was applied to (the mark, not the
   * board, so a chain of revisions does not keep every earlier one alive) and the ids its diff changed.
   */
  private record Origin(Object base, Set<String> changed) {}

  /** A board loaded whole (a store's read, a snapshot): every record measured and indexed once. */
  public Board(String roomId, long revision, Map<String, JsonObject> records) {
    this.roomId = roomId;
    this.revision = revision;
    this.records = TreePMap.from(records);
    RecordLinks links = RecordLinks.EMPTY;
    ShapePlaces places = ShapePlaces.EMPTY;
    long bytes = 0;
    for (Map.Entry<String, JsonObject> entry : this.records.entrySet()) {
      links = links.plus(entry.getKey(), entry.getValue());
      places = places.plus(entry.getKey(), entry.getValue());
      bytes += bytes(entry.getValue());
    }
    this.links = links;
    this.places = places;
    this.estimatedBytes = bytes;
    this.origin = null;
  }

  private Board(
      String roomId,
      long revision,
      TreePMap<String, JsonObject> records,
      RecordLinks links,
      ShapePlaces places,
      long estimatedBytes,
      Origin origin) {
    this.roomId = roomId;
    this.revision = revision;
    this.records = records;
    this.links = links;
    this.places = places;
    this.estimatedBytes = estimatedBytes;
    this.origin = origin;
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

  /** The records by id, iterated in id order; unmodifiable. */
  public Map<String, JsonObject> records() {
    return records;
  }

  public Optional<JsonObject> record(String id) {
    return Optional.ofNullable(records.get(id));
  }

  /** The record {@code id} when it is a shape ({@code typeName: "shape"}): not a binding, page or asset. */
  public Optional<JsonObject> shape(String id) {
    return record(id).filter(record -> "shape".equals(record.getValue("typeName")));
  }

  /**
   * An estimate of the board's size in bytes: the length of its records' JSON, kept up to date by
   * {@link #apply} from the diff alone. For bounding caches, not for billing: it leaves out the
   * indexes and the JVM's own overhead.
   */
  public long estimatedBytes() {
    return estimatedBytes;
  }

  /** The ids of the shapes whose parent is {@code parentId} (a page or a shape), lowest index first, then by id. */
  public List<String> childIds(String parentId) {
    return links.children(parentId);
  }

  /** The ids of the bindings that start or end at the record, by id. */
  public List<String> bindingIds(String recordId) {
    return links.bindings(recordId);
  }

  /**
   * The ids of the shapes on the board that may be copies of {@code shape}, by id: every shape whose
   * {@code type}, {@code parentId}, {@code x} and {@code y} equal {@code shape}'s as JSON values is
   * among them (now and then a few others: compare the records).
   */
  public List<String> shapeIdsPlacedLike(JsonObject shape) {
    return places.placedLike(shape);
  }

  /**
   * The ids of the records whose change made this board from {@code earlier}, when this board is
   * {@code earlier.apply(diff, …)}: the ids the diff put, and those it removed that were there.
   * Empty when this board was not made so (loaded whole, or applied to another board).
   */
  public Optional<Set<String>> idsChangedFrom(Board earlier) {
    return origin != null && origin.base() == earlier.mark
        ? Optional.of(origin.changed())
        : Optional.empty();
  }

  /** The highest fractional index among the page's direct children, if any. */
  public Optional<String> topIndexOnPage(String pageId) {
    return links.topIndex(pageId);
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

  /**
   * The next board: the diff's removals, then its puts (a later put of an id wins). Costs
   * O(diff · log n), plus, when this board's {@link ShapeIndex} was built, re-measuring the shapes
   * the diff moves (a moved frame's children, a changed shape's groups).
   *
   * @throws IllegalArgumentException when a put record has no string id; this board is unchanged
   */
  public Board apply(RecordDiff diff, long newRevision) {
    TreePMap<String, JsonObject> next = records;
    Set<String> touched = new LinkedHashSet<>();
    for (String id : diff.remove()) {
      if (next.containsKey(id)) {
        next = next.minus(id);
        touched.add(id);
      }
    }
    for (JsonObject record : diff.put()) {
      if (!(record.getValue("id") instanceof String id)) {
        throw new IllegalArgumentException(
            "a record to put has no string id: " + record.getValue("typeName"));
      }
      next = next.plus(id, record);
      touched.add(id);
    }
    RecordLinks nextLinks = links;
    ShapePlaces nextPlaces = places;
    long bytes = estimatedBytes;
    for (String id : touched) {
      JsonObject before = records.get(id);
      JsonObject after = next.get(id);
      if (before != null) {
        nextLinks = nextLinks.minus(id, before);
        nextPlaces = nextPlaces.minus(id, before);
        bytes -= bytes(before);
      }
      if (after != null) {
        nextLinks = nextLinks.plus(id, after);
        nextPlaces = nextPlaces.plus(id, after);
        bytes += bytes(after);
      }
    }
    Board board =
        new Board(
            roomId,
            newRevision,
            next,
            nextLinks,
            nextPlaces,
            bytes,
            new Origin(mark, Collections.unmodifiableSet(touched)));
    ShapeIndex index = shapeIndex;
    if (index != null) {
      board.shapeIndex = index.updated(this, board, touched);
    }
    return board;
  }

  /**
   * The page bounds of the board's shapes, indexed by place: built on first use (O(n)), then carried
   * forward by {@link #apply} from each diff, so the boards after this one have it for the cost of
   * what their diffs touch.
   */
  public ShapeIndex shapeIndex() {
    ShapeIndex index = shapeIndex;
    if (index == null) {
      index = ShapeIndex.of(this);
      shapeIndex = index;
    }
    return index;
  }

  /** {@code {roomId, revision, records}}, the records copied, by id. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("roomId", roomId)
        .put("revision", revision)
        .put("records", new JsonArray(records.values().stream().map(JsonObject::copy).toList()));
  }

  public static Board fromJson(JsonObject json) {
    Map<String, JsonObject> records = new java.util.HashMap<>();
    json.getJsonArray("records", new JsonArray()).stream()
        .map(JsonObject.class::cast)
        .forEach(record -> records.put(record.getString("id"), record));
    return new Board(json.getString("roomId"), json.getLong("revision", 0L), records);
  }

  private static long bytes(JsonObject record) {
    return record.encode().length();
  }
}
