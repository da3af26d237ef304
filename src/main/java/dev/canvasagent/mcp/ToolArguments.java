package dev.canvasagent.mcp;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomId;
import io.vertx.core.json.JsonObject;

/**
 * The arguments every canvas tool shares beside its own: the room ({@code roomId}, or the session's bound
 * room) and the document ({@code docId}). A missing or malformed one is INVALID_REQUEST naming it.
 */
public final class ToolArguments {
  static final int MAX_DOC_ID_CHARS = 128;

  private ToolArguments() {}

  /** {@code roomId} from the arguments, else the room the session was opened for. */
  public static String room(ToolCall call) {
    Object given = call.arguments().getValue("roomId");
    if (given == null) {
      return call.session()
          .boundRoom()
          .orElseThrow(
              () ->
                  new Failure(
                      FailureCode.INVALID_REQUEST,
                      "roomId is required: name the room, or open the session at /mcp?room=<roomId>"));
    }
    if (!(given instanceof String roomId) || !RoomId.isValid(roomId)) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, "roomId must be 1 to 64 letters, digits, '_' or '-'");
    }
    return roomId;
  }

  public static String document(JsonObject arguments) {
    Object given = arguments.getValue("docId");
    if (!(given instanceof String docId) || docId.isBlank() || docId.length() > MAX_DOC_ID_CHARS) {
      throw new Failure(
          FailureCode.INVALID_REQUEST,
          "docId is required: a document id of 1 to " + MAX_DOC_ID_CHARS + " characters");
    }
    return docId;
  }

  /** The arguments without the ones named, for the tool's own schema. */
  public static JsonObject without(JsonObject arguments, String... names) {
    JsonObject rest = arguments.copy();
    for (String name : names) {
      rest.remove(name);
    }
    return rest;
  }

  /** The roomId property every room tool's input schema has. */
  public static JsonObject roomIdProperty() {
    return new JsonObject()
        .put("type", "string")
        .put("pattern", "^" + RoomId.CHARACTERS + "$")
        .put(
            "description",
            "The room (board) to act in. Optional when the session was opened at /mcp?room=<roomId>.");
  }

  /** {@code schema} (a catalog file's JSON Schema) as an MCP input schema with {@code extra} properties. */
  public static JsonObject inputSchema(
      JsonObject schema, JsonObject extraProperties, java.util.List<String> extraRequired) {
    JsonObject input = schema.copy();
    // The catalog's files declare draft-07; MCP reads an undeclared schema as 2020-12, which reads
    // every construct these files use the same way. Title and examples are the descriptor's
    // business.
    input.remove("$schema");
    input.remove("title");
    input.remove("examples");
    input.remove("description");
    JsonObject properties = input.getJsonObject("properties", new JsonObject()).copy();
    JsonObject merged = extraProperties.copy();
    properties.forEach(entry -> merged.put(entry.getKey(), entry.getValue()));
    input.put("type", "object").put("properties", merged);
    if (!extraRequired.isEmpty()) {
      io.vertx.core.json.JsonArray required = new io.vertx.core.json.JsonArray();
      extraRequired.forEach(required::add);
      input.getJsonArray("required", new io.vertx.core.json.JsonArray()).forEach(required::add);
      input.put("required", required);
    }
    return input;
  }
}
