package dev.canvasagent.schema;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONObject;

/**
 * A draft-07 JSON Schema from the classpath, compiled once, that names every violation of a document.
 * Its patterns mean what they mean to clients reading the same file ({@link EcmaRegexpFactory}).
 */
public final class JsonSchemaFile {
  static final int MAX_REPORTED_VIOLATIONS = 5;

  private final String resource;
  private final JsonObject document;
  private final Schema validator;

  private JsonSchemaFile(String resource, JsonObject document) {
    this.resource = resource;
    this.document = document;
    this.validator =
        SchemaLoader.builder()
            .schemaJson(new JSONObject(document.encode()))
            .draftV7Support()
            // ECMA-262 semantics for `pattern`, as the spec says: `$` is the end of the string, not
            // of a line.
            .regexpFactory(new EcmaRegexpFactory())
            .build()
            .load()
            .build();
  }

  public static JsonSchemaFile load(String resource) {
    try (InputStream in = JsonSchemaFile.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing JSON Schema " + resource);
      }
      return new JsonSchemaFile(
          resource, new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A schema built in code rather than read from the classpath, compiled as the files are; {@code name} names it in errors. */
  static JsonSchemaFile of(String name, JsonObject document) {
    return new JsonSchemaFile(name, document.copy());
  }

  public String resource() {
    return resource;
  }

  /** The schema document itself (a copy), e.g. to describe a tool. */
  public JsonObject document() {
    return document.copy();
  }

  /** Empty when {@code value} is valid; otherwise the first violations, each with its JSON pointer. */
  public Optional<String> violations(JsonObject value) {
    try {
      validator.validate(new JSONObject(value.encode()));
      return Optional.empty();
    } catch (ValidationException invalid) {
      List<String> messages = invalid.getAllMessages();
      return Optional.of(
          String.join(
              "; ", messages.subList(0, Math.min(messages.size(), MAX_REPORTED_VIOLATIONS))));
    }
  }
}
