package dev.canvasagent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The schema-driven params the property tests run every verb with: for every verb of the catalog
 * (and {@link NudgeVerb}, which only the tests know), valid samples pass its schema and invalid ones
 * do not, and the shapes they name are mostly the board's.
 */
class SchemaSamplesTest {
  static final Board BOARD = CatalogNeverThrowsTest.board();

  static Stream<Arguments> verbs() {
    List<ActionCatalog.Entry> entries = new ArrayList<>(ActionCatalog.standard().entries());
    entries.add(NudgeVerb.entry());
    return entries.stream().map(entry -> Arguments.of(entry.verb().name(), entry));
  }

  static SchemaSamples samples(String verb) {
    return new SchemaSamples(new Random(verb.hashCode())).allowBigArrays(2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verbs")
  void validSamplesPassTheSchema(String verb, ActionCatalog.Entry entry) {
    SchemaSamples samples = samples(verb);
    for (int i = 0; i < 300; i++) {
      JsonObject params = samples.valid(entry.schema(), BOARD);
      assertEquals(
          Optional.empty(), entry.schema().violations(params), verb + " #" + i + ": " + params);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verbs")
  void invalidSamplesDoNot(String verb, ActionCatalog.Entry entry) {
    SchemaSamples samples = samples(verb);
    for (int i = 0; i < 100; i++) {
      JsonObject params = samples.invalid(entry.schema(), BOARD);
      assertTrue(entry.schema().violations(params).isPresent(), verb + " #" + i + ": " + params);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verbs")
  void theShapesASampleNamesAreMostlyTheBoards(String verb, ActionCatalog.Entry entry) {
    JsonObject properties = entry.schema().document().getJsonObject("properties");
    List<String> references =
        properties.fieldNames().stream()
            .filter(
                name ->
                    SchemaSamples.isShapeReference(properties.getJsonObject(name))
                        || SchemaSamples.isShapeReference(
                            properties
                                .getJsonObject(name)
                                .getJsonObject("items", new JsonObject())))
            .toList();
    if (references.isEmpty()) {
      return;
    }
    SchemaSamples samples = samples(verb);
    int onTheBoard = 0;
    int named = 0;
    for (int i = 0; i < 300; i++) {
      JsonObject params = samples.valid(entry.schema(), BOARD);
      for (String reference : references) {
        Object value = params.getValue(reference);
        List<Object> ids = value instanceof JsonArray array ? array.getList() : List.of();
        for (Object id : value instanceof String ? List.of(value) : ids) {
          named++;
          String recordId = ShapeIds.recordId((String) id);
          if (recordId != null
              && BOARD
                  .record(recordId)
                  .map(record -> record.getString("typeName"))
                  .orElse("")
                  .equals("shape")) {
            onTheBoard++;
          }
        }
      }
    }
    assertTrue(named > 100, verb + " names shapes: " + named);
    assertTrue(
        onTheBoard > named * 0.75 && onTheBoard < named,
        verb + ": " + onTheBoard + " of " + named + " on the board, and some not");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "^(shape:)?[A-Za-z0-9_:-]{1,80}$",
        "^[A-Za-z0-9_-]{1,64}$",
        "^[a-z0-9_]+$",
        "^[0-9a-f]{16}$",
        "\\S",
        "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+$",
        "^(ab|cd)+-\\d{2,3}$"
      })
  void patternStringsMatchTheirPattern(String pattern) {
    Random random = new Random(pattern.hashCode());
    for (int i = 0; i < 100; i++) {
      String generated = PatternStrings.generate(pattern, random);
      assertTrue(Pattern.compile(pattern).matcher(generated).find(), pattern + ": " + generated);
    }
  }

  @Test
  void aKeywordItDoesNotFollowIsNamedRatherThanIgnored() {
    JsonSchemaFile schema = JsonSchemaFile.load("test-catalog/unknown-keyword.json");
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> new SchemaSamples(new Random(1)).valid(schema, BOARD));
    assertTrue(unknown.getMessage().contains("'uniqueItems'"), unknown.getMessage());
  }
}
