package dev.canvasagent.runner.context;

import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.json.JsonObject;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host's screenshot, as the screenshot verticle answered ({@link Screenshot#image()}),
 * turned into the request's image. Never memoized: each run asks for a fresh one. No screenshot, or
 * one over its budget, leaves the run text-only.
 */
final class ScreenshotPart implements PromptPart<Void> {
  private static final Pattern DATA_URL =
      Pattern.compile("data:(image/[a-z+.-]+);base64,(.*)", Pattern.DOTALL);

  @Override
  public String name() {
    return "screenshot";
  }

  @Override
  public int priority() {
    return 110;
  }

  @Override
  public boolean inRoomView() {
    return true;
  }

  @Override
  public boolean memoizable() {
    return false;
  }

  @Override
  public String describedAs() {
    return "sometimes a screenshot";
  }

  @Override
  public boolean sharesTotalBudget() {
    return false;
  }

  @Override
  public PartOutput render(PartScope scope, int budgetBytes) {
    Screenshot screenshot = scope.inputs().screenshot();
    Screenshot.Image image = screenshot == null ? null : screenshot.image();
    if (image == null || image.dataUrl() == null) {
      return PartOutput.empty(this).withStats(new JsonObject().put("imageBytes", 0));
    }
    Matcher matcher = DATA_URL.matcher(image.dataUrl());
    if (!matcher.matches()) {
      return PartOutput.empty(this).withStats(new JsonObject().put("imageBytes", 0));
    }
    int bytes = image.bytes();
    if (bytes > budgetBytes) {
      return PartOutput.empty(this)
          .withTruncation()
          .withStats(new JsonObject().put("imageBytes", 0));
    }
    String text = "## Screenshot\nAttached: the host's view of the board.\n";
    return new PartOutput(
        name(),
        priority(),
        null,
        null,
        text,
        bytes,
        false,
        new JsonObject().put("imageBytes", bytes),
        new ModelRequest.Image(matcher.group(1), matcher.group(2)));
  }
}
