package dev.canvasagent.runner.stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.catalog.ActionCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnumFieldsTest {
  private final EnumFields enums = new EnumFields(ActionCatalog.standard());

  @Test
  void schemaEnumsAndStyleKeysAreHeldBack() {
    assertTrue(enums.heldBack("create_shape", List.of("props", "color")));
    assertTrue(enums.heldBack("create_shape", List.of("props", "spline")), "enum in the schema");
    assertTrue(enums.heldBack("create_shape", List.of("type")));
    assertTrue(
        enums.heldBack("create_shape", List.of("props", "segments", 0, "type")), "through items");
    assertTrue(
        enums.heldBack("align", List.of("alignment")), "enum in the schema, not a style key");
    assertTrue(enums.heldBack("todo", List.of("status")));
    assertTrue(enums.heldBack("update_shape", List.of("props", "fill")));
  }

  @Test
  void freeTextAndIdsAreNot() {
    assertFalse(enums.heldBack("create_shape", List.of("text")));
    assertFalse(enums.heldBack("create_shape", List.of("id")));
    assertFalse(enums.heldBack("create_shape", List.of("props", "name")));
    assertFalse(enums.heldBack("delete_shape", List.of("shapeIds", 2)));
    assertFalse(enums.heldBack("todo", List.of("text")));
    assertFalse(enums.heldBack("create_shape", List.of("nonsense", "deeper")));
  }

  @Test
  void anUnknownVerbHoldsBackOnlyStyleKeys() {
    assertTrue(enums.heldBack("no_such_verb", List.of("color")));
    assertFalse(enums.heldBack("no_such_verb", List.of("alignment")));
  }
}
