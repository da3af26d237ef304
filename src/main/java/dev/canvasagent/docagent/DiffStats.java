package dev.canvasagent.docagent;

import io.vertx.core.json.JsonObject;

/** How big a unified diff is: its hunks, and the lines it adds and removes (file headers not counted). */
public record DiffStats(int hunks, int added, int removed) {
  public static DiffStats of(String unifiedDiff) {
    int hunks = 0;
    int added = 0;
    int removed = 0;
    for (String line : unifiedDiff.split("\n", -1)) {
      if (line.startsWith("@@")) {
        hunks++;
      } else if (line.startsWith("+++ ") || line.startsWith("--- ")) {
        continue;
      } else if (line.startsWith("+")) {
        added++;
      } else if (line.startsWith("-")) {
        removed++;
      }
    }
    return new DiffStats(hunks, added, removed);
  }

  public JsonObject toJson() {
    return new JsonObject().put("hunks", hunks).put("added", added).put("removed", removed);
  }
}
