package dev.canvasagent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /api/catalog}: every verb the issue names, each described, with a schema its own sample passes. */
@ExtendWith(VertxExtension.class)
class CatalogEndpointTest {
  static final Set<String> VERBS =
      Set.of(
          "create_shape",
          "update_shape",
          "delete_shape",
          "move",
          "resize",
          "rotate",
          "group",
          "ungroup",
          "align",
          "distribute",
          "stack",
          "reorder",
          "set_viewport",
          "think",
          "todo",
          "add_detail",
          "apply_preset",
          "label",
          "place",
          "pen",
          "message",
          "review",
          "clear",
          "batch_operations");

  @Test
  void theCatalogDescribesEveryVerbWithASampleItsSchemaAccepts(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.empty());
    JsonArray verbs = server.get("/api/catalog").bodyAsJsonObject().getJsonArray("verbs");
    assertEquals(VERBS.size(), verbs.size());
    ActionCatalog catalog = ActionCatalog.standard();
    for (Object item : verbs) {
      JsonObject verb = (JsonObject) item;
      String name = verb.getString("name");
      assertTrue(VERBS.contains(name), name);
      assertFalse(verb.getString("description").isBlank(), name);
      assertTrue(Set.of("board", "chat", "client", "agent").contains(verb.getString("kind")), name);
      assertEquals("object", verb.getJsonObject("params").getString("type"), name);
      JsonObject sample = verb.getJsonObject("sample");
      assertEquals(
          Optional.empty(),
          catalog.entry(name).orElseThrow().schema().violations(sample),
          name + "'s sample");
    }
    Await.result(server.stop());
  }
}
