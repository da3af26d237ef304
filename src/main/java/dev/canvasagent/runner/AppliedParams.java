package dev.canvasagent.runner;

import dev.canvasagent.bus.ActionOutcome.Adjustment;
import dev.canvasagent.bus.ActionOutcome.DroppedPart;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the params the sanitizer applied differ from the params an outside caller gave, told back to
 * it so that it learns what its call became without diffing it itself: the values changed (clamped,
 * normalized, an alias resolved, an id prefixed), and the parts left out (a batch's skipped
 * operations, {@link BatchIssues}). Only what the caller gave is compared: what the sanitizer adds of
 * its own (a batch's {@code result}, a generated id) is in the applied params and the outcome's ids.
 */
final class AppliedParams {
  /** The code of a batch operation the resolver skipped. */
  static final String OPERATION_SKIPPED = "OPERATION_SKIPPED";

  /** The code of a batch operation placed top-level: its {@code parentRef} named no frame before it. */
  static final String PARENT_DROPPED = "PARENT_DROPPED";

  private AppliedParams() {}

  /** Each value given whose applied value differs, by JSON pointer. */
  static List<Adjustment> adjusted(JsonObject given, JsonObject applied) {
    List<Adjustment> adjustments = new ArrayList<>();
    compare("", given, applied, adjustments);
    return adjustments;
  }

  private static void compare(String path, Object given, Object applied, List<Adjustment> into) {
    if (given instanceof JsonObject givenObject && applied instanceof JsonObject appliedObject) {
      for (String key : givenObject.fieldNames()) {
        compare(
            path + "/" + escaped(key),
            givenObject.getValue(key),
            appliedObject.getValue(key),
            into);
      }
      return;
    }
    if (given instanceof JsonArray givenArray
        && applied instanceof JsonArray appliedArray
        && givenArray.size() == appliedArray.size()) {
      for (int i = 0; i < givenArray.size(); i++) {
        compare(path + "/" + i, givenArray.getValue(i), appliedArray.getValue(i), into);
      }
      return;
    }
    if (!same(given, applied)) {
      into.add(new Adjustment(path, given, applied));
    }
  }

  /** Numbers by value (a given 100 is an applied 100.0); everything else as JSON. */
  private static boolean same(Object given, Object applied) {
    if (given instanceof Number a && applied instanceof Number b) {
      return Double.compare(a.doubleValue(), b.doubleValue()) == 0;
    }
    return Objects.equals(given, applied);
  }

  /** A key as a JSON pointer's reference token (RFC 6901). */
  private static String escaped(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  /**
   * The parts of the applied action its verb left out: for {@code batch_operations}, each skipped
   * operation ({@code /operations/<index>}) and each one placed top-level for want of its frame
   * ({@code /operations/<index>/parentRef}), with the resolver's reason and the ref it was about.
   */
  static List<DroppedPart> dropped(JsonObject applied) {
    JsonObject result =
        applied != null && applied.getValue("result") instanceof JsonObject json ? json : null;
    if (result == null) {
      return List.of();
    }
    List<DroppedPart> dropped = new ArrayList<>();
    issues(result, "skipped", "", OPERATION_SKIPPED, dropped);
    issues(result, "placedTopLevel", "/parentRef", PARENT_DROPPED, dropped);
    return dropped;
  }

  private static void issues(
      JsonObject result, String key, String suffix, String code, List<DroppedPart> into) {
    if (!(result.getValue(key) instanceof JsonArray issues)) {
      return;
    }
    for (Object item : issues) {
      if (!(item instanceof JsonObject issue)) {
        continue;
      }
      Object index = issue.getValue("index");
      String path =
          index instanceof Number number ? "/operations/" + number.intValue() + suffix : null;
      Object ref = issue.getValue("ref");
      String reason = String.valueOf(issue.getValue("reason"));
      into.add(new DroppedPart(path, code, ref == null ? reason : "ref '" + ref + "': " + reason));
    }
  }
}
