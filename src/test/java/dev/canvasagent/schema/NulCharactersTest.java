package dev.canvasagent.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where a NUL is, as a JSON pointer a person can read; and the same JSON without it. */
class NulCharactersTest {
  static final String NUL = "\u0000";

  @Test
  void thePointerNamesTheFirstValueOrNameWithANul() {
    JsonObject body =
        new JsonObject()
            .put("title", "fine")
            .put(
                "put",
                new JsonArray()
                    .add(new JsonObject())
                    .add(new JsonObject().put("props", new JsonObject().put("text", "a" + NUL))));

    assertEquals(Optional.of("#/put/1/props/text"), NulCharacters.firstPointer(body));
    assertEquals(
        Optional.of("#/a~1b~0c\\u0000"),
        NulCharacters.firstPointer(new JsonObject().put("a/b~c" + NUL, 1)));
    assertEquals(Optional.of("#"), NulCharacters.firstPointer(NUL));
    assertEquals(
        Optional.empty(),
        NulCharacters.firstPointer(new JsonObject().put("n", 1).put("t", "tab\tand\u0001")));
  }

  @Test
  void strippingRemovesEveryNulAtAnyDepthAndKeepsTheRest() {
    JsonObject model =
        new JsonObject()
            .put("te" + NUL + "xt", "Road" + NUL + "map")
            .put("n", 2)
            .put(
                "points",
                new JsonArray()
                    .add(new JsonObject().put("label", NUL + "x"))
                    .add("y" + NUL)
                    .addNull());

    assertEquals(
        new JsonObject()
            .put("text", "Roadmap")
            .put("n", 2)
            .put(
                "points",
                new JsonArray().add(new JsonObject().put("label", "x")).add("y").addNull()),
        NulCharacters.stripped(model));
    assertEquals("ab", NulCharacters.stripped("a" + NUL + "b" + NUL));
    assertNull(NulCharacters.stripped((String) null));
  }
}
