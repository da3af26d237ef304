package dev.canvasagent.catalog.verbs;

import dev.canvasagent.board.DrawPath;
import dev.canvasagent.board.FractionalIndex;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.ShapeRecords;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionVerb;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code pen} (starter kit): a freehand stroke through the model's points, as a tldraw {@code draw}
 * shape whose segment path is tldraw 5's base64 encoding. {@code style: straight} draws straight
 * segments between the points; {@code closed} closes the stroke and allows a fill.
 */
public final class PenVerb implements ActionVerb {
  @Override
  public String name() {
    return "pen";
  }

  @Override
  public VerbKind kind() {
    return VerbKind.BOARD;
  }

  @Override
  public SanitizedAction sanitize(JsonObject params, ActionContext context) {
    List<double[]> points = new ArrayList<>();
    for (Object point : params.getJsonArray("points")) {
      JsonObject p = (JsonObject) point;
      points.add(
          new double[] {
            VerbRanges.coordinate(context.frame().toPage(null, "x", p.getDouble("x"))),
            VerbRanges.coordinate(context.frame().toPage(null, "y", p.getDouble("y"))),
            DrawPath.DEFAULT_PRESSURE
          });
    }
    boolean closed = params.getBoolean("closed", false);
    if (closed) {
      points.add(points.get(0).clone());
    }
    String segmentType = "straight".equals(params.getString("style")) ? "straight" : "free";
    String index =
        FractionalIndex.after(context.board().topIndexOnPage(ShapeRecords.PAGE_ID).orElse(null));
    String id = ShapeIds.newAgentId();
    JsonObject record =
        CreateShapeVerb.draw(
            id, index, List.of(new CreateShapeVerb.Segment(segmentType, points)), closed);
    Styles.apply(params, record.getJsonObject("props"), context.brandPalette());
    return new SanitizedAction(params.copy().put("id", id), RecordDiff.putting(record));
  }
}
