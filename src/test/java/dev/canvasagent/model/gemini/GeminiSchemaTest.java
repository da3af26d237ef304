package dev.canvasagent.model.gemini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Catalog schemas become Gemini's JSON Schema subset: references inlined, unsupported keywords gone. */
class GeminiSchemaTest {

  @Test
  void everyCatalogSchemaKeepsOnlyTheKeywordsGeminiSupports() {
    for (Object item : ActionCatalog.standard().describe()) {
      JsonObject tool = (JsonObject) item;
      JsonObject converted = GeminiSchema.convert(tool.getJsonObject("params"));
      assertOnlyKeptKeywords(converted, tool.getString("name"));
      assertEquals("object", converted.getString("type"), tool.getString("name"));
    }
  }

  @Test
  void localReferencesAreInlined() {
    JsonObject schema =
        new JsonObject(
            """
        {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
         "definitions":{"point":{"type":"object","required":["x","y"],"properties":{"x":{"type":"number"},"y":{"type":"number"}}}},
         "properties":{"start":{"$ref":"#/definitions/point"},
                       "points":{"type":"array","minItems":1,"items":{"$ref":"#/definitions/point"}},
                       "id":{"type":"string","pattern":"^[a-z]+$","maxLength":64,"description":"a name"}},
         "examples":[{"id":"a"}]}""");

    JsonObject converted = GeminiSchema.convert(schema);

    JsonObject point =
        new JsonObject(
            """
        {"type":"object","required":["x","y"],"properties":{"x":{"type":"number"},"y":{"type":"number"}}}""");
    assertEquals(
        new JsonObject()
            .put("type", "object")
            .put("additionalProperties", false)
            .put(
                "properties",
                new JsonObject()
                    .put("start", point)
                    .put(
                        "points",
                        new JsonObject()
                            .put("type", "array")
                            .put("minItems", 1)
                            .put("items", point))
                    .put(
                        "id", new JsonObject().put("type", "string").put("description", "a name"))),
        converted);
  }

  @Test
  void aReferenceCycleIsCutInsteadOfRecursingForever() {
    JsonObject schema =
        new JsonObject(
            """
        {"type":"object","definitions":{"node":{"type":"object","properties":{"next":{"$ref":"#/definitions/node"}}}},
         "properties":{"head":{"$ref":"#/definitions/node"}}}""");

    String encoded = GeminiSchema.convert(schema).encode();

    assertTrue(encoded.contains("\"next\""), encoded);
    assertTrue(!encoded.contains("$ref"), encoded);
  }

  private static void assertOnlyKeptKeywords(Object node, String where) {
    if (node instanceof JsonObject schema) {
      for (Map.Entry<String, Object> entry : schema) {
        assertTrue(GeminiSchema.KEPT.contains(entry.getKey()), where + ": " + entry.getKey());
        if (entry.getKey().equals("properties")) {
          for (Map.Entry<String, Object> property : (JsonObject) entry.getValue()) {
            assertOnlyKeptKeywords(property.getValue(), where + "." + property.getKey());
          }
        } else if (!entry.getKey().equals("enum") && !entry.getKey().equals("required")) {
          assertOnlyKeptKeywords(entry.getValue(), where + "/" + entry.getKey());
        }
      }
    } else if (node instanceof JsonArray list) {
      list.forEach(item -> assertOnlyKeptKeywords(item, where + "[]"));
    }
  }
}
