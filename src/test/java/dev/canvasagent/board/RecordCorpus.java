package dev.canvasagent.board;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Valid tldraw records of every kind the board keeps, built with {@link ShapeRecords} where it can
 * build them, named for what each one shows. Every call gives fresh copies to mutate.
 */
final class RecordCorpus {
  private RecordCorpus() {}

  static JsonObject geo() {
    return ShapeRecords.shape(
        "shape:box",
        "geo",
        10,
        20,
        "a1",
        ShapeRecords.geoProps("rectangle", 120, 80, "Hello\nworld"));
  }

  static JsonObject text() {
    return ShapeRecords.shape(
        "shape:words", "text", -30.5, 4, "a2", ShapeRecords.textProps("Some text", 200));
  }

  static JsonObject note() {
    return ShapeRecords.shape(
        "shape:sticky", "note", 300, 300, "a3", ShapeRecords.noteProps("Remember"));
  }

  static JsonObject arrow() {
    return ShapeRecords.shape(
        "shape:arrow", "arrow", 0, 0, "a4", ShapeRecords.arrowProps(150, 40, "goes to"));
  }

  static JsonObject line() {
    JsonObject points =
        new JsonObject()
            .put(
                "a1",
                new JsonObject().put("id", "a1").put("index", "a1").put("x", 0.0).put("y", 0.0))
            .put(
                "a2",
                new JsonObject().put("id", "a2").put("index", "a2").put("x", 100.0).put("y", 50.0));
    return ShapeRecords.shape("shape:line", "line", 5, 5, "a5", ShapeRecords.lineProps(points));
  }

  static JsonObject draw() {
    List<DrawPath.Point> stroke =
        List.of(
            new DrawPath.Point(0, 0, 0.5),
            new DrawPath.Point(4, 3, 0.6),
            new DrawPath.Point(9, 4, 0.5));
    JsonArray segments =
        new JsonArray()
            .add(new JsonObject().put("type", "free").put("path", DrawPath.encode(stroke)));
    return ShapeRecords.shape(
        "shape:scribble", "draw", 40, 40, "a6", ShapeRecords.drawProps(segments, false));
  }

  /** ShapeRecords has no highlight builder: a draw without fill, dash and isClosed is one. */
  static JsonObject highlight() {
    JsonObject record =
        draw().put("id", "shape:marker").put("type", "highlight").put("index", "a7");
    JsonObject props = record.getJsonObject("props");
    props.remove("fill");
    props.remove("dash");
    props.remove("isClosed");
    return record;
  }

  static JsonObject frame() {
    return ShapeRecords.shape(
        "shape:frame", "frame", 500, 0, "a8", ShapeRecords.frameProps(400, 300, "Plan"));
  }

  static JsonObject group() {
    return ShapeRecords.shape("shape:group", "group", 0, 0, "a9", ShapeRecords.groupProps());
  }

  static JsonObject binding() {
    return new JsonObject()
        .put("id", "binding:end")
        .put("typeName", "binding")
        .put("type", "arrow")
        .put("fromId", "shape:arrow")
        .put("toId", "shape:box")
        .put(
            "props",
            new JsonObject()
                .put("terminal", "end")
                .put("normalizedAnchor", new JsonObject().put("x", 0.5).put("y", 0.5))
                .put("isExact", false)
                .put("isPrecise", false)
                .put("snap", "none"))
        .put("meta", new JsonObject());
  }

  /** One record of each kind. */
  static Map<String, JsonObject> bases() {
    Map<String, JsonObject> bases = new LinkedHashMap<>();
    bases.put("geo", geo());
    bases.put("text", text());
    bases.put("note", note());
    bases.put("arrow", arrow());
    bases.put("line", line());
    bases.put("draw", draw());
    bases.put("highlight", highlight());
    bases.put("frame", frame());
    bases.put("group", group());
    bases.put("arrow binding", binding());
    return bases;
  }

  /** Valid records beyond the defaults: other values tldraw accepts. */
  static Map<String, JsonObject> variations() {
    Map<String, JsonObject> variations = new LinkedHashMap<>();
    for (String geo : new TreeSet<>(TldrawStyles.GEOS)) {
      variations.put(
          "geo " + geo,
          ShapeRecords.shape(
              "shape:g-" + geo, "geo", 0, 0, "a1", ShapeRecords.geoProps(geo, 50, 50, "")));
    }
    variations.put(
        "a child of a frame",
        with(geo(), record -> record.put("parentId", "shape:frame").put("x", -5.0)));
    variations.put(
        "rotated, half transparent, locked",
        with(
            geo(),
            record -> record.put("rotation", 1.5707963).put("opacity", 0.5).put("isLocked", true)));
    variations.put("fully transparent", with(geo(), record -> record.put("opacity", 0)));
    variations.put(
        "integer coordinates",
        with(geo(), record -> record.put("x", 10).put("y", -20).put("rotation", 0)));
    variations.put(
        "meta with content",
        with(
            geo(),
            record ->
                record.put(
                    "meta",
                    new JsonObject()
                        .put("author", "agent")
                        .put("tags", new JsonArray().add("a")))));
    variations.put("jittered index", with(geo(), record -> record.put("index", "a2koU")));
    variations.put("index b10", with(geo(), record -> record.put("index", "b10")));
    variations.put("index Zz", with(geo(), record -> record.put("index", "Zz")));
    variations.put("index a1V", with(geo(), record -> record.put("index", "a1V")));
    variations.put("id shape: alone", with(geo(), record -> record.put("id", "shape:")));
    variations.put(
        "empty label", with(geo(), record -> props(record).put("richText", RichText.of(""))));
    variations.put(
        "rich text with attrs",
        with(
            geo(),
            record ->
                props(record)
                    .getJsonObject("richText")
                    .put("attrs", new JsonObject().put("dir", "auto"))));
    variations.put(
        "rich text attrs null",
        with(geo(), record -> props(record).getJsonObject("richText").putNull("attrs")));
    variations.put(
        "rich text of any nodes",
        with(
            geo(),
            record ->
                props(record)
                    .put(
                        "richText",
                        new JsonObject()
                            .put("type", "anything")
                            .put("content", new JsonArray().add(1).add("two").addNull()))));
    variations.put(
        "flipped, grown, scaled",
        with(
            geo(),
            record ->
                props(record)
                    .put("flipX", true)
                    .put("flipY", true)
                    .put("growY", 12.5)
                    .put("scale", 2.5)));
    variations.put(
        "every style",
        with(
            geo(),
            record ->
                props(record)
                    .put("color", "light-violet")
                    .put("labelColor", "white")
                    .put("fill", "lined-fill")
                    .put("dash", "dotted")
                    .put("size", "xl")
                    .put("font", "mono")
                    .put("align", "end-legacy")
                    .put("verticalAlign", "start")));
    for (String url :
        List.of(
            "https://example.com/a?b=c#d",
            "http://localhost:8080",
            "mailto:someone@example.com",
            "/relative/path",
            "./here",
            "HTTPS://EXAMPLE.COM",
            "http://[::1]:3000/x",
            "http://192.168.0.1/")) {
      variations.put("url " + url, with(geo(), record -> props(record).put("url", url)));
    }
    variations.put(
        "text autoSize off, centred",
        with(text(), record -> props(record).put("autoSize", false).put("textAlign", "middle")));
    variations.put(
        "note shrunk font", with(note(), record -> props(record).put("fontSizeAdjustment", 0.8)));
    variations.put(
        "note font size to recompute",
        with(note(), record -> props(record).putNull("fontSizeAdjustment")));
    variations.put(
        "note legacy font adjustment 0",
        with(note(), record -> props(record).put("fontSizeAdjustment", 0)));
    variations.put(
        "note last edited",
        with(note(), record -> props(record).put("textLastEditedBy", "user:abc")));
    variations.put(
        "elbow arrow",
        with(arrow(), record -> props(record).put("kind", "elbow").put("elbowMidPoint", 0.3)));
    variations.put(
        "arrow label beyond its ends, bent back",
        with(arrow(), record -> props(record).put("labelPosition", 2.5).put("bend", -40)));
    variations.put(
        "arrow ends with z",
        with(arrow(), record -> props(record).getJsonObject("start").put("z", 0.5)));
    variations.put(
        "arrow heads",
        with(
            arrow(),
            record -> props(record).put("arrowheadStart", "diamond").put("arrowheadEnd", "bar")));
    variations.put(
        "cubic line of three points",
        with(
            line(),
            record ->
                props(record)
                    .put("spline", "cubic")
                    .getJsonObject("points")
                    .put(
                        "a3",
                        new JsonObject()
                            .put("id", "a3")
                            .put("index", "a3")
                            .put("x", 20)
                            .put("y", -5))));
    variations.put(
        "line point under another key",
        with(
            line(),
            record ->
                props(record)
                    .getJsonObject("points")
                    .put(
                        "other",
                        new JsonObject()
                            .put("id", "x")
                            .put("index", "a1V")
                            .put("x", 1)
                            .put("y", 1))));
    variations.put(
        "draw straight segment of dim 2",
        with(draw(), record -> segment(record).put("type", "straight").put("dim", 2)));
    variations.put("draw dim 3", with(draw(), record -> segment(record).put("dim", 3)));
    variations.put("draw dim 3.0", with(draw(), record -> segment(record).put("dim", 3.0)));
    variations.put(
        "draw path tldraw does not read",
        with(draw(), record -> segment(record).put("path", "not base64!")));
    variations.put(
        "draw mirrored, pen, closed",
        with(
            draw(),
            record ->
                props(record)
                    .put("scaleX", -1)
                    .put("scaleY", 0.5)
                    .put("isPen", true)
                    .put("isClosed", true)));
    variations.put(
        "draw without segments",
        with(draw(), record -> props(record).put("segments", new JsonArray())));
    variations.put(
        "frame in a frame", with(frame(), record -> record.put("parentId", "shape:outer")));
    variations.put(
        "binding start, precise, edge snap",
        with(
            binding(),
            record ->
                record
                    .getJsonObject("props")
                    .put("terminal", "start")
                    .put("isPrecise", true)
                    .put("isExact", true)
                    .put("snap", "edge-point")));
    variations.put(
        "binding anchor outside",
        with(
            binding(),
            record ->
                record
                    .getJsonObject("props")
                    .put("normalizedAnchor", new JsonObject().put("x", -0.2).put("y", 1.7))));
    return variations;
  }

  static JsonObject with(JsonObject record, Consumer<JsonObject> change) {
    change.accept(record);
    return record;
  }

  static JsonObject props(JsonObject record) {
    return record.getJsonObject("props");
  }

  static JsonObject segment(JsonObject record) {
    return props(record).getJsonArray("segments").getJsonObject(0);
  }
}
