package dev.canvasagent.catalog;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.TldrawStyles;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Params for any verb from its JSON Schema alone, so that a verb with only a schema is exercised by
 * the property tests without anyone writing a generator for it.
 *
 * <ul>
 *   <li>{@link #valid}: params the schema accepts — types, {@code enum} and {@code const}, {@code
 *       minimum}/{@code maximum} (and the exclusive ones), {@code minLength}/{@code maxLength},
 *       {@code pattern}, {@code required} and optional properties, arrays within {@code
 *       minItems}/{@code maxItems}, nested objects, {@code $ref} into {@code definitions}, {@code
 *       anyOf}/{@code oneOf} branches and {@code allOf} {@code if}/{@code then} — with values that
 *       are still meant to hurt: extreme numbers, strings at their longest, unknown shape ids.
 *   <li>{@link #invalid}: params the schema refuses — a valid sample with one value broken: the
 *       wrong type, out of range, a required property missing, an oversized string, an unknown key.
 *   <li>{@link #mutate}: any JSON value anywhere (valid or not: the sanitizer must cope either way).
 * </ul>
 *
 * <p>A string whose {@code pattern} takes the shape id prefix (the shape reference pattern every verb
 * uses, {@code ^(shape:)?[A-Za-z0-9_:-]{1,80}$}) names a shape: it is drawn from the board's shapes,
 * now and then a record that is not a shape or an id the board does not have. A list of them is
 * sometimes all of one type or all children of one parent, so that verbs with conditions on the set
 * (ungroup: only groups; group: one parent) are reached too. Any other patterned string (an id the
 * model makes up, a batch ref) comes from a small pool per pattern, so that ids collide and refs name
 * each other. Strings whose property name is a known word (a shape {@code type}, a {@code preset}, a
 * style such as {@code color}) are mostly drawn from that vocabulary, so that many get past the verb.
 *
 * <p>Keywords it does not know make it throw, naming the keyword: a schema using one needs it taught
 * here rather than silently getting samples that miss the point.
 */
public final class SchemaSamples {
  /** The keywords a sample follows (or that say nothing about values). */
  static final Set<String> KEYWORDS =
      Set.of(
          "$schema",
          "$id",
          "$comment",
          "title",
          "description",
          "examples",
          "default",
          "definitions",
          "type",
          "enum",
          "const",
          "properties",
          "required",
          "additionalProperties",
          "items",
          "minItems",
          "maxItems",
          "minimum",
          "maximum",
          "exclusiveMinimum",
          "exclusiveMaximum",
          "minLength",
          "maxLength",
          "pattern",
          "$ref",
          "anyOf",
          "oneOf",
          "allOf",
          "if",
          "then",
          "else");

  /** Shape words a model uses for {@code type}: tldraw types, geo kinds, nicknames, and nonsense. */
  static final List<String> SHAPE_WORDS =
      List.of(
          "geo",
          "box",
          "rectangle",
          "ellipse",
          "star",
          "cloud",
          "sticky",
          "note",
          "text",
          "headline",
          "frame",
          "section",
          "line",
          "draw",
          "pen",
          "arrow",
          "connector",
          "group",
          "highlight",
          "r",
          "teleporter");

  static final List<String> PRESETS =
      List.of(
          "Hero",
          "hero",
          "headline",
          "Callout",
          "highlight",
          "quiet",
          "muted",
          "Wire",
          "wireframe",
          "Label",
          "tag",
          " TITLE ",
          "Loud",
          "her",
          "bogus");

  /** Style words beside tldraw's own: aliases, brand names, prefixes, other styles' values. */
  static final List<String> STYLE_WORDS =
      List.of(
          "purple",
          "pink",
          "gray",
          "burnt orange",
          "Burnt_Orange",
          "brutalist orange",
          "charcoal",
          "ink",
          "filled",
          "dot",
          "huge",
          "top",
          "circle",
          "yel",
          "ora",
          "bl",
          "r",
          "nope");

  /** What a string property is mostly drawn from, by its name. */
  static final Map<String, List<String>> VOCABULARY = vocabulary();

  static Map<String, List<String>> vocabulary() {
    Map<String, Set<String>> styles =
        Map.ofEntries(
            Map.entry("color", TldrawStyles.COLORS),
            Map.entry("labelColor", TldrawStyles.COLORS),
            Map.entry("fill", TldrawStyles.FILLS),
            Map.entry("dash", TldrawStyles.DASHES),
            Map.entry("size", TldrawStyles.SIZES),
            Map.entry("font", TldrawStyles.FONTS),
            Map.entry("align", TldrawStyles.ALIGNS),
            Map.entry("verticalAlign", TldrawStyles.VERTICAL_ALIGNS),
            Map.entry("textAlign", TldrawStyles.TEXT_ALIGNS),
            Map.entry("geo", TldrawStyles.GEOS),
            Map.entry("arrowheadStart", TldrawStyles.ARROWHEADS),
            Map.entry("arrowheadEnd", TldrawStyles.ARROWHEADS),
            Map.entry("spline", TldrawStyles.SPLINES),
            Map.entry("kind", TldrawStyles.ARROW_KINDS));
    Map<String, List<String>> vocabulary = new HashMap<>();
    // Set.of iterates in an order that changes from run to run: sorted, the seed decides.
    styles.forEach(
        (name, values) ->
            vocabulary.put(
                name,
                Stream.concat(new TreeSet<>(values).stream(), STYLE_WORDS.stream()).toList()));
    vocabulary.put("type", SHAPE_WORDS);
    vocabulary.put("preset", PRESETS);
    return Map.copyOf(vocabulary);
  }

  /** Mostly plausible, sometimes extreme; all of them JSON numbers. */
  static final double[] EXTREME_NUMBERS = {
    -0.0,
    1e308,
    -1e308,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.MIN_VALUE,
    1e-308,
    10_000,
    1e6,
    -1e6,
    1e12,
    -1e12,
    1e15,
    65_504,
    65_520,
    9_999.5,
    10_001,
    -10_001,
    360,
    -720
  };

  /** What JSON cannot carry or a schema integer cannot be: for hostile values only. */
  static final Object[] SPECIAL_NUMBERS = {
    Long.MAX_VALUE,
    Long.MIN_VALUE,
    Integer.MAX_VALUE,
    Integer.MIN_VALUE,
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    0L,
    1000,
    1001,
    -1
  };

  static final String SHAPE_PREFIX = "shape:";

  private final Random random;
  private final Map<String, List<String>> pools = new HashMap<>();
  private int bigArraysLeft;

  public SchemaSamples(Random random) {
    this.random = random;
  }

  /**
   * Arrays of thousands of items (an array at its {@code maxItems}, or one past it) are slow to
   * validate: at most this many more, then arrays stay short.
   */
  public SchemaSamples allowBigArrays(int count) {
    bigArraysLeft = count;
    return this;
  }

  // Valid params

  /** Params {@code schema} accepts, naming shapes on {@code board} (mostly). */
  public JsonObject valid(JsonSchemaFile schema, Board board) {
    return (JsonObject) new Sampling(schema.document(), shapes(board)).value(null, "params", 0);
  }

  /** A valid sample whose one value is then made wrong, so that the schema refuses it. */
  public JsonObject invalid(JsonSchemaFile schema, Board board) {
    JsonObject document = schema.document();
    Shapes shapes = shapes(board);
    for (int attempt = 0; attempt < 50; attempt++) {
      Sampling sampling = new Sampling(document, shapes);
      JsonObject params = (JsonObject) sampling.value(null, "params", 0);
      List<Runnable> breaks = new ArrayList<>();
      sampling.breaks(document, params, breaks, 0);
      if (breaks.isEmpty()) {
        continue;
      }
      breaks.get(random.nextInt(breaks.size())).run();
      if (schema.violations(params).isPresent()) {
        return params;
      }
    }
    throw new IllegalStateException(
        "SchemaSamples cannot break " + document.getString("title") + "'s params");
  }

  /** One sampling: the schema document ({@code $ref}s resolve in it) and the board's shapes. */
  private final class Sampling {
    final JsonObject root;
    final Shapes shapes;

    Sampling(JsonObject root, Shapes shapes) {
      this.root = root;
      this.shapes = shapes;
    }

    JsonObject resolve(JsonObject schema) {
      while (schema.containsKey("$ref")) {
        String ref = schema.getString("$ref");
        if (!ref.startsWith("#/")) {
          throw new IllegalArgumentException("SchemaSamples follows local $refs only: " + ref);
        }
        JsonObject target = root;
        for (String part : ref.substring(2).split("/")) {
          target = target.getJsonObject(part);
        }
        schema = target;
      }
      for (String keyword : schema.fieldNames()) {
        if (!KEYWORDS.contains(keyword)) {
          throw new IllegalArgumentException(
              "SchemaSamples does not know the keyword '"
                  + keyword
                  + "' (in "
                  + root.getString("title")
                  + "): teach it before a schema uses it");
        }
      }
      return schema;
    }

    String type(JsonObject schema) {
      Object type = schema.getValue("type");
      if (type instanceof String name) {
        return name;
      }
      if (type instanceof JsonArray names && !names.isEmpty()) {
        return names.getString(random.nextInt(names.size()));
      }
      if (schema.containsKey("properties") || schema.containsKey("required")) {
        return "object";
      }
      if (schema.containsKey("items")) {
        return "array";
      }
      return List.of("string", "number", "boolean").get(random.nextInt(3));
    }

    Object value(JsonObject schema, String name, int depth) {
      schema = resolve(schema == null ? root : schema);
      if (schema.containsKey("const")) {
        return schema.getValue("const");
      }
      JsonArray enumeration = schema.getJsonArray("enum");
      if (enumeration != null) {
        return enumeration.getValue(random.nextInt(enumeration.size()));
      }
      return switch (type(schema)) {
        case "object" -> object(schema, depth);
        case "array" -> array(schema, name, depth);
        case "string" -> string(schema, name);
        case "integer" -> integer(schema);
        case "number" -> number(schema);
        case "boolean" -> random.nextBoolean();
        case "null" -> null;
        default ->
            throw new IllegalArgumentException(
                "SchemaSamples does not know the type " + schema.getValue("type"));
      };
    }

    JsonObject object(JsonObject schema, int depth) {
      JsonObject properties =
          new JsonObject().mergeIn(schema.getJsonObject("properties", new JsonObject()));
      Set<String> required = new LinkedHashSet<>(strings(schema.getJsonArray("required")));
      Set<String> excluded = new LinkedHashSet<>();
      // One branch of anyOf / oneOf: its required properties (and its property schemas) apply.
      for (String combinator : List.of("anyOf", "oneOf")) {
        JsonArray branches = schema.getJsonArray(combinator);
        if (branches == null || branches.isEmpty()) {
          continue;
        }
        int chosen = random.nextInt(branches.size());
        for (int i = 0; i < branches.size(); i++) {
          JsonObject branch = resolve(branches.getJsonObject(i));
          if (i == chosen) {
            properties.mergeIn(branch.getJsonObject("properties", new JsonObject()));
            required.addAll(strings(branch.getJsonArray("required")));
          } else if (combinator.equals("oneOf")) {
            excluded.addAll(strings(branch.getJsonArray("required")));
          }
        }
      }
      excluded.removeAll(required);
      List<JsonObject> conditions = new ArrayList<>();
      conditions.add(schema);
      for (Object part : schema.getJsonArray("allOf", new JsonArray())) {
        JsonObject subschema = resolve((JsonObject) part);
        properties.mergeIn(subschema.getJsonObject("properties", new JsonObject()));
        required.addAll(strings(subschema.getJsonArray("required")));
        conditions.add(subschema);
      }
      JsonObject object = new JsonObject();
      double optional = depth == 0 ? 0.65 : 0.5;
      Map<String, Boolean> pairs = new HashMap<>();
      for (String property : properties.fieldNames()) {
        if (excluded.contains(property)) {
          continue;
        }
        if (required.contains(property)
            || pairs.computeIfAbsent(pair(property), key -> random.nextDouble() < optional)) {
          object.put(property, value(properties.getJsonObject(property), property, depth + 1));
        }
      }
      for (String property : required) {
        if (!object.containsKey(property)) {
          JsonObject propertySchema = properties.getJsonObject(property, new JsonObject());
          object.put(property, value(propertySchema, property, depth + 1));
        }
      }
      // if / then / else: what the condition's outcome requires, once the object is known.
      for (JsonObject condition : conditions) {
        if (!condition.containsKey("if")) {
          continue;
        }
        JsonObject outcome =
            holds(resolve(condition.getJsonObject("if")), object)
                ? condition.getJsonObject("then")
                : condition.getJsonObject("else");
        if (outcome == null) {
          continue;
        }
        outcome = resolve(outcome);
        JsonObject outcomeProperties = outcome.getJsonObject("properties", new JsonObject());
        for (String property : strings(outcome.getJsonArray("required"))) {
          if (!object.containsKey(property)) {
            JsonObject propertySchema =
                outcomeProperties.getJsonObject(
                    property, properties.getJsonObject(property, new JsonObject()));
            object.put(property, value(propertySchema, property, depth + 1));
          }
        }
      }
      return object;
    }

    /** Whether an {@code if} holds: its required properties present, and each present one's const or enum met. */
    boolean holds(JsonObject condition, JsonObject object) {
      if (!object.fieldNames().containsAll(strings(condition.getJsonArray("required")))) {
        return false;
      }
      JsonObject properties = condition.getJsonObject("properties", new JsonObject());
      for (String property : properties.fieldNames()) {
        if (!object.containsKey(property)) {
          continue;
        }
        JsonObject test = resolve(properties.getJsonObject(property));
        Object value = object.getValue(property);
        if (test.containsKey("const") && !Objects.equals(test.getValue("const"), value)) {
          return false;
        }
        if (test.containsKey("enum") && !test.getJsonArray("enum").contains(value)) {
          return false;
        }
      }
      return true;
    }

    JsonArray array(JsonObject schema, String name, int depth) {
      int min = schema.getInteger("minItems", 0);
      int max = schema.getInteger("maxItems", Math.max(min, 20));
      int length;
      if (bigArraysLeft > 0 && random.nextInt(25) == 0) {
        bigArraysLeft--;
        length = max;
      } else {
        length = Math.min(max, min + random.nextInt(depth == 0 ? 6 : 4));
      }
      JsonObject items = resolve(schema.getJsonObject("items", new JsonObject()));
      JsonArray array = new JsonArray();
      if (isShapeReference(items)) {
        shapes.pickMany(length).forEach(array::add);
        return array;
      }
      for (int i = 0; i < length; i++) {
        array.add(value(items, name, depth + 1));
      }
      return array;
    }

    String string(JsonObject schema, String name) {
      if (isShapeReference(schema)) {
        return shapes.pick();
      }
      int min = schema.getInteger("minLength", 0);
      int max = schema.getInteger("maxLength", 10_000);
      String pattern = schema.getString("pattern");
      Pattern compiled = pattern == null ? null : Pattern.compile(pattern);
      for (int attempt = 0; attempt < 50; attempt++) {
        String candidate = candidate(name, pattern, min, max);
        if (candidate.length() < min) {
          candidate = candidate + "x".repeat(min - candidate.length());
        }
        if (candidate.length() > max) {
          candidate = candidate.substring(0, max);
        }
        if (compiled == null || compiled.matcher(candidate).find()) {
          return candidate;
        }
      }
      throw new IllegalArgumentException(
          "SchemaSamples cannot write a string for pattern " + pattern + " in " + name);
    }

    String candidate(String name, String pattern, int min, int max) {
      if (pattern != null && pattern.startsWith("^")) {
        // An id of the model's own or a ref: from a small pool, so that they collide and name
        // each other.
        List<String> pool =
            pools.computeIfAbsent(pattern + "|" + min + "|" + max, key -> pool(pattern, min, max));
        return pool.get(random.nextInt(pool.size()));
      }
      List<String> words = VOCABULARY.get(name);
      int roll = random.nextInt(12);
      if (words != null && roll < 9) {
        return words.get(random.nextInt(words.size()));
      }
      return switch (roll) {
        case 6, 7 -> min == 0 && random.nextBoolean() ? "" : " ";
        case 8, 11 -> "  Some words, " + random.nextInt(1000) + "\nand a second line ";
        case 9 -> "x".repeat(Math.max(min, Math.min(max, 10_000)));
        case 10 -> "🎨 ✓ ünïcödé \u202e " + random.nextInt(100);
        default -> "words " + random.nextInt(1000);
      };
    }

    /** Six values of a pattern, short ones first tried as {@code r0}, {@code r1}, … */
    List<String> pool(String pattern, int min, int max) {
      Pattern compiled = Pattern.compile(pattern);
      List<String> pool = new ArrayList<>();
      for (int i = 0; pool.size() < 6 && i < 6; i++) {
        String simple = "r" + i;
        if (simple.length() >= min && simple.length() <= max && compiled.matcher(simple).find()) {
          pool.add(simple);
        }
      }
      for (int attempt = 0; pool.size() < 6 && attempt < 500; attempt++) {
        String generated = PatternStrings.generate(pattern, random);
        if (generated.length() >= min
            && generated.length() <= max
            && compiled.matcher(generated).find()
            && !pool.contains(generated)) {
          pool.add(generated);
        }
      }
      if (pool.isEmpty()) {
        throw new IllegalArgumentException(
            "SchemaSamples cannot write a string for pattern " + pattern);
      }
      return pool;
    }

    long integer(JsonObject schema) {
      long min =
          schema.getValue("minimum") instanceof Number minimum
              ? (long) Math.ceil(minimum.doubleValue())
              : schema.getValue("exclusiveMinimum") instanceof Number above
                  ? (long) Math.floor(above.doubleValue()) + 1
                  : -1_000;
      long max =
          schema.getValue("maximum") instanceof Number maximum
              ? (long) Math.floor(maximum.doubleValue())
              : schema.getValue("exclusiveMaximum") instanceof Number below
                  ? (long) Math.ceil(below.doubleValue()) - 1
                  : Math.max(min, 0) + 1_000;
      if (random.nextInt(8) == 0) {
        return random.nextBoolean() ? min : max;
      }
      return Math.min(max, min + (long) (random.nextDouble() * (max - min + 1)));
    }

    double number(JsonObject schema) {
      Double min =
          schema.getValue("minimum") instanceof Number number ? number.doubleValue() : null;
      Double max =
          schema.getValue("maximum") instanceof Number number ? number.doubleValue() : null;
      Double above =
          schema.getValue("exclusiveMinimum") instanceof Number number
              ? number.doubleValue()
              : null;
      Double below =
          schema.getValue("exclusiveMaximum") instanceof Number number
              ? number.doubleValue()
              : null;
      double value = plainNumber();
      if (min != null && value < min || above != null && value <= above) {
        double floor = min != null ? min : Math.nextUp(above);
        value =
            switch (random.nextInt(6)) {
              case 0 -> floor;
              case 1 -> floor + Math.abs(value);
              default -> floor + random.nextDouble() * 3;
            };
      }
      if (max != null && value > max || below != null && value >= below) {
        double ceiling = max != null ? max : Math.nextDown(below);
        double floor = min != null ? min : above != null ? Math.nextUp(above) : ceiling - 1000;
        value = random.nextInt(6) == 0 ? ceiling : floor + random.nextDouble() * (ceiling - floor);
      }
      return value;
    }

    /** Mostly modest numbers, sometimes negative or fractional, now and then extreme. */
    double plainNumber() {
      return switch (random.nextInt(20)) {
        case 0 -> EXTREME_NUMBERS[random.nextInt(EXTREME_NUMBERS.length)];
        case 1, 2 -> -random.nextDouble() * 1000;
        case 3, 4 -> Math.round(random.nextDouble() * 1000) / 1000.0;
        case 5 -> random.nextInt(3) - 1;
        default -> random.nextInt(2000);
      };
    }

    // Breaking a valid sample: each way one of its values can be made wrong

    void breaks(JsonObject schema, Object value, List<Runnable> breaks, int depth) {
      if (depth > 6) {
        return;
      }
      schema = resolve(schema);
      if (value instanceof JsonObject object) {
        JsonObject properties =
            new JsonObject().mergeIn(schema.getJsonObject("properties", new JsonObject()));
        for (Object part : schema.getJsonArray("allOf", new JsonArray())) {
          properties.mergeIn(
              resolve((JsonObject) part).getJsonObject("properties", new JsonObject()));
        }
        if (Boolean.FALSE.equals(schema.getValue("additionalProperties"))) {
          breaks.add(() -> object.put(unknownKey(properties), anything(2)));
        }
        for (String property : strings(schema.getJsonArray("required"))) {
          if (object.containsKey(property)) {
            breaks.add(() -> object.remove(property));
          }
        }
        for (String property : List.copyOf(object.fieldNames())) {
          JsonObject propertySchema = properties.getJsonObject(property);
          if (propertySchema == null) {
            continue;
          }
          JsonObject resolved = resolve(propertySchema);
          Object current = object.getValue(property);
          for (Object wrong : wrongValues(resolved, current)) {
            breaks.add(() -> object.put(property, wrong));
          }
          breaks(resolved, current, breaks, depth + 1);
        }
      } else if (value instanceof JsonArray array) {
        int min = schema.getInteger("minItems", 0);
        if (min > 0 && array.size() >= min) {
          breaks.add(
              () -> {
                while (array.size() >= min) {
                  array.remove(array.size() - 1);
                }
              });
        }
        Integer max = schema.getInteger("maxItems");
        if (max != null && !array.isEmpty() && (max < 50 || bigArraysLeft > 0)) {
          breaks.add(
              () -> {
                if (max >= 50) {
                  bigArraysLeft--;
                }
                Object first = array.getValue(0);
                while (array.size() <= max) {
                  array.add(first instanceof JsonObject copy ? copy.copy() : first);
                }
              });
        }
        JsonObject items = resolve(schema.getJsonObject("items", new JsonObject()));
        if (!array.isEmpty()) {
          int index = random.nextInt(array.size());
          for (Object wrong : wrongValues(items, array.getValue(index))) {
            breaks.add(() -> array.set(index, wrong));
          }
          breaks(items, array.getValue(index), breaks, depth + 1);
        }
      }
    }

    /** Values that the schema refuses where {@code current} is: of another type, out of range, off the pattern. */
    List<Object> wrongValues(JsonObject schema, Object current) {
      List<Object> wrong = new ArrayList<>();
      String type = schema.getValue("type") instanceof String name ? name : null;
      if (type != null) {
        for (Object other : otherTypes()) {
          if (!ofType(other, type)) {
            wrong.add(other);
          }
        }
      }
      if (schema.containsKey("enum") || schema.containsKey("const")) {
        wrong.add(String.valueOf(current).toUpperCase(java.util.Locale.ROOT) + "-ish");
      }
      if (current instanceof Number) {
        Stream.of("minimum", "exclusiveMinimum")
            .map(schema::getValue)
            .filter(Number.class::isInstance)
            .map(Number.class::cast)
            .forEach(
                bound -> {
                  wrong.add(bound.doubleValue() - 1);
                  wrong.add(bound.doubleValue() - 1e-9);
                  if (schema.containsKey("exclusiveMinimum")) {
                    wrong.add(bound);
                  }
                  wrong.add(-1e308);
                });
        Stream.of("maximum", "exclusiveMaximum")
            .map(schema::getValue)
            .filter(Number.class::isInstance)
            .map(Number.class::cast)
            .forEach(
                bound -> {
                  wrong.add(bound.doubleValue() + 1);
                  wrong.add(1e308);
                });
        if ("integer".equals(type)) {
          wrong.add(((Number) current).longValue() + 0.5);
        }
      }
      if (current instanceof String text) {
        if (schema.getValue("maxLength") instanceof Integer max) {
          wrong.add("y".repeat(max + 1));
        }
        if (schema.getValue("minLength") instanceof Integer min && min > 0) {
          wrong.add("z".repeat(min - 1));
        }
        if (schema.containsKey("pattern")) {
          wrong.add(text + "\n");
          wrong.add("no spaces! " + text);
          wrong.add("");
          wrong.add(" \t\n ");
        }
      }
      return wrong;
    }
  }

  static List<Object> otherTypes() {
    return java.util.Arrays.asList(
        null,
        true,
        12.5,
        7,
        "12",
        "",
        new JsonArray().add(1).add("a"),
        new JsonObject().put("x", 1));
  }

  static boolean ofType(Object value, String type) {
    return switch (type) {
      case "object" -> value instanceof JsonObject;
      case "array" -> value instanceof JsonArray;
      case "string" -> value instanceof String;
      case "number" -> value instanceof Number;
      case "integer" ->
          value instanceof Integer
              || value instanceof Long
              || value instanceof Double number && number == Math.rint(number);
      case "boolean" -> value instanceof Boolean;
      case "null" -> value == null;
      default -> false;
    };
  }

  String unknownKey(JsonObject properties) {
    String key;
    do {
      key = random.nextInt(3) == 0 ? "props" : randomWord(1 + random.nextInt(8));
    } while (properties.containsKey(key));
    return key;
  }

  /**
   * Optional properties that come in pairs are given or left out together: {@code x} and {@code y},
   * {@code dx} and {@code dy}, {@code originX} and {@code originY}, {@code w} and {@code h}.
   */
  static String pair(String property) {
    if (property.equals("w") || property.equals("h")) {
      return "w|h";
    }
    char last = property.charAt(property.length() - 1);
    return "xXyY".indexOf(last) >= 0
        ? property.substring(0, property.length() - 1) + "|x/y"
        : property;
  }

  static List<String> strings(JsonArray array) {
    return array == null ? List.of() : array.stream().map(String.class::cast).toList();
  }

  /** A string schema whose pattern takes a {@code shape:} prefix: a shape reference. */
  public static boolean isShapeReference(JsonObject schema) {
    return "string".equals(schema.getValue("type"))
        && schema.getString("pattern", "").contains(SHAPE_PREFIX);
  }

  Shapes shapes(Board board) {
    List<String> shapes = new ArrayList<>();
    List<String> others = new ArrayList<>();
    Map<String, List<String>> byType = new LinkedHashMap<>();
    Map<String, List<String>> byParent = new LinkedHashMap<>();
    for (JsonObject record : board.records().values()) {
      String id = record.getString("id");
      if (!"shape".equals(record.getString("typeName"))) {
        others.add(id);
        continue;
      }
      shapes.add(id);
      byType
          .computeIfAbsent(String.valueOf(record.getValue("type")), key -> new ArrayList<>())
          .add(id);
      byParent
          .computeIfAbsent(String.valueOf(record.getValue("parentId")), key -> new ArrayList<>())
          .add(id);
    }
    return new Shapes(shapes, others, byType, byParent);
  }

  /** The board's shapes, as a sample names them. */
  private final class Shapes {
    final List<String> shapes;
    final List<String> others;
    final Map<String, List<String>> byType;
    final Map<String, List<String>> byParent;

    Shapes(
        List<String> shapes,
        List<String> others,
        Map<String, List<String>> byType,
        Map<String, List<String>> byParent) {
      this.shapes = shapes;
      this.others = others;
      this.byType = byType;
      this.byParent = byParent;
    }

    /** A shape's id, as a model writes it ({@code box1} or {@code shape:box1}); sometimes no shape. */
    String pick() {
      return random.nextInt(8) == 0 || shapes.isEmpty()
          ? stranger()
          : named(shapes.get(random.nextInt(shapes.size())));
    }

    /** An id of no shape: unknown to the board, or a record that is not a shape. */
    String stranger() {
      return random.nextInt(3) > 0 || others.isEmpty()
          ? "ghost" + random.nextInt(5)
          : others.get(random.nextInt(others.size()));
    }

    String named(String id) {
      return id.startsWith(SHAPE_PREFIX) && random.nextBoolean()
          ? id.substring(SHAPE_PREFIX.length())
          : id;
    }

    /**
     * {@code count} shape ids: mostly all of one type (ungroup wants groups only), else all children
     * of one parent or any shapes; in one list of ten, one of them is a stranger.
     */
    List<String> pickMany(int count) {
      List<String> pool =
          switch (random.nextInt(6)) {
            case 0, 1, 2, 3 -> oneOf(byType);
            case 4 -> oneOf(byParent);
            default -> shapes;
          };
      List<String> picked = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        picked.add(pool.isEmpty() ? stranger() : named(pool.get(random.nextInt(pool.size()))));
      }
      if (count > 0 && random.nextInt(10) == 0) {
        picked.set(random.nextInt(count), stranger());
      }
      return picked;
    }

    /** One of the groups that has several shapes (a list of one type means something then). */
    List<String> oneOf(Map<String, List<String>> groups) {
      List<List<String>> several =
          groups.values().stream().filter(group -> group.size() > 1).toList();
      return several.isEmpty() ? shapes : several.get(random.nextInt(several.size()));
    }
  }

  // Anything at all

  /** Replaces, removes or adds one value somewhere in the tree: any type at all, or a hostile one. */
  public void mutate(JsonObject params) {
    List<Object> containers = new ArrayList<>();
    collect(params, containers, 0);
    Object target = containers.get(random.nextInt(containers.size()));
    if (target instanceof JsonObject object) {
      List<String> keys = List.copyOf(object.fieldNames());
      int roll = random.nextInt(10);
      if (keys.isEmpty() || roll == 0) {
        object.put(random.nextBoolean() ? randomWord(5) : "props", anything(1));
      } else if (roll == 1) {
        object.remove(keys.get(random.nextInt(keys.size())));
      } else {
        object.put(keys.get(random.nextInt(keys.size())), anything(1));
      }
    } else if (target instanceof JsonArray array && !array.isEmpty()) {
      array.set(random.nextInt(array.size()), anything(1));
    }
  }

  static void collect(Object value, List<Object> containers, int depth) {
    if (depth > 4) {
      return;
    }
    if (value instanceof JsonObject object) {
      containers.add(object);
      object.forEach(entry -> collect(entry.getValue(), containers, depth + 1));
    } else if (value instanceof JsonArray array) {
      containers.add(array);
      for (int i = 0; i < Math.min(array.size(), 8); i++) {
        collect(array.getValue(i), containers, depth + 1);
      }
    }
  }

  /** Any JSON value at all, of any type: objects 50 deep, arrays of 5000 items, NaN. */
  public Object anything(int depth) {
    return switch (random.nextInt(depth > 2 ? 6 : 11)) {
      case 0 -> null;
      case 1 -> random.nextBoolean();
      case 2, 3 -> wildNumber();
      case 4, 5 -> hostileString();
      case 6 -> nested(50);
      case 7 -> nestedArrays(50);
      case 8 -> {
        JsonArray big = new JsonArray();
        int length = bigArraysLeft > 0 ? 5000 : 20;
        bigArraysLeft--;
        for (int i = 0; i < length; i++) {
          big.add(random.nextBoolean() ? i : new JsonObject().put("x", i).put("y", -i));
        }
        yield big;
      }
      case 9 ->
          new JsonObject().put(randomWord(4), anything(depth + 1)).put("x", anything(depth + 1));
      default -> new JsonArray().add(anything(depth + 1)).add(anything(depth + 1));
    };
  }

  /** Any number, including what JSON cannot carry (NaN, infinities) and out-of-range integers. */
  Object wildNumber() {
    return switch (random.nextInt(4)) {
      case 0 -> SPECIAL_NUMBERS[random.nextInt(SPECIAL_NUMBERS.length)];
      case 1 -> random.nextGaussian() * 1e4;
      case 2 -> random.nextDouble() * 10;
      default -> EXTREME_NUMBERS[random.nextInt(EXTREME_NUMBERS.length)];
    };
  }

  String hostileString() {
    return switch (random.nextInt(14)) {
      case 0 -> "";
      case 1 -> " \t\n ";
      case 2 -> "x".repeat(10_000);
      case 3 -> "y".repeat(10_001);
      case 4 -> "🎨 ✓ ünïcödé \u202e";
      case 5 -> "\u0000\u0001";
      case 6 -> SHAPE_PREFIX;
      case 7 -> "line1\nline2\n\nline4";
      case 8 -> "\"quoted\" <b>{}</b> ${x} ../../";
      case 9 -> "NaN";
      case 10 -> "-1e308";
      case 11 -> randomWord(1 + random.nextInt(80));
      case 12 -> SHAPE_WORDS.get(random.nextInt(SHAPE_WORDS.size()));
      default -> STYLE_WORDS.get(random.nextInt(STYLE_WORDS.size()));
    };
  }

  String randomWord(int length) {
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-: ";
    StringBuilder word = new StringBuilder();
    for (int i = 0; i < length; i++) {
      word.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return word.toString();
  }

  static JsonObject nested(int depth) {
    JsonObject inner = new JsonObject().put("x", 1);
    for (int i = 0; i < depth; i++) {
      inner = new JsonObject().put("a", inner).put("x", i);
    }
    return inner;
  }

  static JsonArray nestedArrays(int depth) {
    JsonArray inner = new JsonArray().add(1);
    for (int i = 0; i < depth; i++) {
      inner = new JsonArray().add(inner).add(i);
    }
    return inner;
  }
}
