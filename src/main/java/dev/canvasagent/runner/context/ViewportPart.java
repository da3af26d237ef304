package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.model.ModelContext;
import io.vertx.core.json.JsonObject;

/** The requester's viewport bounds, in the model's coordinates. */
final class ViewportPart implements PromptPart<Void> {
  @Override
  public String name() {
    return "viewport";
  }

  @Override
  public int priority() {
    return 20;
  }

  @Override
  public boolean inRoomView() {
    return true;
  }

  @Override
  public boolean memoizable() {
    return true;
  }

  @Override
  public String describedAs() {
    return "the viewport the person sees";
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    ContextInputs inputs = scope.inputs();
    CoordinateFrame frame = scope.frame();
    Viewport viewport = inputs.viewport();
    if (viewport == null) {
      return PartOutput.empty(this);
    }
    JsonObject bounds = bounds(viewport, frame);
    String text = "## Viewport: what the person sees {x, y, w, h}\n" + bounds.encode() + "\n";
    if (PartOutput.utf8Length(text) > budgetBytes) {
      return PartOutput.empty(this).withTruncation();
    }
    return PartOutput.section(this, ModelContext.VIEWPORT, bounds, text, false);
  }

  /** A page rectangle as the model sees it: its top-left offset and rounded, its size rounded. */
  static JsonObject bounds(Viewport viewport, CoordinateFrame frame) {
    return new JsonObject()
        .put("x", frame.toModel(null, "x", viewport.x()))
        .put("y", frame.toModel(null, "y", viewport.y()))
        .put("w", Math.round(viewport.w()))
        .put("h", Math.round(viewport.h()));
  }
}
