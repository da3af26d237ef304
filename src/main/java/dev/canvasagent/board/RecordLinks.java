package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * How a board's records point at each other, kept as the records change: each shape under its parent
 * (by index, then id), each binding under the records it joins ({@code fromId} and {@code toId}).
 * Only records stored under their own id take part. Persistent, like the board.
 */
final class RecordLinks {
  static final RecordLinks EMPTY = new RecordLinks(GroupedIds.EMPTY, GroupedIds.EMPTY);

  private final GroupedIds children;
  private final GroupedIds bindings;

  private RecordLinks(GroupedIds children, GroupedIds bindings) {
    this.children = children;
    this.bindings = bindings;
  }

  RecordLinks plus(String key, JsonObject record) {
    return change(key, record, true);
  }

  RecordLinks minus(String key, JsonObject record) {
    return change(key, record, false);
  }

  private RecordLinks change(String key, JsonObject record, boolean add) {
    if (!key.equals(record.getValue("id"))) {
      return this;
    }
    Object typeName = record.getValue("typeName");
    if ("shape".equals(typeName)) {
      String parent = text(record, "parentId");
      String index = text(record, "index");
      return new RecordLinks(
          add ? children.plus(parent, index, key) : children.minus(parent, index, key), bindings);
    }
    if ("binding".equals(typeName)) {
      GroupedIds next = bindings;
      for (String end : List.of("fromId", "toId")) {
        if (record.getValue(end) instanceof String target) {
          next = add ? next.plus(target, "", key) : next.minus(target, "", key);
        }
      }
      return new RecordLinks(children, next);
    }
    return this;
  }

  List<String> children(String parentId) {
    return children.ids(parentId);
  }

  Optional<String> topIndex(String parentId) {
    return children.lastOrder(parentId);
  }

  List<String> bindings(String recordId) {
    return bindings.ids(recordId);
  }

  private static String text(JsonObject record, String key) {
    return record.getValue(key) instanceof String value ? value : "";
  }
}
