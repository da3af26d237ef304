package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code apply_preset}, a brand macro that styles in one step: Hero, Callout, Quiet, Wire or Label,
 * by name or synonym. With {@code targetIds} it restyles those shapes (what each shape's type
 * allows); without, it creates a note in the preset's style at {@code x, y} with {@code text}.
 */
public final class ApplyPresetVerb implements ActionVerb {
  /** Each preset's brand tokens, as tldraw styles. */
  static final Map<String, JsonObject> PRESETS =
      Map.of(
          "Hero",
              new JsonObject()
                  .put("color", "orange")
                  .put("labelColor", "black")
                  .put("size", "xl")
                  .put("font", "sans")
                  .put("fill", "solid")
                  .put("dash", "solid")
                  .put("align", "start"),
          "Callout",
              new JsonObject()
                  .put("color", "red")
                  .put("labelColor", "black")
                  .put("size", "l")
                  .put("font", "sans")
                  .put("fill", "semi")
                  .put("dash", "solid"),
          "Quiet",
              new JsonObject()
                  .put("color", "grey")
                  .put("labelColor", "grey")
                  .put("size", "s")
                  .put("font", "sans")
                  .put("fill", "none")
                  .put("dash", "solid"),
          "Wire",
              new JsonObject()
                  .put("color", "black")
                  .put("labelColor", "black")
                  .put("size", "m")
                  .put("font", "mono")
                  .put("fill", "none")
                  .put("dash", "dashed"),
          "Label",
              new JsonObject()
                  .put("color", "black")
                  .put("labelColor", "black")
                  .put("size", "s")
                  .put("font", "mono")
                  .put("fill", "none")
                  .put("align", "start"));

  static final Map<String, String> SYNONYMS =
      Map.ofEntries(
          Map.entry("hero", "Hero"),
          Map.entry("headline", "Hero"),
          Map.entry("title", "Hero"),
          Map.entry("banner", "Hero"),
          Map.entry("callout", "Callout"),
          Map.entry("highlight", "Callout"),
          Map.entry("alert", "Callout"),
          Map.entry("emphasis", "Callout"),
          Map.entry("quiet", "Quiet"),
          Map.entry("muted", "Quiet"),
          Map.entry("subtle", "Quiet"),
          Map.entry("secondary", "Quiet"),
          Map.entry("wire", "Wire"),
          Map.entry("wireframe", "Wire"),
          Map.entry("outline", "Wire"),
          Map.entry("sketch", "Wire"),
          Map.entry("label", "Label"),
          Map.entry("tag", "Label"),
          Map.entry("caption", "Label"));

  @Override
  public String name() {
    return "apply_preset";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public Set<String> referencedShapes(JsonObject params) {
    return ShapeRefs.named(params, "targetIds");
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    String preset = SYNONYMS.get(params.getString("preset").strip().toLowerCase(Locale.ROOT));
    if (preset == null) {
      throw new ActionRejected(
          "unknown preset '"
              + params.getString("preset")
              + "'; use Hero, Callout, Quiet, Wire or Label");
    }
    JsonObject styles = PRESETS.get(preset);
    JsonObject normalized = params.copy().put("preset", preset);
    Set<String> targets = referencedShapes(params);
    if (params.containsKey("targetIds")) {
      ShapeRefs.requireUsable(params, "targetIds");
      List<JsonObject> restyled = new ArrayList<>();
      for (String id : targets) {
        JsonObject record = ShapeRefs.shape(context.board(), id).copy();
        Styles.apply(styles, record.getJsonObject("props"), true);
        if (params.getString("text") != null) {
          Labels.apply(record, params.getString("text"));
        }
        restyled.add(record);
      }
      return new SanitizedAction(normalized, new RecordDiff(restyled, List.of()));
    }
    double x = VerbRanges.coordinate(context.frame().toPage(null, "x", params.getDouble("x", 0.0)));
    double y = VerbRanges.coordinate(context.frame().toPage(null, "y", params.getDouble("y", 0.0)));
    String id = ShapeIds.newAgentId();
    String index =
        FractionalIndex.after(context.board().topIndexOnPage(ShapeRecords.PAGE_ID).orElse(null));
    JsonObject note =
        ShapeRecords.shape(
            id, "note", x, y, index, ShapeRecords.noteProps(params.getString("text", preset)));
    Styles.apply(styles, note.getJsonObject("props"), true);
    return new SanitizedAction(normalized.put("id", id), RecordDiff.putting(note));
  }
}
