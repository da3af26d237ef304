package dev.canvasagent.board;

import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The uploaded files a diff's asset records point at ({@code props.src: "asset:<id>"}), which must be
 * in the room's asset store before the board may keep the records: a record pointing at a file that
 * is not there would show every viewer a broken image.
 */
public final class AssetSources {
  static final String PREFIX = "asset:";

  private AssetSources() {}

  /** Each uploaded file's id, with the id of the first asset record in the diff that points at it. */
  public static Map<String, String> of(RecordDiff diff) {
    Map<String, String> sources = new LinkedHashMap<>();
    for (JsonObject record : diff.put()) {
      if ("asset".equals(record.getString("typeName"))
          && record.getValue("props") instanceof JsonObject props
          && props.getValue("src") instanceof String src
          && src.startsWith(PREFIX)) {
        sources.putIfAbsent(src.substring(PREFIX.length()), record.getString("id"));
      }
    }
    return sources;
  }
}
