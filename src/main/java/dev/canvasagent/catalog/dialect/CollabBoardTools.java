package dev.canvasagent.catalog.dialect;

import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Seed 003's tools (CollabBoard's AI service) in our verbs. {@code batchOperations} is our {@code
 * batch_operations} field for field; the seed's tool call also carries {@code tool: "batchOperations"},
 * left out. {@code createDiagram} — the tool it replaces, {@code {diagramType, title, sections:
 * [{sectionTitle, items}]}} — becomes the batch the seed's resolver builds from it: a frame per
 * section, a note per item, and the template layout of its diagram type. The seed gives no fields
 * for {@code createElements}, {@code updateElements} or {@code layoutElements}: they are not read.
 */
final class CollabBoardTools {
  private static final Map<String, String> DIAGRAM_LAYOUTS =
      Map.of(
          "swot", "swot-2x2",
          "kanban", "columns",
          "retrospective", "columns",
          "userjourney", "journey-stages",
          "journey", "journey-stages");

  private CollabBoardTools() {}

  static List<VerbAlias> aliases() {
    return List.of(
        new VerbAlias(
            "batchOperations",
            Dialect.COLLABBOARD,
            "batch_operations",
            params -> Params.without(params, "tool")),
        new VerbAlias(
            "createDiagram", Dialect.COLLABBOARD, "batch_operations", CollabBoardTools::diagram));
  }

  private static JsonObject diagram(JsonObject params) {
    Params.onlyKnown(params, Set.of("tool", "diagramType", "title", "sections"), "createDiagram");
    String type = params.getValue("diagramType") instanceof String given ? given : "";
    String layout = DIAGRAM_LAYOUTS.get(VerbNames.normalized(type));
    if (layout == null) {
      throw new ActionRejected(
          "createDiagram diagramType must be swot, kanban, retrospective or user_journey, not '"
              + type
              + "'");
    }
    if (!(params.getValue("sections") instanceof JsonArray sections) || sections.isEmpty()) {
      throw new ActionRejected("createDiagram needs sections: [{sectionTitle, items}]");
    }
    JsonArray frames = new JsonArray();
    JsonArray notes = new JsonArray();
    for (int s = 0; s < sections.size(); s++) {
      if (!(sections.getValue(s) instanceof JsonObject section)
          || !(section.getValue("sectionTitle") instanceof String title)) {
        throw new ActionRejected("createDiagram sections[" + s + "] needs a sectionTitle");
      }
      String frameRef = "frame_" + (s + 1);
      frames.add(new JsonObject().put("op", "createFrame").put("ref", frameRef).put("name", title));
      Object given = section.getValue("items");
      if (given != null && !(given instanceof JsonArray)) {
        throw new ActionRejected("createDiagram sections[" + s + "].items must be a list of texts");
      }
      JsonArray items = given == null ? new JsonArray() : (JsonArray) given;
      for (int i = 0; i < items.size(); i++) {
        notes.add(
            new JsonObject()
                .put("op", "createNote")
                .put("ref", "note_" + (s + 1) + "_" + (i + 1))
                .put("parentRef", frameRef)
                .put("text", String.valueOf(items.getValue(i))));
      }
    }
    JsonObject batch =
        new JsonObject().put("layoutDirective", layout).put("operations", frames.addAll(notes));
    if (params.getValue("title") instanceof String title) {
      batch.put("title", title);
    }
    return batch;
  }
}
