package dev.canvasagent.catalog.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of the other dialects' verbs, case by case from {@code dialects/translations.json}: every
 * name of every dialect becomes one of our verbs with params our schema accepts, fields translate as
 * docs/boards.md ("Verb dialects") says, our own actions pass untouched, and what our verbs cannot
 * express is refused with a reason naming it.
 */
class VerbDialectsTest {
  static final ActionCatalog CATALOG = ActionCatalog.standard();
  static final VerbDialects DIALECTS = new VerbDialects(CATALOG);
  static final JsonObject CASES = cases();

  static Stream<JsonObject> translated() {
    return CASES.getJsonArray("translated").stream().map(JsonObject.class::cast);
  }

  static Stream<JsonObject> refused() {
    return CASES.getJsonArray("refused").stream().map(JsonObject.class::cast);
  }

  @ParameterizedTest
  @MethodSource("translated")
  void anActionOfAnotherDialectBecomesOurVerbWithParamsOurSchemaAccepts(JsonObject sample) {
    String name = sample.getString("name");
    JsonObject params = sample.getJsonObject("params");
    JsonObject before = params.copy();
    Translation.Translated translated =
        assertInstanceOf(Translation.Translated.class, DIALECTS.translate(name, params));
    assertEquals(before, params, "the translation leaves the model's params alone");
    assertEquals(sample.getString("verb"), translated.alias().verb());
    assertEquals(sample.getString("dialect"), translated.alias().dialect().wireName());
    assertEquals(name, translated.original());
    if (sample.containsKey("expected")) {
      assertEquals(sample.getJsonObject("expected"), translated.params(), sample.getString("why"));
    }
    assertEquals(
        Optional.empty(),
        CATALOG
            .entry(translated.alias().verb())
            .orElseThrow()
            .schema()
            .violations(translated.params()),
        name + " " + translated.params().encode());
  }

  @ParameterizedTest
  @MethodSource("refused")
  void whatOurVerbsCannotExpressIsRefusedWithAReasonNamingIt(JsonObject sample) {
    String name = sample.getString("name");
    Translation.Unmappable unmappable =
        assertInstanceOf(
            Translation.Unmappable.class, DIALECTS.translate(name, sample.getJsonObject("params")));
    assertTrue(unmappable.reason().startsWith(name + ": "), unmappable.reason());
    assertTrue(unmappable.reason().contains(sample.getString("reason")), unmappable.reason());
  }

  @Test
  void everyNameOfTheTableAndEachOfOurNamesTheKitUsesHasACase() {
    Set<String> covered =
        translated().map(sample -> sample.getString("name")).collect(Collectors.toSet());
    for (VerbAlias alias : DIALECTS.aliases()) {
      assertTrue(covered.contains(alias.name()), alias.name() + " has no case");
    }
    for (String twin : KitActions.TWINS.keySet()) {
      assertTrue(covered.contains(twin), "the kit's " + twin + " has no case");
      assertTrue(
          translated()
              .filter(sample -> sample.getString("name").equals(twin))
              .allMatch(
                  sample ->
                      CATALOG
                          .entry(twin)
                          .orElseThrow()
                          .schema()
                          .violations(sample.getJsonObject("params"))
                          .isPresent()),
          "the kit's " + twin + " is read only when our schema refuses it");
    }
  }

  @Test
  void ourOwnActionsAndNamesOfNoDialectPassAsGiven() {
    JsonObject move = new JsonObject("{\"shapeIds\":[\"a\"],\"dx\":5,\"dy\":0}");
    assertEquals(new Translation.AsGiven("move", move), DIALECTS.translate("move", move));
    JsonObject pen =
        new JsonObject("{\"points\":[{\"x\":0,\"y\":0},{\"x\":1,\"y\":1}],\"fill\":\"solid\"}");
    assertEquals(
        new Translation.AsGiven("pen", pen),
        DIALECTS.translate("pen", pen),
        "tldraw's solid under our pen is ours, not the kit's tint");
    JsonObject think = new JsonObject().put("thought", "x");
    assertEquals(
        new Translation.AsGiven("think", think),
        DIALECTS.translate("think", think),
        "our name with fields no one's: the sanitizer names the violation");
    assertEquals(
        new Translation.AsGiven("scribble_everywhere", new JsonObject()),
        DIALECTS.translate("scribble_everywhere", null));
    JsonObject count = new JsonObject().put("expression", "notes");
    assertEquals(
        new Translation.AsGiven("count", count),
        DIALECTS.translate("count", count),
        "the kit's example tools are no verbs of ours");
  }

  @Test
  void theReasonForAnUnknownVerbNamesTheClosestOfOurs() {
    assertEquals(
        "unknown action 'creat_shap'; the closest known verbs are create_shape, update_shape, "
            + "delete_shape",
        ClosestVerbs.reason("creat_shap", CATALOG.names()));
    assertEquals("set_viewport", ClosestVerbs.to("setViewPort!", CATALOG.names()).get(0));
    assertEquals("batch_operations", ClosestVerbs.to("batchOperation", CATALOG.names()).get(0));
    assertEquals(3, ClosestVerbs.distance("kitten", "sitting"));
    assertEquals(0, ClosestVerbs.distance("", ""));
    assertEquals(4, ClosestVerbs.distance("", "move"));
  }

  @Test
  void onlyTwoNamesOfTheTableAreAlsoSpellingsOfOurs() {
    Set<String> ours =
        CATALOG.names().stream().map(VerbNames::normalized).collect(Collectors.toSet());
    assertEquals(
        List.of("add-detail", "batchOperations"),
        DIALECTS.aliases().stream()
            .map(VerbAlias::name)
            .filter(name -> ours.contains(VerbNames.normalized(name)))
            .toList(),
        "the table reads them as the kit's and seed 003's");
  }

  private static JsonObject cases() {
    try (InputStream in =
        VerbDialectsTest.class.getResourceAsStream("/dialects/translations.json")) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
