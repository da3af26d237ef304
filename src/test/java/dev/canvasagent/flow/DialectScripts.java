package dev.canvasagent.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.canvasagent.support.ProviderStreams;
import dev.canvasagent.support.ProviderStreams.Call;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scripts of {@code dialects/runs/<dialect>.json}: steps that each say one thing in another
 * dialect and in our verbs, streamed in the script's wire format; and how two boards are compared.
 */
final class DialectScripts {
  /** Fields only another dialect writes: none may reach an envelope. */
  static final List<String> FOREIGN_FIELDS =
      List.of("_type", "intent", "shape", "update", "centerX", "tool");

  /** Names only other dialects use: none may be shown the model. */
  static final List<String> FOREIGN_NAMES =
      List.of("wb_create", "bringToFront", "setMyView", "batchOperations", "createDiagram");

  private DialectScripts() {}

  /** The provider's streamed answer of one side ({@code ours} or {@code dialect}) of the script. */
  static byte[] answer(JsonObject script, String side) {
    List<JsonObject> steps =
        script.getJsonArray("steps").stream()
            .map(step -> ((JsonObject) step).getJsonObject(side))
            .toList();
    return switch (script.getString("wire")) {
      case "anthropic-text" ->
          ProviderStreams.anthropicText(
              "Here is the plan.\n```json\n"
                  + new JsonObject().put("actions", new JsonArray(List.copyOf(steps))).encode()
                  + "\n```");
      case "openai-tool-calls" -> ProviderStreams.openAiToolCalls(calls(steps));
      case "anthropic-tool-uses" -> ProviderStreams.anthropicToolUses(calls(steps));
      default -> throw new IllegalArgumentException("no wire " + script.getString("wire"));
    };
  }

  private static List<Call> calls(List<JsonObject> steps) {
    return steps.stream()
        .map(step -> new Call(step.getString("name"), step.getJsonObject("arguments")))
        .toList();
  }

  /**
   * The board as a sorted list of its records, ids and indexes left out: a shape's parent, and a
   * binding's ends, named by type and position instead of by id.
   */
  static List<String> picture(JsonObject board) {
    List<JsonObject> records =
        board.getJsonArray("records").stream().map(JsonObject.class::cast).toList();
    Map<String, String> named = new HashMap<>();
    for (JsonObject record : records) {
      if ("shape".equals(record.getString("typeName"))) {
        named.put(
            record.getString("id"),
            record.getString("type") + "@" + record.getValue("x") + "," + record.getValue("y"));
      }
    }
    return records.stream()
        .map(
            record -> {
              JsonObject seen = record.copy();
              seen.remove("id");
              seen.remove("index");
              for (String reference : List.of("parentId", "fromId", "toId")) {
                if (seen.getValue(reference) instanceof String id) {
                  seen.put(reference, named.getOrDefault(id, id));
                }
              }
              return seen.encode();
            })
        .sorted()
        .toList();
  }

  static void assertNoForeignFields(List<JsonObject> envelopeActions) {
    for (JsonObject action : envelopeActions) {
      JsonObject params = action.getJsonObject("params");
      for (String foreign : FOREIGN_FIELDS) {
        assertFalse(params.containsKey(foreign), foreign + " in " + params.encode());
      }
    }
  }

  /** The model was shown our verbs only: its tools are the catalog's, and no other dialect's name. */
  static void assertOnlyOurNames(JsonObject request, List<String> ourVerbs) {
    assertEquals(
        ourVerbs,
        request.getJsonArray("tools").stream()
            .map(JsonObject.class::cast)
            .map(tool -> tool.containsKey("function") ? tool.getJsonObject("function") : tool)
            .map(tool -> tool.getString("name"))
            .toList());
    String sent = request.encode();
    for (String foreign : FOREIGN_NAMES) {
      assertFalse(sent.contains(foreign), foreign + " was shown the model");
    }
  }
}
