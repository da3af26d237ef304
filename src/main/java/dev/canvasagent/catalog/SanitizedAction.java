package dev.canvasagent.catalog;

import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** An action after sanitizing: its normalized params and the record diff it makes (empty for meta verbs). */
public record SanitizedAction(JsonObject params, RecordDiff diff) {
  public static SanitizedAction meta(JsonObject params) {
    return new SanitizedAction(params, new RecordDiff(List.of(), List.of()));
  }
}
