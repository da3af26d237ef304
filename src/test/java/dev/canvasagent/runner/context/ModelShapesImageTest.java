package dev.canvasagent.runner.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.ShapeRecords;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** An image or video is told to the model by its type, its size and its alt text. */
class ModelShapesImageTest {
  @Test
  void anImageIsToldByItsAltText() {
    JsonObject image =
        ShapeRecords.shape(
            "shape:img",
            "image",
            0,
            0,
            "a1",
            new JsonObject().put("w", 200).put("h", 100).put("altText", "a sales chart"));
    assertEquals("image", ModelShapes.type(image));
    assertEquals("a sales chart", ModelShapes.text(image));
  }
}
