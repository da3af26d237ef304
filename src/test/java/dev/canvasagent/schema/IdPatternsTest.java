package dev.canvasagent.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every anchored {@code pattern} (an id's: {@code ^…$}) in the schemas under {@code api/},
 * {@code catalog/} and {@code doctools/} holds for the whole string, as JSON Schema's ECMA-262
 * patterns do: a valid id with a line terminator appended is refused, naming the field. Java's
 * {@code $} would also match before a final line terminator.
 */
class IdPatternsTest {
  static final List<String> FOLDERS = List.of("api", "catalog", "doctools");

  /** A valid value for each id pattern the schemas use; a new pattern needs its sample here. */
  static final Map<String, String> SAMPLES =
      Map.of(
          "^[A-Za-z0-9_-]{1,64}$", "demo",
          "^[A-Za-z0-9_-]{1,100}$", "6f1c2a0e-9d3b-4f5e-8a7b-0c1d2e3f4a5b",
          "^(shape:)?[A-Za-z0-9_:-]{1,80}$", "shape:box1",
          "^[0-9a-f]{16}$", "0123456789abcdef",
          "^[a-z0-9_]+$", "ref_1",
          // A tldraw shape id a person's page names (selection, pinned context): anything
          // printable.
          "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+$", "shape:box 1");

  /** What Java's {@code $} lets through before the end: line feed, carriage return, line separator. */
  static final List<String> TERMINATORS = List.of("\n", "\r", "\u2028");

  /** A schema (with its file's definitions) whose pattern is anchored, and the field it belongs to. */
  record IdField(
      String file, String pointer, String field, JsonObject schema, JsonObject definitions) {
    String pattern() {
      return schema.getString("pattern");
    }

    @Override
    public String toString() {
      return file + "#" + pointer;
    }
  }

  static Stream<IdField> idFields() {
    List<IdField> found = new ArrayList<>();
    for (String folder : FOLDERS) {
      try (Stream<Path> files = Files.list(folder(folder))) {
        for (Path file :
            files.filter(path -> path.toString().endsWith(".json")).sorted().toList()) {
          JsonObject document = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
          collect(
              folder + "/" + file.getFileName(),
              document,
              "",
              null,
              document.getJsonObject("definitions", new JsonObject()),
              found);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return found.stream();
  }

  private static Path folder(String name) {
    try {
      return Path.of(JsonSchemaFile.class.getClassLoader().getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Walks a schema; {@code field} is the nearest property (or definition) the walk went through. */
  private static void collect(
      String file,
      Object node,
      String pointer,
      String field,
      JsonObject definitions,
      List<IdField> found) {
    if (node instanceof JsonObject schema) {
      if (schema.getValue("pattern") instanceof String pattern
          && pattern.startsWith("^")
          && pattern.endsWith("$")) {
        found.add(new IdField(file, pointer, field, schema, definitions));
      }
      for (String key : schema.fieldNames()) {
        boolean named = pointer.endsWith("/properties") || pointer.endsWith("/definitions");
        collect(
            file,
            schema.getValue(key),
            pointer + "/" + key,
            named ? key : field,
            definitions,
            found);
      }
    } else if (node instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        collect(file, array.getValue(i), pointer + "/" + i, field, definitions, found);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("idFields")
  void anIdWithALineTerminatorAppendedIsRefusedNamingTheField(IdField id) {
    String sample = SAMPLES.get(id.pattern());
    assertNotNull(sample, id + ": add a valid sample of " + id.pattern() + " to SAMPLES");
    assertNotNull(id.field(), id + ": a pattern outside any property");
    JsonSchemaFile schema =
        JsonSchemaFile.of(
            id.toString(),
            new JsonObject()
                .put("$schema", "http://json-schema.org/draft-07/schema#")
                .put("definitions", id.definitions())
                .put("type", "object")
                .put("properties", new JsonObject().put(id.field(), id.schema())));

    assertEquals(
        Optional.empty(),
        schema.violations(new JsonObject().put(id.field(), sample)),
        id + ": the sample is valid");
    for (String terminator : TERMINATORS) {
      Optional<String> refused =
          schema.violations(new JsonObject().put(id.field(), sample + terminator));
      String what =
          id + " with U+" + String.format("%04X", (int) terminator.charAt(0)) + " appended";
      assertTrue(refused.isPresent(), what + " was accepted");
      assertTrue(refused.get().contains("#/" + id.field()), what + ": " + refused.get());
    }
  }

  @Test
  void theWalkFindsTheIdsOfEveryFolder() {
    Set<String> files = idFields().map(IdField::file).collect(Collectors.toSet());
    for (String expected :
        List.of(
            "api/run-request.json",
            "api/cancel.json",
            "api/ack.json",
            "api/session-create.json",
            "api/doc-create.json",
            "api/doc-agent.json",
            "api/edit-request.json",
            "api/doc-edit.json",
            "catalog/move.json",
            "catalog/batch_operations.json",
            "doctools/canvas_apply_patch.json")) {
      assertTrue(files.contains(expected), expected + " has an id pattern: " + files);
    }
    assertEquals(
        Set.of("roomId", "sessionId", "selection"),
        idFields()
            .filter(id -> id.file().equals("api/run-request.json"))
            .map(IdField::field)
            .collect(Collectors.toSet()));
  }
}
