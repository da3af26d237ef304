package dev.canvasagent.board;

import static dev.canvasagent.board.RecordCorpus.props;
import static dev.canvasagent.board.RecordCorpus.segment;
import static dev.canvasagent.board.RecordCorpus.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The validator against tldraw itself: for every record of a corpus (valid records of every kind,
 * and each of them broken in every field they have, and in the ways people and older tldraw
 * versions break them), the validator accepts exactly what tldraw 5.4.2's schema accepts. Where the
 * server is stricter on purpose, a second set shows tldraw accepting what the validator refuses.
 */
class TldrawRecordValidatorTest {
  /** Values put in place of every field. (NaN and Infinity have no JSON form: see numbersThatJsonCannotCarry.) */
  private static final List<Object> ODD_VALUES =
      List.of(
          "purple", "", -1, 0, 0.5, 2, true, new JsonObject(), new JsonArray(), "x".repeat(100));

  @TestFactory
  Stream<DynamicTest> acceptsExactlyWhatTldrawAccepts() {
    Map<String, JsonObject> cases = new LinkedHashMap<>();
    cases.putAll(RecordCorpus.bases());
    cases.putAll(RecordCorpus.variations());
    RecordCorpus.bases().forEach((kind, record) -> cases.putAll(mutations(kind, record)));
    cases.putAll(knownBreakages());
    return agreement(cases);
  }

  @TestFactory
  Stream<DynamicTest> isStricterThanTldrawOnlyWhereTheServerMeansToBe() {
    Map<String, JsonObject> cases = serverLimits();
    List<String> names = new ArrayList<>(cases.keySet());
    List<Optional<String>> tldraw = TldrawOracle.problems(new ArrayList<>(cases.values()));
    return IntStream.range(0, names.size())
        .mapToObj(
            i ->
                DynamicTest.dynamicTest(
                    names.get(i),
                    () -> {
                      assertEquals(
                          Optional.empty(), tldraw.get(i), names.get(i) + ": tldraw accepts it");
                      assertFalse(
                          TldrawRecordValidator.isValid(cases.get(names.get(i))),
                          names.get(i) + ": the server refuses it");
                    }));
  }

  @Test
  void numbersThatJsonCannotCarry() {
    // A posted record is JSON, where NaN and Infinity cannot be written; the validator still
    // refuses them.
    for (double bad :
        new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      assertFalse(TldrawRecordValidator.isValid(RecordCorpus.geo().put("x", bad)), "x " + bad);
      assertFalse(
          TldrawRecordValidator.isValid(
              with(RecordCorpus.geo(), record -> props(record).put("w", bad))),
          "w " + bad);
      assertFalse(
          TldrawRecordValidator.isValid(
              with(RecordCorpus.draw(), record -> props(record).put("scaleX", bad))),
          "scaleX " + bad);
    }
  }

  @Test
  void aProblemNamesTheRecordAndTheFieldAndShowsTheValueShort() {
    JsonObject purple = with(RecordCorpus.geo(), record -> props(record).put("color", "purple"));
    RecordProblem problem = TldrawRecordValidator.check(purple).orElseThrow();

    assertEquals("shape:box", problem.recordId());
    assertEquals("props.color", problem.path());
    assertTrue(
        problem
            .toString()
            .startsWith("shape:box props.color: expected one of [black, blue, green, "),
        problem.toString());
    assertTrue(problem.toString().endsWith("got \"purple\""), problem.toString());

    JsonObject longName =
        with(
            RecordCorpus.frame(),
            record -> props(record).put("name", 7).put("color", "x".repeat(500)));
    String message = TldrawRecordValidator.check(longName).orElseThrow().toString();
    assertTrue(message.startsWith("shape:frame props.name: expected a string, got 7"), message);

    JsonObject longColor =
        with(RecordCorpus.frame(), record -> props(record).put("color", "y".repeat(500)));
    message = TldrawRecordValidator.check(longColor).orElseThrow().toString();
    assertTrue(message.endsWith("got \"" + "y".repeat(40) + "…\""), message);
  }

  @Test
  void aProblemDeepInsideNamesItsWholePath() {
    JsonObject badPoint =
        with(
            RecordCorpus.line(),
            record ->
                props(record).getJsonObject("points").getJsonObject("a2").put("index", "a10"));
    assertEquals(
        "props.points.a2.index", TldrawRecordValidator.check(badPoint).orElseThrow().path());

    JsonObject badSegment = with(RecordCorpus.draw(), record -> segment(record).put("dim", 4));
    assertEquals(
        "props.segments.0.dim", TldrawRecordValidator.check(badSegment).orElseThrow().path());

    JsonObject extra = with(RecordCorpus.geo(), record -> props(record).put("text", "Hello"));
    assertEquals(
        "shape:box props.text: unexpected property",
        TldrawRecordValidator.check(extra).orElseThrow().toString());
  }

  @Test
  void aRecordThatIsTooLargeIsRefusedAsAWhole() {
    JsonObject huge =
        with(
            RecordCorpus.text(),
            record -> props(record).put("richText", RichText.of("w".repeat(300_000))));
    RecordProblem problem = TldrawRecordValidator.check(huge).orElseThrow();

    assertEquals("", problem.path());
    assertTrue(problem.message().contains("over the server's limit of 262144"), problem.message());
    assertFalse(problem.toString().contains("www"), "no user text in the message");
  }

  /** One test per case: the validator's verdict is tldraw's. All cases go to tldraw in one request. */
  private static Stream<DynamicTest> agreement(Map<String, JsonObject> cases) {
    List<String> names = new ArrayList<>(cases.keySet());
    List<Optional<String>> tldraw = TldrawOracle.problems(new ArrayList<>(cases.values()));
    return IntStream.range(0, names.size())
        .mapToObj(
            i ->
                DynamicTest.dynamicTest(
                    names.get(i),
                    () -> {
                      JsonObject record = cases.get(names.get(i));
                      Optional<RecordProblem> ours = TldrawRecordValidator.check(record);
                      assertEquals(
                          tldraw.get(i).isEmpty(),
                          ours.isEmpty(),
                          () ->
                              names.get(i)
                                  + "\ntldraw: "
                                  + tldraw.get(i).orElse("valid")
                                  + "\nvalidator: "
                                  + ours.map(RecordProblem::toString).orElse("valid")
                                  + "\nrecord: "
                                  + record.encode());
                    }));
  }

  /** The record without each field, with each field set to each odd value, and with an unknown field, at every depth. */
  private static Map<String, JsonObject> mutations(String kind, JsonObject record) {
    Map<String, JsonObject> mutations = new LinkedHashMap<>();
    mutate(kind, record, record, new ArrayList<>(), mutations);
    return mutations;
  }

  private static void mutate(
      String kind,
      JsonObject record,
      JsonObject object,
      List<String> path,
      Map<String, JsonObject> mutations) {
    String at = path.isEmpty() ? "" : String.join(".", path) + ".";
    mutations.put(
        kind + " with " + at + "unexpected",
        changed(record, path, target -> target.put("unexpected", 1)));
    for (String key : new ArrayList<>(object.fieldNames())) {
      mutations.put(
          kind + " without " + at + key, changed(record, path, target -> target.remove(key)));
      if (key.equals("meta")) {
        continue; // tldraw takes any JSON as meta, the server only an object: see serverLimits
      }
      mutations.put(
          kind + " with " + at + key + " null",
          changed(record, path, target -> target.putNull(key)));
      for (Object odd : ODD_VALUES) {
        if (odd instanceof JsonArray && object.getValue(key) instanceof JsonObject) {
          continue; // tldraw takes an array for an object when no member is required: see
          // serverLimits
        }
        String shown =
            odd instanceof String text && text.length() > 10
                ? "a long string"
                : String.valueOf(odd);
        mutations.put(
            kind + " with " + at + key + " " + shown,
            changed(record, path, target -> target.put(key, odd)));
      }
      Object value = object.getValue(key);
      List<String> below = new ArrayList<>(path);
      below.add(key);
      if (value instanceof JsonObject child) {
        mutate(kind, record, child, below, mutations);
      } else if (value instanceof JsonArray array
          && !array.isEmpty()
          && array.getValue(0) instanceof JsonObject first) {
        below.add("0");
        mutate(kind, record, first, below, mutations);
      }
    }
  }

  /** A copy of {@code record} with {@code change} applied to the object at {@code path}. */
  private static JsonObject changed(
      JsonObject record, List<String> path, Consumer<JsonObject> change) {
    JsonObject copy = record.copy();
    Object target = copy;
    for (String step : path) {
      target =
          target instanceof JsonArray array
              ? array.getValue(Integer.parseInt(step))
              : ((JsonObject) target).getValue(step);
    }
    change.accept((JsonObject) target);
    return copy;
  }

  /** How records go wrong in practice: older tldraw shapes, wrong enums, bad keys and ids, bad URLs. */
  private static Map<String, JsonObject> knownBreakages() {
    Map<String, JsonObject> cases = new LinkedHashMap<>();
    cases.put(
        "text instead of richText",
        with(
            RecordCorpus.geo(),
            record -> {
              props(record).remove("richText");
              props(record).put("text", "Hello");
            }));
    cases.put(
        "text beside richText",
        with(RecordCorpus.text(), record -> props(record).put("text", "Hello")));
    cases.put(
        "label prop", with(RecordCorpus.geo(), record -> props(record).put("label", "Hello")));
    cases.put(
        "color purple", with(RecordCorpus.geo(), record -> props(record).put("color", "purple")));
    cases.put(
        "fill transparent",
        with(RecordCorpus.geo(), record -> props(record).put("fill", "transparent")));
    cases.put("geo square", with(RecordCorpus.geo(), record -> props(record).put("geo", "square")));
    cases.put(
        "align justify", with(RecordCorpus.geo(), record -> props(record).put("align", "justify")));
    cases.put(
        "text align left",
        with(RecordCorpus.text(), record -> props(record).put("textAlign", "left")));
    cases.put(
        "text with geo's align",
        with(RecordCorpus.text(), record -> props(record).put("textAlign", "start-legacy")));
    cases.put("w negative", with(RecordCorpus.geo(), record -> props(record).put("w", -10)));
    cases.put("w zero", with(RecordCorpus.geo(), record -> props(record).put("w", 0)));
    cases.put("w as a string", with(RecordCorpus.geo(), record -> props(record).put("w", "100")));
    cases.put("w NaN", with(RecordCorpus.geo(), record -> props(record).put("w", Double.NaN)));
    cases.put(
        "x Infinity",
        with(RecordCorpus.geo(), record -> record.put("x", Double.POSITIVE_INFINITY)));
    cases.put("growY negative", with(RecordCorpus.geo(), record -> props(record).put("growY", -1)));
    cases.put("text w zero", with(RecordCorpus.text(), record -> props(record).put("w", 0)));
    cases.put("frame h negative", with(RecordCorpus.frame(), record -> props(record).put("h", -5)));
    cases.put("scale zero", with(RecordCorpus.note(), record -> props(record).put("scale", 0)));
    cases.put(
        "note font adjustment negative",
        with(RecordCorpus.note(), record -> props(record).put("fontSizeAdjustment", -0.5)));
    cases.put(
        "note last edited by a number",
        with(RecordCorpus.note(), record -> props(record).put("textLastEditedBy", 3)));
    cases.put(
        "note first edited by (note v11)",
        with(
            RecordCorpus.note(),
            record -> {
              props(record).remove("textLastEditedBy");
              props(record).putNull("textFirstEditedBy");
            }));
    cases.put("opacity above 1", RecordCorpus.geo().put("opacity", 1.5));
    cases.put("opacity below 0", RecordCorpus.geo().put("opacity", -0.1));
    cases.put("opacity as a string (shape v1)", RecordCorpus.geo().put("opacity", "1"));
    for (String index : List.of("a10", "a00", "a", "1", "", "A" + "0".repeat(26), "zz", "b1")) {
      cases.put(
          "index " + (index.length() > 10 ? "smallest integer" : "'" + index + "'"),
          RecordCorpus.geo().put("index", index));
    }
    cases.put("id without prefix", RecordCorpus.geo().put("id", "box1"));
    cases.put("id with the page prefix", RecordCorpus.geo().put("id", "page:box1"));
    cases.put("parentId document", RecordCorpus.geo().put("parentId", "document:document"));
    cases.put("parentId bare", RecordCorpus.geo().put("parentId", "page"));
    cases.put("parentId shape: alone", RecordCorpus.geo().put("parentId", "shape:"));
    cases.put("meta missing", with(RecordCorpus.geo(), record -> record.remove("meta")));
    cases.put("unknown typeName", RecordCorpus.geo().put("typeName", "shapes"));
    cases.put("unknown shape type", RecordCorpus.geo().put("type", "widget"));
    cases.put("type of another shape's props", RecordCorpus.geo().put("type", "frame"));
    cases.put(
        "arrow v2 binding terminal",
        with(
            RecordCorpus.arrow(),
            record ->
                props(record)
                    .put(
                        "end",
                        new JsonObject()
                            .put("type", "binding")
                            .put("boundShapeId", "shape:box")
                            .put("normalizedAnchor", new JsonObject().put("x", 0.5).put("y", 0.5))
                            .put("isExact", false)
                            .put("isPrecise", false))));
    cases.put(
        "arrow v2 point terminal",
        with(
            RecordCorpus.arrow(),
            record ->
                props(record)
                    .put("start", new JsonObject().put("type", "point").put("x", 0).put("y", 0))));
    cases.put(
        "arrow end without y",
        with(RecordCorpus.arrow(), record -> props(record).getJsonObject("end").remove("y")));
    cases.put(
        "arrow end z null",
        with(RecordCorpus.arrow(), record -> props(record).getJsonObject("end").putNull("z")));
    cases.put(
        "arrow kind straight",
        with(RecordCorpus.arrow(), record -> props(record).put("kind", "straight")));
    cases.put(
        "arrowhead circle",
        with(RecordCorpus.arrow(), record -> props(record).put("arrowheadEnd", "circle")));
    cases.put(
        "arrow without elbowMidPoint (arrow v5)",
        with(RecordCorpus.arrow(), record -> props(record).remove("elbowMidPoint")));
    cases.put(
        "arrow labelPosition as a string",
        with(RecordCorpus.arrow(), record -> props(record).put("labelPosition", "middle")));
    cases.put(
        "binding without snap (binding v0)",
        with(RecordCorpus.binding(), record -> record.getJsonObject("props").remove("snap")));
    cases.put(
        "binding snap middle",
        with(
            RecordCorpus.binding(), record -> record.getJsonObject("props").put("snap", "middle")));
    cases.put(
        "binding terminal middle",
        with(
            RecordCorpus.binding(),
            record -> record.getJsonObject("props").put("terminal", "middle")));
    cases.put("binding from a bare id", RecordCorpus.binding().put("fromId", "arrow"));
    cases.put("binding to a page", RecordCorpus.binding().put("toId", "page:page"));
    cases.put("binding id without prefix", RecordCorpus.binding().put("id", "end"));
    cases.put("binding of another type", RecordCorpus.binding().put("type", "link"));
    cases.put(
        "draw v3 points",
        with(
            RecordCorpus.draw(),
            record ->
                props(record)
                    .put(
                        "segments",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("type", "free")
                                    .put(
                                        "points",
                                        new JsonArray()
                                            .add(
                                                new JsonObject()
                                                    .put("x", 0)
                                                    .put("y", 0)
                                                    .put("z", 0.5)))))));
    cases.put(
        "draw segment dim 4", with(RecordCorpus.draw(), record -> segment(record).put("dim", 4)));
    cases.put(
        "draw segment dim as a string",
        with(RecordCorpus.draw(), record -> segment(record).put("dim", "2")));
    cases.put(
        "draw segment dim null",
        with(RecordCorpus.draw(), record -> segment(record).putNull("dim")));
    cases.put(
        "draw segment type curve",
        with(RecordCorpus.draw(), record -> segment(record).put("type", "curve")));
    cases.put(
        "draw scaleX zero", with(RecordCorpus.draw(), record -> props(record).put("scaleX", 0)));
    cases.put(
        "draw without isPen", with(RecordCorpus.draw(), record -> props(record).remove("isPen")));
    cases.put(
        "highlight with fill",
        with(RecordCorpus.highlight(), record -> props(record).put("fill", "none")));
    cases.put(
        "line point index a10",
        with(
            RecordCorpus.line(),
            record ->
                props(record).getJsonObject("points").getJsonObject("a1").put("index", "a10")));
    cases.put(
        "line spline curve",
        with(RecordCorpus.line(), record -> props(record).put("spline", "curve")));
    cases.put(
        "group with a prop", with(RecordCorpus.group(), record -> props(record).put("w", 10)));
    cases.put(
        "richText without content",
        with(
            RecordCorpus.geo(),
            record -> props(record).getJsonObject("richText").remove("content")));
    cases.put(
        "richText content an object",
        with(
            RecordCorpus.geo(),
            record -> props(record).getJsonObject("richText").put("content", new JsonObject())));
    cases.put(
        "richText with text",
        with(
            RecordCorpus.geo(),
            record -> props(record).getJsonObject("richText").put("text", "Hello")));
    cases.put(
        "richText a string",
        with(RecordCorpus.geo(), record -> props(record).put("richText", "Hello")));
    for (String url :
        List.of(
            "javascript:alert(1)",
            "www.example.com",
            "example.com",
            "ftp://example.com",
            "http://",
            "https:",
            "http://exa mple.com",
            "http://example.com:99999",
            "http://example.com:80a",
            "http://[::1",
            "http://[::g]",
            "http://1.2.3.999",
            "http://1.2.3.4.5",
            "http://0x7f.1",
            "http://foo.09",
            "http://foo.0x",
            "https://münchen.de/",
            " https://example.com ",
            "//example.com/x",
            "//",
            "/\\example.com",
            "http:example.com",
            "http://user:pw@example.com",
            "http://example.com:",
            "http://a_b.example",
            "http://%41.com",
            "http://%zz.com",
            "http://exa<mple.com",
            "http://@example.com",
            "http://user@",
            "http://:80",
            "http://[1:2:3:4:5:6:7:8]/",
            "http://[1::2::3]/",
            "http://[::ffff:1.2.3.4]/",
            "http://[::1.2.3.04]/",
            "http://00x1.com",
            "http://1.2.3.4./",
            "http://0300.0250.0.1",
            "http://4294967295",
            "http://4294967296",
            "data:text/plain,x",
            "mailto:",
            "file:///etc/passwd",
            "./",
            "/",
            "http://ex\tample.com",
            "\thttp://example.com",
            "http://example.com\\path",
            "http://a\u200db.com",
            "http://ＥＸＡＭＰＬＥ.com",
            "http://xn--a.com",
            "http://xn--mnchen-3ya.de",
            "http://\u0378.com",
            "http://ab\u0301c.com",
            "http://a..b",
            "http://-a-.com",
            "http://a\u3002b.com",
            "http://a%2Fb.com",
            "http://a%00b.com",
            "http://exa%20mple.com",
            "http://%E2%9C%93.com",
            "http://%C3%BC.com",
            "http://a*b.com",
            "http://a\"b.com",
            "http://a{b.com",
            "http://Ab.COM",
            "http://" + "a".repeat(70) + ".com")) {
      cases.put(
          "url '" + url + "'", with(RecordCorpus.note(), record -> props(record).put("url", url)));
    }
    for (char c = '!'; c <= '~'; c++) {
      String url = "http://a" + c + "b.com/";
      cases.put(
          "url with '" + c + "' in the host",
          with(RecordCorpus.geo(), record -> props(record).put("url", url)));
    }
    return cases;
  }

  /**
   * What tldraw would load but the server refuses: its own bounds, and where it is stricter on
   * purpose: index keys of base-62 digits only, meta an object, objects that are not arrays (tldraw's
   * object checks take an array when nothing is required of it), a few rare URL hosts, no mailto
   * authority.
   */
  private static Map<String, JsonObject> serverLimits() {
    Map<String, JsonObject> cases = new LinkedHashMap<>();
    cases.put(
        "a record over 256 KiB",
        with(
            RecordCorpus.text(),
            record -> props(record).put("richText", RichText.of("w".repeat(300_000)))));
    cases.put(
        "rich text 21 nodes deep",
        with(RecordCorpus.geo(), record -> props(record).put("richText", nested(21))));
    cases.put(
        "201 draw segments",
        with(
            RecordCorpus.draw(),
            record -> {
              JsonArray segments = new JsonArray();
              for (int i = 0; i < 201; i++) {
                segments.add(segment(RecordCorpus.draw()));
              }
              props(record).put("segments", segments);
            }));
    cases.put(
        "a draw path over 200,000 characters",
        with(RecordCorpus.draw(), record -> segment(record).put("path", "A".repeat(200_004))));
    cases.put(
        "a highlight path over 200,000 characters",
        with(RecordCorpus.highlight(), record -> segment(record).put("path", "A".repeat(200_004))));
    cases.put(
        "an index key with a character that is not a base-62 digit",
        RecordCorpus.geo().put("index", "a0!"));
    cases.put("an index key ending in a space", RecordCorpus.geo().put("index", "a0 "));
    cases.put(
        "a line point index that is not base-62",
        with(
            RecordCorpus.line(),
            record ->
                props(record).getJsonObject("points").getJsonObject("a1").put("index", "a1-")));
    cases.put("meta a string", RecordCorpus.geo().put("meta", "x"));
    cases.put("meta null", RecordCorpus.geo().putNull("meta"));
    cases.put("meta an array", RecordCorpus.binding().put("meta", new JsonArray()));
    cases.put(
        "line points as an array (line v4)",
        with(
            RecordCorpus.line(),
            record ->
                props(record)
                    .put(
                        "points",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("id", "a1")
                                    .put("index", "a1")
                                    .put("x", 0)
                                    .put("y", 0)))));
    cases.put("group props an empty array", RecordCorpus.group().put("props", new JsonArray()));
    cases.put(
        "a page record",
        new JsonObject()
            .put("id", "page:page")
            .put("typeName", "page")
            .put("name", "Page 1")
            .put("index", "a1")
            .put("meta", new JsonObject()));
    cases.put(
        "a URL host mixing scripts (Java's IDNA 2003 checks bidi, browsers do not)",
        with(RecordCorpus.geo(), record -> props(record).put("url", "http://aא.com")));
    cases.put(
        "a URL host of an emoji (not in IDNA 2003)",
        with(RecordCorpus.geo(), record -> props(record).put("url", "http://🙂.com")));
    cases.put(
        "a URL host with an invisible character",
        with(RecordCorpus.geo(), record -> props(record).put("url", "http://exa\u00admple.com")));
    cases.put("an id ending in a newline", RecordCorpus.geo().put("id", "shape:box\n"));
    cases.put("an id ending in a carriage return", RecordCorpus.geo().put("id", "shape:box\r"));
    cases.put("an id ending in U+2028", RecordCorpus.geo().put("id", "shape:box\u2028"));
    cases.put("an id with a NUL", RecordCorpus.geo().put("id", "shape:b\u0000ox"));
    cases.put(
        "a parent id ending in U+0085", RecordCorpus.geo().put("parentId", "page:page\u0085"));
    cases.put(
        "a binding to an id ending in a newline",
        RecordCorpus.binding().put("toId", "shape:box\n"));
    cases.put(
        "mailto with an authority",
        with(
            RecordCorpus.geo(),
            record -> props(record).put("url", "mailto://someone@example.com")));
    return cases;
  }

  @Test
  void richTextAtTheDepthLimitIsAccepted() {
    JsonObject deep = with(RecordCorpus.geo(), record -> props(record).put("richText", nested(20)));
    assertTrue(TldrawRecordValidator.isValid(deep));
    JsonObject segments =
        with(
            RecordCorpus.draw(),
            record -> {
              JsonArray many = new JsonArray();
              for (int i = 0; i < 200; i++) {
                many.add(segment(RecordCorpus.draw()));
              }
              props(record).put("segments", many);
            });
    assertTrue(TldrawRecordValidator.isValid(segments));
  }

  /** A document whose nodes nest {@code depth} deep, the document itself counted: lists in lists. */
  private static JsonObject nested(int depth) {
    JsonObject node = new JsonObject().put("type", "paragraph");
    for (int level = depth - 1; level > 1; level--) {
      node =
          new JsonObject()
              .put("type", level % 2 == 0 ? "bulletList" : "listItem")
              .put("content", new JsonArray().add(node));
    }
    return new JsonObject().put("type", "doc").put("content", new JsonArray().add(node));
  }
}
