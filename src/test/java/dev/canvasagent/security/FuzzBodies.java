package dev.canvasagent.security;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Seeded hostile bodies for the fuzz pass: a valid body mutated (fields dropped, added or retyped,
 * edge numbers, long and strange strings, deep nesting, duplicate keys, truncation, flipped bytes, a
 * wrong content type, nothing at all), or random JSON. Each comes as the raw bytes a client could send,
 * with a one-line description of what was done to it, so a finding can be read and replayed.
 */
final class FuzzBodies {
  /**
   * {@code contentType} null: no Content-Type header. {@code mustBeRefused}: the mutation made the body
   * one that every endpoint has to refuse (an id ending in a line terminator, a NUL in a text).
   */
  record Body(String mutation, String contentType, Buffer bytes, boolean mustBeRefused) {
    Body(String mutation, String contentType, Buffer bytes) {
      this(mutation, contentType, bytes, false);
    }

    String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }

  static final String JSON = "application/json";

  /** A placeholder that {@link #encode} replaces with raw text that no JSON library would write. */
  private static final String RAW = "@@raw@@";

  private static final List<String> CONTENT_TYPES =
      List.of(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=fuzz",
          "application/json-patch+json",
          "APPLICATION/JSON",
          "application/jsonx",
          "application/json; charset=utf-16",
          "",
          ";",
          "application/xml",
          "image/png");
  private static final List<String> RAW_NUMBERS =
      List.of(
          "NaN",
          "-NaN",
          "Infinity",
          "-Infinity",
          "1e999",
          "-1e999",
          "0x10",
          "01",
          "+1",
          ".5",
          "1.",
          "1e",
          "-",
          "123456789012345678901234567890e-5",
          "tru",
          "nul",
          "undefined");
  private static final List<Object> EDGE_NUMBERS =
      List.of(
          Long.MAX_VALUE,
          Long.MIN_VALUE,
          9007199254740993L,
          -9007199254740993L,
          -1,
          0,
          1,
          Integer.MAX_VALUE + 1L,
          Integer.MIN_VALUE - 1L,
          1e308,
          -1e308,
          4.9e-324,
          -0.0,
          1.5,
          -2.5,
          2,
          3,
          7,
          50,
          1_000,
          65_536,
          946684800000L,
          4102444800000L,
          4102444800001L,
          new BigInteger("1" + "0".repeat(40)),
          new BigInteger("-" + "9".repeat(30)));
  private static final List<String> STRANGE =
      List.of(
          "",
          " ",
          "\u0000",
          "\u0007\u001b[31m",
          "\n",
          "\r\n",
          "\t",
          "\u202eevil",
          "\ufeff",
          "\ud800",
          "\udfff",
          "😀",
          "é",
          "e\u0301",
          "%00",
          "%zz",
          "../../etc/passwd",
          "..",
          "<script>alert(1)</script>",
          "'; DROP TABLE canvas_agent_sessions;--",
          "${jndi:ldap://x/a}",
          "{{7*7}}",
          "room.a.agent:action",
          "*",
          "null",
          "true",
          "0",
          "-1",
          "[]",
          "{}",
          "\\",
          "\"",
          "a.b",
          "a/b",
          "a b",
          "\u2028",
          "\uffff",
          "\u00ad",
          "𝔘𝔫𝔦",
          "ﷺ",
          "Ⅻ",
          "shape:",
          "shape:a\u0000b");

  /** What Java's {@code $} matches before, at the end of a string: each must still fail an id's pattern. */
  static final List<String> LINE_TERMINATORS =
      List.of("\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085");

  /** The fields that hold ids, by name: an id with a line terminator after it is not that id. */
  private static final Pattern ID_FIELD = Pattern.compile("id|.*Id|.*_id|.*Ids|parentId");

  private static final Pattern ID_VALUE = Pattern.compile("[A-Za-z0-9_:-]{1,80}");
  private static final List<String> KEYS =
      List.of(
          "__proto__",
          "constructor",
          "$ref",
          "id",
          "type",
          "roomId",
          "sessionId",
          "extra",
          "",
          " ",
          "\u0000",
          "a".repeat(300),
          "x-y",
          "0");

  private final Random random;

  FuzzBodies(Random random) {
    this.random = random;
  }

  /** A hostile variant of {@code valid}, sometimes {@code valid} itself so the accepting paths run too. */
  Body next(JsonObject valid) {
    int pick = random.nextInt(100);
    if (pick < 5) {
      return json("random JSON value", randomValue(0));
    } else if (pick < 10) {
      return json("random JSON object", randomObject(0));
    } else if (pick < 13) {
      return new Body("empty body", random.nextBoolean() ? JSON : null, Buffer.buffer());
    } else if (pick < 19) {
      String text = valid.encode();
      int cut = random.nextInt(Math.max(1, text.length()));
      return new Body("truncated at " + cut, JSON, Buffer.buffer(text.substring(0, cut)));
    } else if (pick < 23) {
      return flipped(valid.encode());
    } else if (pick < 28) {
      return duplicateKey(valid);
    } else if (pick < 33) {
      String type = pick(CONTENT_TYPES);
      return new Body("content-type '" + type + "'", type, Buffer.buffer(valid.encode()));
    } else if (pick < 40) {
      return new Body("valid", random.nextInt(4) == 0 ? null : JSON, Buffer.buffer(valid.encode()));
    } else if (pick < 46) {
      Body refused = mustBeRefused(valid);
      if (refused != null) {
        return refused;
      }
    }
    JsonObject body = valid.copy();
    List<String> done = new ArrayList<>();
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      done.add(mutate(body));
    }
    return new Body(String.join("; ", done), JSON, Buffer.buffer(encode(body)));
  }

  /** The body as a client that means no harm would write it, or with the placeholders of {@link #raw} filled in. */
  static String encode(Object value) {
    String text =
        value instanceof JsonObject object
            ? object.encode()
            : value instanceof JsonArray array
                ? array.encode()
                : io.vertx.core.json.Json.encode(value);
    StringBuilder out = new StringBuilder();
    int at = 0;
    String marker = "\"" + RAW;
    for (int start = text.indexOf(marker); start >= 0; start = text.indexOf(marker, at)) {
      int end = text.indexOf(RAW + "\"", start + marker.length());
      if (end < 0) {
        break;
      }
      out.append(text, at, start).append(unescape(text.substring(start + marker.length(), end)));
      at = end + RAW.length() + 1;
    }
    return out.append(text.substring(at)).toString();
  }

  /** A value {@link #encode} writes as {@code text} itself, not as a string. */
  private static String raw(String text) {
    return RAW + text + RAW;
  }

  private static String unescape(String encoded) {
    return encoded.replace("\\\"", "\"").replace("\\\\", "\\");
  }

  private Body json(String mutation, Object value) {
    return new Body(mutation, JSON, Buffer.buffer(encode(value)));
  }

  /**
   * A body every endpoint must refuse: an id field (by name) with a line terminator after its value, or
   * a NUL somewhere in a string; null when the body has neither an id nor a string to spoil.
   */
  private Body mustBeRefused(JsonObject valid) {
    JsonObject body = valid.copy();
    List<Slot> slots = new ArrayList<>();
    slots(body, "", slots);
    List<Slot> ids =
        slots.stream()
            .filter(
                slot ->
                    slot.get() instanceof String text
                        && ID_VALUE.matcher(text).matches()
                        && ID_FIELD
                            .matcher(slot.path().replaceAll("/\\d+$", "").replaceAll(".*/", ""))
                            .matches())
            .toList();
    List<Slot> texts = slots.stream().filter(slot -> slot.get() instanceof String).toList();
    String done;
    if (!ids.isEmpty() && (texts.isEmpty() || random.nextBoolean())) {
      Slot slot = ids.get(random.nextInt(ids.size()));
      String terminator = pick(LINE_TERMINATORS);
      slot.set(slot.get() + terminator);
      done =
          slot.path()
              + " ends in U+"
              + String.format("%04X", (int) terminator.charAt(terminator.length() - 1));
    } else if (!texts.isEmpty()) {
      Slot slot = texts.get(random.nextInt(texts.size()));
      String text = (String) slot.get();
      int at = random.nextInt(text.length() + 1);
      slot.set(text.substring(0, at) + "\u0000" + text.substring(at));
      done = slot.path() + " holds a NUL at " + at;
    } else {
      return null;
    }
    return new Body(done, JSON, Buffer.buffer(encode(body)), true);
  }

  /** One change at a random place in the tree; says what it did. */
  private String mutate(JsonObject body) {
    List<Slot> slots = new ArrayList<>();
    slots(body, "", slots);
    if (slots.isEmpty()) {
      body.put(pick(KEYS), randomValue(0));
      return "added a field to an empty object";
    }
    Slot slot = slots.get(random.nextInt(slots.size()));
    int kind = random.nextInt(11);
    switch (kind) {
      case 0 -> {
        slot.remove();
        return "dropped " + slot.path();
      }
      case 1 -> {
        List<JsonObject> objects = new ArrayList<>();
        objects(body, objects);
        String key = pick(KEYS);
        objects.get(random.nextInt(objects.size())).put(key, randomValue(1));
        return "added field '" + shorten(key) + "'";
      }
      case 2 -> {
        Object value = randomValue(1);
        slot.set(value);
        return "retyped " + slot.path() + " as " + kindOf(value);
      }
      case 3 -> {
        Object number = pick(EDGE_NUMBERS);
        slot.set(number);
        return slot.path() + " = " + number;
      }
      case 4 -> {
        String token = pick(RAW_NUMBERS);
        slot.set(raw(token));
        return slot.path() + " = raw " + token;
      }
      case 5 -> {
        int length = longLength();
        slot.set(longString(length));
        return slot.path() + " = " + length + " characters";
      }
      case 6 -> {
        String strange = strange();
        boolean append =
            slot.get() instanceof String text && !text.startsWith(RAW) && random.nextBoolean();
        slot.set(append ? slot.get() + strange : strange);
        return slot.path() + " has strange characters";
      }
      case 7 -> {
        int depth = pick(List.of(40, 300, 1_200, 5_000));
        slot.set(raw(nested(depth)));
        return slot.path() + " nested " + depth + " deep";
      }
      case 8 -> {
        slot.set(null);
        return slot.path() + " = null";
      }
      case 9 -> {
        Object value = slot.get();
        slot.set(value instanceof String text ? new JsonArray().add(text) : String.valueOf(value));
        return slot.path() + " stringified or wrapped";
      }
      default -> {
        Object value = slot.get();
        if (value instanceof JsonArray array) {
          int copies = pick(List.of(2, 50, 1_001, 5_000));
          Object item = array.isEmpty() ? randomValue(1) : array.getValue(0);
          for (int i = 0; i < copies; i++) {
            array.add(item instanceof JsonObject object ? object.copy() : item);
          }
          return slot.path() + " grew by " + copies + " items";
        }
        slot.set(new JsonArray().add(value));
        return slot.path() + " wrapped in an array";
      }
    }
  }

  private int longLength() {
    return pick(List.of(129, 257, 4_001, 20_001, 40_000, 70_000, 300_000));
  }

  private String longString(int length) {
    String unit =
        random.nextBoolean() ? "x" : pick(List.of("é", "😀", "\\", "\"", "\u0000", "ab "));
    return unit.repeat(length / unit.length() + 1).substring(0, length);
  }

  private String strange() {
    StringBuilder text = new StringBuilder();
    int parts = 1 + random.nextInt(3);
    for (int i = 0; i < parts; i++) {
      text.append(pick(STRANGE));
    }
    return text.toString();
  }

  private String nested(int depth) {
    boolean arrays = random.nextBoolean();
    return arrays
        ? "[".repeat(depth) + "]".repeat(depth)
        : "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
  }

  private Body flipped(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    int flips = 1 + random.nextInt(3);
    for (int i = 0; i < flips && bytes.length > 0; i++) {
      int[] hostile = {0xff, 0xc0, 0x80, 0x00, '"', '{', ']', ',', '\\', random.nextInt(256)};
      bytes[random.nextInt(bytes.length)] = (byte) hostile[random.nextInt(hostile.length)];
    }
    return new Body(flips + " bytes flipped", JSON, Buffer.buffer(bytes));
  }

  /** A key of the body written twice: the hostile value first or last. */
  private Body duplicateKey(JsonObject valid) {
    if (valid.isEmpty()) {
      return new Body("duplicate key", JSON, Buffer.buffer("{\"a\":1,\"a\":2}"));
    }
    List<String> keys = new ArrayList<>(valid.fieldNames());
    String key = keys.get(random.nextInt(keys.size()));
    String hostile = "\"" + key + "\":" + encode(randomValue(1));
    String text = valid.encode();
    boolean first = random.nextBoolean();
    String body =
        first
            ? "{" + hostile + "," + text.substring(1)
            : text.substring(0, text.length() - 1) + "," + hostile + "}";
    return new Body(
        "duplicate key '" + key + "' " + (first ? "first" : "last"), JSON, Buffer.buffer(body));
  }

  /** Purely random JSON: any value, a few levels deep. */
  Object randomValue(int depth) {
    int kind = random.nextInt(depth > 3 ? 6 : 8);
    return switch (kind) {
      case 0 -> null;
      case 1 -> random.nextBoolean();
      case 2 -> pick(EDGE_NUMBERS);
      case 3 -> random.nextInt(2000) - 1000;
      case 4 -> random.nextBoolean() ? strange() : "s" + random.nextInt(1000);
      case 5 -> random.nextInt(10) == 0 ? raw(pick(RAW_NUMBERS)) : random.nextDouble() * 1e6;
      case 6 -> randomArray(depth + 1);
      default -> randomObject(depth + 1);
    };
  }

  JsonObject randomObject(int depth) {
    JsonObject object = new JsonObject();
    int size = random.nextInt(6);
    for (int i = 0; i < size; i++) {
      object.put(
          random.nextBoolean() ? pick(KEYS) : "k" + random.nextInt(100), randomValue(depth + 1));
    }
    return object;
  }

  private JsonArray randomArray(int depth) {
    JsonArray array = new JsonArray();
    int size = random.nextInt(6);
    for (int i = 0; i < size; i++) {
      array.add(randomValue(depth + 1));
    }
    return array;
  }

  <T> T pick(List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }

  /** 1 to {@code max} random bytes: a binary frame. */
  byte[] bytes(int max) {
    byte[] bytes = new byte[1 + random.nextInt(max)];
    for (int i = 0; i < bytes.length; i++) {
      // one draw per byte, as the fuzz's seeds were recorded with
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }

  int nextInt(int bound) {
    return random.nextInt(bound);
  }

  boolean chance(int percent) {
    return random.nextInt(100) < percent;
  }

  /** A string for a query parameter or a path segment, percent-encoded or not, valid or not. */
  String hostileParameter(String valid) {
    return switch (random.nextInt(12)) {
      case 0 -> "";
      case 1 -> "-1";
      case 2 -> "99999999999999999999999";
      case 3 -> "1.5";
      case 4 -> "%zz";
      case 5 -> "%00";
      case 6 -> percentEncode(strange());
      case 7 -> "x".repeat(pick(List.of(65, 129, 2_000, 9_000)));
      case 8 -> valid + "%2F..%2F";
      case 9 -> "0x1f";
      case 10 -> "%E2%80%AE" + valid;
      default -> percentEncode(valid + pick(STRANGE));
    };
  }

  static String percentEncode(String text) {
    return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String kindOf(Object value) {
    return value == null
        ? "null"
        : value instanceof String text && text.startsWith(RAW)
            ? "raw"
            : value.getClass().getSimpleName();
  }

  private static String shorten(String text) {
    return text.length() > 20 ? text.substring(0, 20) + "…" : text;
  }

  /** Every object in the tree, the root first. */
  private static void objects(Object value, List<JsonObject> into) {
    if (value instanceof JsonObject object) {
      into.add(object);
      object.forEach(entry -> objects(entry.getValue(), into));
    } else if (value instanceof JsonArray array) {
      array.forEach(item -> objects(item, into));
    }
  }

  /** Every value in the tree, with where it sits. */
  private static void slots(Object container, String path, List<Slot> into) {
    if (container instanceof JsonObject object) {
      for (String key : List.copyOf(object.fieldNames())) {
        into.add(new Slot(object, key, -1, path + "/" + key));
        slots(object.getValue(key), path + "/" + key, into);
      }
    } else if (container instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        into.add(new Slot(array, null, i, path + "/" + i));
        slots(array.getValue(i), path + "/" + i, into);
      }
    }
  }

  /** A place in a JSON tree: a key of an object or an index of an array. */
  private record Slot(Object container, String key, int index, String path) {
    Object get() {
      return container instanceof JsonObject object
          ? object.getValue(key)
          : ((JsonArray) container).getValue(index);
    }

    void set(Object value) {
      if (container instanceof JsonObject object) {
        object.put(key, value);
      } else {
        ((JsonArray) container).set(index, value);
      }
    }

    void remove() {
      if (container instanceof JsonObject object) {
        object.remove(key);
      } else if (index < ((JsonArray) container).size()) {
        ((JsonArray) container).remove(index);
      }
    }
  }
}
