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
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /api/catalog}: every verb of the catalog, in its order, each described, with its kind and
 * a schema its own sample passes.
 */
@ExtendWith(VertxExtension.class)
class CatalogEndpointTest {
  @Test
  void theCatalogDescribesEveryVerbWithASampleItsSchemaAccepts(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.empty());
    JsonArray verbs = server.get("/api/catalog").bodyAsJsonObject().getJsonArray("verbs");
    ActionCatalog catalog = ActionCatalog.standard();
    assertEquals(
        catalog.entries().stream().map(entry -> entry.verb().name()).toList(),
        verbs.stream().map(verb -> ((JsonObject) verb).getString("name")).toList());
    for (Object item : verbs) {
      JsonObject verb = (JsonObject) item;
      String name = verb.getString("name");
      ActionCatalog.Entry entry = catalog.entry(name).orElseThrow();
      assertFalse(verb.getString("description").isBlank(), name);
      assertEquals(
          entry.verb().kind().name().toLowerCase(Locale.ROOT), verb.getString("kind"), name);
      assertTrue(Set.of("board", "chat", "client", "agent").contains(verb.getString("kind")), name);
      assertEquals("object", verb.getJsonObject("params").getString("type"), name);
      JsonObject sample = verb.getJsonObject("sample");
      assertEquals(Optional.empty(), entry.schema().violations(sample), name + "'s sample");
    }
    Await.result(server.stop());
  }

  @Test
  void theCatalogNamesTheWordsTheServerReadsAsShapeKindsAndColors(Vertx vertx) {
    TestServer server = TestServer.start(vertx, Optional.empty());
    JsonObject answer = server.get("/api/catalog").bodyAsJsonObject();
    JsonObject kinds = answer.getJsonObject("shapeKinds");
    assertEquals(new JsonObject().put("type", "note"), kinds.getJsonObject("post-it"));
    assertEquals(new JsonObject().put("type", "text"), kinds.getJsonObject("heading"));
    assertEquals(
        new JsonObject().put("type", "geo").put("geo", "ellipse"), kinds.getJsonObject("circle"));
    for (String word : kinds.fieldNames()) {
      ShapeKinds.Kind kind = ShapeKinds.of(word).orElseThrow();
      assertEquals(kind.type(), kinds.getJsonObject(word).getString("type"), word);
      assertEquals(kind.geo(), kinds.getJsonObject(word).getString("geo"), word);
    }
    JsonObject colors = answer.getJsonObject("colorAliases");
    assertEquals("violet", colors.getString("purple"));
    assertEquals("black", colors.getString("charcoal"), "the brand palette is on by default");
    for (String word : colors.fieldNames()) {
      assertEquals(
          Optional.of(colors.getString(word)),
          StyleNormalizer.normalize("color", word, true),
          word);
    }
    Await.result(server.stop());
  }
}
