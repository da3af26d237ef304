package dev.canvasagent.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Schema patterns with ECMA-262's meaning where Java's differs, and nothing else changed. */
class EcmaRegexpFactoryTest {
  static boolean matches(String pattern, String input) {
    return new EcmaRegexpFactory().createHandler(pattern).patternMatchingFailure(input).isEmpty();
  }

  @Test
  void dollarIsTheEndOfTheInputNotOfALine() {
    for (String terminator : new String[] {"\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085"}) {
      assertFalse(matches("^[a-z]{1,8}$", "demo" + terminator), "U+" + (int) terminator.charAt(0));
    }
    assertTrue(matches("^[a-z]{1,8}$", "demo"));
    assertTrue(matches("a$|^b", "xa"));
    assertFalse(matches("a$|^b", "a\n"));
  }

  @Test
  void aDollarEscapedOrInAClassIsALiteral() {
    assertEquals("^\\$\\z", EcmaRegexpFactory.toJava("^\\$$"));
    assertEquals("^[$]+\\z", EcmaRegexpFactory.toJava("^[$]+$"));
    assertTrue(matches("^[$]+$", "$$"));
    assertTrue(matches("^\\$\\d$", "$5"));
    assertFalse(matches("^\\$\\d$", "$5\n"));
  }

  @Test
  void classesReadAsEcmaReadsThem() {
    assertEquals("^[\\[a]\\z", EcmaRegexpFactory.toJava("^[[a]$"), "ECMA has no nested classes");
    assertEquals("^[a\\&\\&b]\\z", EcmaRegexpFactory.toJava("^[a&&b]$"), "nor intersections");
    assertTrue(matches("^[a&&b]+$", "a&b"));
    assertEquals("[^\\]x]\\z", EcmaRegexpFactory.toJava("[^]x]$"));
    assertEquals(
        "^[\\]$]\\z",
        EcmaRegexpFactory.toJava("^[\\]$]$"),
        "an escaped bracket does not end the class");
  }

  @Test
  void patternsWithoutAnchorsAreUnchangedAndStillSearch() {
    assertEquals("\\S", EcmaRegexpFactory.toJava("\\S"));
    assertTrue(matches("\\S", "  x  "));
    assertFalse(matches("\\S", " \n "));
  }

  @Test
  void aRefusalQuotesThePatternAsTheSchemaWroteIt() {
    JsonSchemaFile schema =
        JsonSchemaFile.of(
            "inline",
            new JsonObject()
                .put("type", "object")
                .put(
                    "properties",
                    new JsonObject()
                        .put(
                            "roomId",
                            new JsonObject().put("type", "string").put("pattern", "^[a-z]+$"))));

    Optional<String> refused = schema.violations(new JsonObject().put("roomId", "demo\n"));

    assertTrue(
        refused.orElseThrow().contains("#/roomId") && refused.get().contains("^[a-z]+$"),
        refused.get());
  }
}
